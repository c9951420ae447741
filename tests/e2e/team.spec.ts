import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { uniqueEmail } from "./accounts";
import { signInAsAdmin, toastWith } from "./admin-session";
import { withDb } from "./db";

// Acceptance 2 of the people issue (the team side): an admin invites a writer as Author; the writer
// signs up through the link and lands in the back office as an Author, who cannot open Settings or
// the Team; the admin changes the role and removes access; the last admin cannot lose the role.

async function fits(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 390) {
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth, `${name} at 390 px`).toBeLessThanOrEqual(innerWidth);
    }
    await test.info().attach(`${name}-${width}`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  }
}

test("an invited writer joins as Author, cannot open Settings or Team; the admin changes the role and removes access", async ({ page, browser }) => {
  // Two browsers, a dozen screens, and since issue 41 the welcome step too: beyond test.slow()'s 90 s on a busy machine.
  test.setTimeout(180_000);
  const email = uniqueEmail("invited-writer");
  await signInAsAdmin(page);
  await page.goto("/admin/team", { waitUntil: "networkidle" });
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel(/^Author/).check();
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Invitation sent" })).toContainText(`Invitation sent to ${email} as Author.`);
  const link = await page.getByLabel("Invitation link").inputValue();
  expect(link).toMatch(/\/join\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("region", { name: /Pending invitations/ })).toContainText(email);
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await fits(page, "team");
  // Only the hash is stored.
  const stored = await withDb(async (db) => (await db.query(`select token_hash from invitations where email = $1`, [email])).rows[0]);
  expect(link).not.toContain(stored.token_hash);

  // The writer opens the link in a browser of their own.
  const writerContext = await browser.newContext();
  const writer = await writerContext.newPage();
  await writer.goto(new URL(link).pathname, { waitUntil: "networkidle" });
  await expect(writer.getByRole("heading", { level: 1 })).toHaveText("You're invited to join as Author");
  expect((await new AxeBuilder({ page: writer }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await writer.getByLabel("Your name").fill("Wren Writer");
  await writer.getByLabel("Password", { exact: true }).fill("wren-password-1");
  await writer.getByLabel("Password again").fill("wren-password-1");
  await writer.getByRole("button", { name: "Accept and join" }).click();
  // Asked once for their author page's photo, role and bio (issue 41); skipped here.
  await writer.waitForURL(/\/admin\/welcome$/);
  await writer.getByRole("button", { name: "Skip for now" }).click();
  await writer.waitForURL(/\/admin$/);
  await writer.setViewportSize({ width: 1280, height: 900 });
  const nav = writer.getByRole("navigation", { name: "Back office" });
  await expect(nav.getByRole("link")).toHaveText(["Dashboard", "Articles", "New Article", "Audience", "Media", "Your account"]);
  for (const screen of ["/admin/settings", "/admin/team", "/admin/categories"]) {
    expect((await writer.goto(screen))?.status(), screen).toBe(403);
  }
  // The link worked once.
  expect((await writer.goto(new URL(link).pathname))?.status()).toBe(410);

  // The writer can write and submit a draft.
  await writer.goto("/admin/articles/new", { waitUntil: "networkidle" });
  await writer.getByLabel("Title *").fill(`Wren's first ${Date.now().toString(36)}`);
  await writer.getByLabel("Content *").fill("Draft by an invited writer.");
  await writer.getByRole("button", { name: "Submit for review" }).click();
  await expect(toastWith(writer, "Submitted for review")).toBeVisible();

  // The admin makes them an editor, then removes their access.
  await page.reload({ waitUntil: "networkidle" });
  await page.getByLabel(`Role of ${email}`, { exact: true }).selectOption("editor");
  await page.getByRole("button", { name: `Change role of ${email}` }).click();
  await expect(toastWith(page, "Role changed")).toBeVisible();
  await writer.goto("/admin/categories");
  await expect(writer.getByRole("heading", { level: 1 })).toHaveText("Manage Categories");
  await page.getByRole("button", { name: `Remove access of ${email}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove access" }).click();
  await expect(toastWith(page, "Access removed")).toBeVisible();
  await writer.goto("/admin");
  await expect(writer).toHaveURL(/\/admin\/login$/);
  await writerContext.close();

  // The last admin cannot take the admin role away from themselves.
  const admins = await withDb(async (db) => (await db.query(`select count(*)::int as n from user_roles where role = 'admin'`)).rows[0].n);
  if (admins === 1) {
    await page.getByLabel("Role of admin@example.com", { exact: true }).selectOption("editor");
    await page.getByRole("button", { name: "Change role of admin@example.com" }).click();
    await expect(toastWith(page, "The last admin cannot lose the admin role")).toBeVisible();
    expect(await withDb(async (db) => (await db.query(`select count(*)::int as n from user_roles where role = 'admin'`)).rows[0].n)).toBe(1);
  }
});

test("a sent invitation's link is shown once where no notice covers it, and the address field is empty again, so a second click invites nobody", async ({ page }) => {
  test.slow();
  await signInAsAdmin(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto("/admin/team", { waitUntil: "networkidle" });
    const email = uniqueEmail(`invite-once-${width}`);
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Send invitation" }).click();
    const linkField = page.getByLabel("Invitation link");
    await expect(linkField).toHaveValue(/\/join\/[A-Za-z0-9_-]{43}$/);
    // The link has the focus (selected, ready to copy), is on screen, and nothing lies over it.
    await expect(linkField).toBeFocused();
    await expect(linkField).toBeInViewport({ ratio: 1 });
    const box = (await linkField.boundingBox())!;
    const onTop = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.id ?? null,
      [box.x + box.width - 4, box.y + box.height / 2],
    );
    expect(onTop, `at ${width} px the link's right end is not covered`).toBe("invite-link");
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);

    // The address is gone from the field: a second click sends nothing and invites nobody again.
    await expect(page.getByLabel("E-mail address")).toHaveValue("");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(linkField).toHaveValue(/\/join\//);
    expect(await withDb(async (db) => (await db.query(`select count(*)::int as n from invitations where email = $1`, [email])).rows[0].n)).toBe(1);
    await page.getByRole("button", { name: `Withdraw the invitation of ${email}` }).click();
    await expect(page.getByRole("region", { name: /Pending invitations/ })).not.toContainText(email);
  }
});

test("while the next invitation is being sent, the previous one's link is gone at once (issue 39), at 390 px", async ({ page }) => {
  test.slow();
  await signInAsAdmin(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/admin/team", { waitUntil: "networkidle" });
  const first = uniqueEmail("invite-first");
  await page.getByLabel("E-mail address").fill(first);
  await page.getByRole("button", { name: "Send invitation" }).click();
  const linkField = page.getByLabel("Invitation link");
  await expect(linkField).toHaveValue(/\/join\/[A-Za-z0-9_-]{43}$/);
  const firstLink = await linkField.inputValue();

  // The next invitation's answer is held back, so the page can be seen while it is pending.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/admin\/team\.data/, async (route) => {
    if (route.request().method() === "POST") await held;
    await route.continue();
  });
  const second = uniqueEmail("invite-second");
  await page.getByLabel("E-mail address").fill(second);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(linkField).toHaveCount(0);
  expect(await page.locator("input").evaluateAll((inputs, link) => inputs.some((input) => (input as HTMLInputElement).value === link), firstLink)).toBe(false);
  await expect(page.getByRole("status").filter({ hasText: "Invitation sent" })).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "Sending the invitation…" })).toBeVisible();
  await test.info().attach("team-invitation-pending-390", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });

  release();
  await expect(page.getByRole("status").filter({ hasText: "Invitation sent" })).toContainText(`Invitation sent to ${second} as Author.`);
  await expect(linkField).toHaveValue(/\/join\/[A-Za-z0-9_-]{43}$/);
  expect(await linkField.inputValue()).not.toBe(firstLink);
  await expect(page.getByRole("status").filter({ hasText: "Sending the invitation…" })).toHaveCount(0);
  await page.unroute(/\/admin\/team\.data/);
  for (const email of [first, second]) {
    await page.getByRole("button", { name: `Withdraw the invitation of ${email}` }).click();
    await expect(page.getByRole("region", { name: /Pending invitations/ })).not.toContainText(email);
  }
});
