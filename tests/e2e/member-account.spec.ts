import { writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { databaseUrlOfDataDir } from "../../scripts/bench-newsletter";
import { startSmtpSink, type SmtpSink } from "../setup/smtp-sink";
import { expect, test } from "./fixtures";
import { freePort, startOwnSite, type OwnSite } from "./own-site";

// Issue 40, readers' accounts, in Chromium against the production build: the site's mail goes to a real
// SMTP server (npm smtp-server, tests/setup/smtp-sink.ts), so this journey runs a site of its own with
// SMTP_URL pointing there (the shared e2e server writes mail to its outbox). A reader signs in by the
// e-mailed link, the (cached) header shows "Account", a second use of the link is refused, they change
// their name and newsletters, sign out everywhere (another device's session ends too), sign in again
// and delete the account.

const wait = expect.configure({ timeout: 30_000 });

/** The site, its mail going to `sink`. */
async function startSite(sink: SmtpSink): Promise<OwnSite> {
  return startOwnSite({
    dataDirPrefix: "frontpage-members-",
    port: await freePort(),
    timeout: 150_000,
    env: {
      WEB_CONCURRENCY: "1",
      SEED_DEMO: "1",
      LOG_LEVEL: "warn",
      SMTP_URL: sink.url,
      MAIL_FROM: "Frontpage <news@frontpage.example>",
      STRIPE_SECRET_KEY: "",
    },
  });
}

/** The newest sign-in link mailed to `to` after `after` messages, waiting for it. */
async function signInLink(sink: SmtpSink, to: string, after: number): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mine = sink.messages.filter((m) => m.to.includes(to));
        link = mine.length > after ? /https?:\/\/\S+\/account\/verify\?token=[^\s"<]+/.exec(mine.at(-1)!.text)?.[0] : undefined;
        return Boolean(link);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return link!;
}
const mailsTo = (sink: SmtpSink, to: string) => sink.messages.filter((m) => m.to.includes(to)).length;

async function shots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, `${name} at ${width} px`).toBeLessThanOrEqual(innerWidth);
    const body = await page.screenshot({ fullPage: true });
    await test.info().attach(`${name}-${width}`, { body, contentType: "image/png" });
    if (process.env.E2E_SHOTS_DIR) writeFileSync(path.join(process.env.E2E_SHOTS_DIR, `${name}-${width}.png`), body);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Asks for a sign-in link on the sign-in page, as a reader does. */
async function askForLink(page: Page, email: string) {
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Send me a sign-in link" }).click();
  await wait(page.getByRole("status")).toHaveText(/Check your inbox: we have sent you a link to sign in/);
}

async function newPage(browser: Browser, base: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  return { context, page: await context.newPage() };
}

test("a reader signs in by the e-mailed link, manages the account, signs out everywhere and deletes it", async ({ browser }) => {
  test.setTimeout(300_000);
  const sink = await startSmtpSink({ keep: true });
  const site = await startSite(sink);
  const db = new pg.Client({ connectionString: databaseUrlOfDataDir(site.dataDir) });
  await db.connect();
  const email = `member-${Date.now().toString(36)}@example.com`;
  try {
    const { context, page } = await newPage(browser, site.base);
    const header = page.getByRole("banner");

    // Anonymous: the (cached) header offers "Sign in" and "Subscribe".
    await page.goto("/");
    await expect(header.getByRole("link", { name: "Sign in" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Subscribe" })).toHaveAttribute("href", "/subscribe");
    await header.getByRole("link", { name: "Sign in" }).click();
    await wait(page).toHaveURL(/\/account\/sign-in$/);
    await shots(page, "member-sign-in");
    const anonymousAnswer = await page.request.post("/account/sign-in", { form: { email: "nobody-here@example.com" }, headers: { origin: site.base } });
    await askForLink(page, email);
    expect(await anonymousAnswer.text()).toContain("Check your inbox: we have sent you a link to sign in");
    expect(anonymousAnswer.headers()["cache-control"]).toBe("no-store");
    expect(anonymousAnswer.headers()["x-robots-tag"]).toMatch(/noindex/);
    // An address nobody has yet gets its link too (it becomes a member only if the link is used).
    await expect.poll(() => mailsTo(sink, "nobody-here@example.com"), { timeout: 20_000 }).toBe(1);

    // The link signs in and opens /account; the header says "Account" (on a cached page too).
    const link = await signInLink(sink, email, 0);
    await page.goto(link);
    await wait(page).toHaveURL(/\/account$/);
    await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
    await expect(page.getByText(`You sign in with ${email}.`)).toBeVisible();
    await expect(page.getByRole("region", { name: "Plan" }).getByText("Free", { exact: true })).toBeVisible();
    await page.goto("/");
    await wait(header.getByRole("link", { name: "Account" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Sign in" })).toHaveCount(0);
    await expect(header.getByRole("link", { name: "Subscribe" })).toHaveCount(0);
    await shots(page, "member-header");

    // A second use of the link is refused, with no session, and offers a new one.
    const { context: other, page: otherPage } = await newPage(browser, site.base);
    const again = await otherPage.goto(link);
    expect(again!.status()).toBe(400);
    await expect(otherPage.getByText("This sign-in link has already been used or has expired.")).toBeVisible();
    await expect(otherPage.getByRole("button", { name: "Send me a sign-in link" })).toBeVisible();
    expect((await other.cookies()).some((c) => c.name.startsWith("frontpage-member"))).toBe(false);

    // Name and newsletters.
    await page.goto("/account");
    await page.getByLabel("Your name").fill("Ada Reader");
    await page.getByRole("button", { name: "Save name" }).click();
    await wait(page.getByRole("status")).toHaveText("Your name is saved.");
    const newsletters = page.getByRole("region", { name: "Newsletters" });
    const first = newsletters.getByRole("checkbox").first();
    await first.check();
    await newsletters.getByRole("button", { name: "Save newsletters" }).click();
    await wait(page.getByRole("status")).toHaveText("Your preferences are saved.");
    await page.reload();
    await expect(page.getByLabel("Your name")).toHaveValue("Ada Reader");
    await expect(page.getByRole("region", { name: "Newsletters" }).getByRole("checkbox").first()).toBeChecked();
    const [row] = (await db.query<{ name: string; status: string; subs: number }>(`select name, status, (select count(*)::int from subscriptions where subscriber_id = s.id) as subs from subscribers s where email = $1`, [email])).rows;
    expect(row).toEqual({ name: "Ada Reader", status: "active", subs: 1 });
    await shots(page, "member-account");

    // A second device signs in; "Sign out everywhere" on the first ends both.
    await otherPage.goto("/account/sign-in");
    await askForLink(otherPage, email);
    await otherPage.goto(await signInLink(sink, email, 1));
    await wait(otherPage).toHaveURL(/\/account$/);
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await wait(page.getByRole("status")).toHaveText("You are signed out on every device.");
    await expect(page).toHaveURL(/\/account\/sign-in/);
    await otherPage.goto("/account");
    await wait(otherPage).toHaveURL(/\/account\/sign-in\?next=%2Faccount$/);
    await page.goto("/");
    await wait(header.getByRole("link", { name: "Sign in" })).toBeVisible();
    await other.close();

    // Signs in again, and deletes the account (a confirmation step first).
    await page.goto("/account/sign-in");
    await askForLink(page, email);
    await page.goto(await signInLink(sink, email, 2));
    await wait(page).toHaveURL(/\/account$/);
    await page.getByRole("link", { name: "Delete my account" }).click();
    await wait(page).toHaveURL(/\/account\/delete$/);
    await shots(page, "member-delete");
    await page.getByRole("checkbox", { name: "I understand that my account will be deleted." }).check();
    await page.getByRole("button", { name: "Delete my account" }).click();
    await wait(page.getByRole("status")).toHaveText("Your account has been deleted.");
    expect((await db.query(`select 1 from subscribers where email = $1`, [email])).rowCount).toBe(0);
    expect((await context.cookies()).filter((c) => c.name.startsWith("frontpage-member") || c.name === "frontpage-reader" || c.name === "frontpage-access")).toEqual([]);
    await page.goto("/account");
    await wait(page).toHaveURL(/\/account\/sign-in/);
    await context.close();
  } finally {
    await db.end();
    await site.stop();
    await sink.stop();
  }
});
