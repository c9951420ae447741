import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "./fixtures";
import { signInWith, toastWith } from "./admin-session";
import { setRoleInDb, signUpAndSignIn, uniqueEmail, newContext } from "./accounts";
import { dataDir, query } from "./db";
import { totp } from "../setup/totp";

// Issue 12: admin accounts. A second factor (TOTP + backup codes), common passwords refused, password
// change, sign out everywhere, a forgotten-password e-mail, and a newsroom-wide two-factor requirement.

/** A new back-office account (admin unless told) signed in in `page`. */
async function newMember(page: Page, baseURL: string | undefined, what: string, role: "admin" | "editor" = "admin") {
  const email = uniqueEmail(what);
  const password = `${what}-velvet-harbour-1`;
  const api = await newContext(baseURL);
  await signUpAndSignIn(api, email, password);
  await api.dispose();
  await setRoleInDb(email, role);
  await signInWith(page, { email, password });
  return { email, password };
}

async function signOut(page: Page) {
  await page.context().clearCookies();
}

/** Turns two-factor on from Your account; answers the secret and the backup codes shown. */
async function turnOnTwoFactor(page: Page, password: string) {
  await page.goto("/admin/profile");
  await page.getByLabel("Your password").fill(password);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  const backupCodes = await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allTextContents();
  expect(backupCodes).toHaveLength(10);
  await page.getByLabel("Code from the app").fill(totp(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Two-factor authentication is on.")).toBeVisible();
  await expect(page.getByText("Status: On")).toBeVisible();
  return { secret, backupCodes };
}

async function signInFirstStep(page: Page, email: string, password: string) {
  await page.goto("/admin/login", { waitUntil: "networkidle" });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

test.describe("admin accounts", () => {
  test("with TOTP on, the password alone does not sign in: the code from the app (or a backup code) does", async ({ page, baseURL }) => {
    const { email, password } = await newMember(page, baseURL, "totp");
    const { secret, backupCodes } = await turnOnTwoFactor(page, password);
    await signOut(page);

    await signInFirstStep(page, email, password);
    await expect(page.getByLabel("Authentication code")).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/login$/);
    // Not signed in yet: the back office still sends the visitor to the login page.
    expect((await page.request.get("/admin", { maxRedirects: 0 })).status()).toBe(302);
    await page.getByLabel("Authentication code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(toastWith(page, "That code is not right.")).toBeVisible();
    await page.getByLabel("Authentication code").fill(totp(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/admin$/);

    // A backup code instead of the app's.
    await signOut(page);
    await signInFirstStep(page, email, password);
    await page.getByRole("button", { name: "Use a backup code instead" }).click();
    await page.getByLabel("Backup code").fill(backupCodes[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/admin$/);
  });

  test("without JavaScript too, the sign-in asks for the code after the password", async ({ browser, baseURL }) => {
    const setup = await browser.newPage();
    const { email, password } = await newMember(setup, baseURL, "nojs-totp");
    const { secret } = await turnOnTwoFactor(setup, password);
    await setup.close();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/admin/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expect(page.getByLabel("Authentication code")).toBeVisible();
    await page.getByLabel("Authentication code").fill(totp(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/admin$/);
    await context.close();
  });

  test("a common password is refused as a new one; a good one is taken, other sessions end, and sign out everywhere ends this one", async ({ page, browser, baseURL }) => {
    // Several accounts, each signed in more than once: 27–31 s on a loaded two-core machine.
    test.setTimeout(90_000);
    const { email, password } = await newMember(page, baseURL, "changer");
    // A second browser signed in as the same person.
    const other = await browser.newPage();
    await signInWith(other, { email, password });

    await page.goto("/admin/profile");
    await page.getByLabel("Current password").fill(password);
    await page.getByLabel("New password", { exact: true }).fill("password");
    await page.getByLabel("New password, again").fill("password");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("alert")).toContainText("one of the most common passwords");

    const next = "copper-meadow-signal-42";
    await page.getByLabel("Current password").fill(password);
    await page.getByLabel("New password", { exact: true }).fill(next);
    await page.getByLabel("New password, again").fill(next);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Your password has been changed, and every other session has been signed out.")).toBeVisible();
    // This browser stays signed in; the other one is out.
    expect((await page.request.get("/admin", { maxRedirects: 0 })).status()).toBe(200);
    expect((await other.request.get("/admin", { maxRedirects: 0 })).status()).toBe(302);
    await other.close();

    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.waitForURL(/\/admin\/login$/);
    expect((await page.request.get("/admin", { maxRedirects: 0 })).status()).toBe(302);
    await signInWith(page, { email, password: next });
  });

  test("Forgot your password?: the same answer for known and unknown addresses, and the e-mailed link sets a new password once", async ({ page, baseURL }) => {
    const { email } = await newMember(page, baseURL, "forgetful", "editor");
    await signOut(page);
    const outbox = path.join(dataDir(), "outbox");
    const before = new Set(fs.existsSync(outbox) ? fs.readdirSync(outbox) : []);

    await page.goto("/admin/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email").fill("nobody-at-all@example.com");
    await page.getByRole("button", { name: "Send reset link" }).click();
    const sent = page.getByRole("status");
    await expect(sent).toContainText("If an account uses that address");
    const unknownAnswer = await sent.textContent();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status")).toHaveText(unknownAnswer!);

    // The one new mail is the reset link for this account (none was sent to the unknown address).
    await expect.poll(() => fs.readdirSync(outbox).filter((f) => !before.has(f)).length).toBe(1);
    const file = fs.readdirSync(outbox).find((f) => !before.has(f))!;
    const mail = fs.readFileSync(path.join(outbox, file), "utf8").replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    expect(mail).toContain(`To: ${email}`);
    const link = /(http:\/\/[^\s"<>]+\/api\/auth\/reset-password\/[^\s"<>]+)/.exec(mail)![1]!;

    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page).toHaveURL(/\/admin\/reset-password\?token=/);
    await page.getByLabel("New password", { exact: true }).fill("12345678");
    await page.getByLabel("New password, again").fill("12345678");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByRole("alert")).toContainText("one of the most common passwords");
    await page.getByLabel("New password", { exact: true }).fill("amber-lighthouse-river-7");
    await page.getByLabel("New password, again").fill("amber-lighthouse-river-7");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByRole("status")).toContainText("Your password has been changed");
    await signInWith(page, { email, password: "amber-lighthouse-river-7" });

    // The link worked once.
    await signOut(page);
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByText("This password reset link is not valid any more")).toBeVisible();
  });

  test("an admin can require two-factor: a member without it is sent to set it up and can do nothing else until then", async ({ page, browser, baseURL }) => {
    // Two accounts and a two-factor set-up: 27–31 s on a loaded two-core machine.
    test.setTimeout(90_000);
    await newMember(page, baseURL, "requirer");
    const memberPage = await browser.newPage();
    const member = await newMember(memberPage, baseURL, "unprotected", "editor");
    try {
      await page.goto("/admin/team");
      await page.getByRole("button", { name: "Require two-factor for everyone" }).click();
      await expect(toastWith(page, "Two-factor required")).toBeVisible();

      await memberPage.goto("/admin/articles");
      await expect(memberPage).toHaveURL(/\/admin\/profile\?required=1$/);
      await expect(memberPage.getByRole("alert")).toContainText("Two-factor authentication is required.");
      // A write is refused on the server too.
      const refused = await memberPage.request.post("/admin/categories", { form: { intent: "create", name: "Sneaky", slug: "sneaky" }, headers: { Origin: baseURL! } });
      expect(refused.status()).toBe(403);
      await turnOnTwoFactor(memberPage, member.password);
      await memberPage.goto("/admin/articles");
      await expect(memberPage).toHaveURL(/\/admin\/articles$/);
    } finally {
      await query(`update website_settings set require_two_factor = false`);
      await memberPage.close();
    }
  });
});
