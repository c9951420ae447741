import AxeBuilder from "@axe-core/playwright";
import { uniqueEmail } from "./accounts";
import { signInAsAdmin } from "./admin-session";
import { query } from "./db";
import { expect, test, type Browser, type Page } from "./fixtures";

// Issue 41: a new team member is asked, once, for the photo, role title and short bio of their author
// page (/admin/welcome, right after /join); they can save them or skip; either way the dashboard next.

// A valid 1×1 PNG: uploads are checked from their bytes, so it has to be a real image.
const PNG_1PX = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

/** The admin invites `email` as Author and returns the invitation's path. */
async function invite(page: Page, email: string): Promise<string> {
  await page.goto("/admin/team", { waitUntil: "networkidle" });
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel(/^Author/).check();
  await page.getByRole("button", { name: "Send invitation" }).click();
  return new URL(await page.getByLabel("Invitation link").inputValue()).pathname;
}

/** The invited person joins in a browser of their own; they land on the welcome step. */
async function join(browser: Browser, path: string, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(path, { waitUntil: "networkidle" });
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Password", { exact: true }).fill("onboard-password-1");
  await page.getByLabel("Password again").fill("onboard-password-1");
  await page.getByRole("button", { name: "Accept and join" }).click();
  await page.waitForURL(/\/admin\/welcome$/);
  return { context, page };
}

const authorOf = async (email: string) =>
  (
    await query<{ slug: string; role_title: string | null; bio: string | null; photo_url: string | null; asked: Date | null }>(
      `select a.slug, a.role_title, a.bio, a.photo_url, u.author_profile_asked_at as asked from authors a join "user" u on u.id = a.user_id where u.email = $1`,
      [email],
    )
  )[0]!;

test("a new team member is asked once for photo, role and bio: saved, they show on the author page; a later sign-in does not ask again", async ({ page, browser }) => {
  test.slow();
  const email = uniqueEmail("onboard-save");
  const name = `Oona Onboard ${Date.now().toString(36)}`;
  await signInAsAdmin(page);
  const { context, page: writer } = await join(browser, await invite(page, email), name);
  try {
    await expect(writer.getByRole("heading", { level: 1 })).toHaveText("Your author page");
    await expect(writer.getByRole("button", { name: "Skip for now" })).toBeVisible();
    expect((await new AxeBuilder({ page: writer }).analyze()).violations.map((v) => v.id)).toEqual([]);
    for (const width of [390, 1280]) {
      await writer.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      expect(await writer.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
      await writer.screenshot({ path: `/tmp/onboarding-shots/welcome-${width}.png`, fullPage: true });
    }

    // The author form's own rules: too long a role title is refused beside the field, and nothing is written.
    await writer.getByLabel("Role title").fill("x".repeat(121));
    await writer.getByRole("button", { name: "Save and continue" }).click();
    await expect(writer.getByText("Role title must be at most 120 characters").first()).toBeVisible();
    expect((await authorOf(email)).role_title).toBeNull();
    expect((await authorOf(email)).asked).toBeNull();

    await writer.getByLabel("Role title").fill("Harbour reporter");
    await writer.getByLabel("Bio").fill("Covers the port, the ferries and the fishing fleet.");
    await writer.getByLabel("Upload Image").setInputFiles({ name: "oona.png", mimeType: "image/png", buffer: PNG_1PX });
    await expect(writer.getByRole("img", { name: "Featured image preview" })).toHaveAttribute("src", /^\/media\/images\/\d+-[a-z0-9]+\.png$/);
    await writer.getByRole("button", { name: "Save and continue" }).click();
    await writer.waitForURL(/\/admin$/);
    const saved = await authorOf(email);
    expect(saved).toMatchObject({ role_title: "Harbour reporter", bio: "Covers the port, the ferries and the fishing fleet." });
    expect(saved.photo_url).toMatch(/^\/media\/images\//);
    expect(saved.asked).not.toBeNull();

    // Asked once: the step sends them on from now on.
    await writer.goto("/admin/welcome");
    await expect(writer).toHaveURL(/\/admin$/);

    // The author page shows them.
    await writer.goto(`/author/${saved.slug}`);
    const header = writer.getByTestId("author-header");
    await expect(header.getByRole("heading", { level: 1 })).toHaveText(name);
    await expect(header).toContainText("Harbour reporter");
    await expect(header).toContainText("Covers the port, the ferries and the fishing fleet.");
    await expect(header.getByRole("img", { name, exact: true })).toHaveAttribute("src", `${saved.photo_url}?w=320`);
    for (const width of [390, 1280]) {
      await writer.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await writer.screenshot({ path: `/tmp/onboarding-shots/author-photo-${width}.png` });
    }
  } finally {
    await context.close();
  }
});

test("another new team member skips: the dashboard, nothing written to their author page, which shows their initials", async ({ page, browser }) => {
  test.slow();
  const email = uniqueEmail("onboard-skip");
  const name = `Sam ${Date.now().toString(36)} Skipper`;
  await signInAsAdmin(page);
  const { context, page: writer } = await join(browser, await invite(page, email), name);
  try {
    await writer.getByLabel("Role title").fill("Should not be kept");
    await writer.getByRole("button", { name: "Skip for now" }).click();
    await writer.waitForURL(/\/admin$/);
    const skipped = await authorOf(email);
    expect(skipped).toMatchObject({ role_title: null, bio: null, photo_url: null });
    expect(skipped.asked).not.toBeNull();
    await writer.goto("/admin/welcome");
    await expect(writer).toHaveURL(/\/admin$/);

    // Their author page, as a reader sees it.
    const readerContext = await browser.newContext();
    const reader = await readerContext.newPage();
    try {
      await reader.goto(`/author/${skipped.slug}`);
      const header = reader.getByTestId("author-header");
      await expect(header.getByRole("heading", { level: 1 })).toHaveText(name);
      await expect(header.getByTestId("author-initials")).toHaveText("SS");
      await expect(header.getByRole("img")).toHaveCount(0);
      expect((await new AxeBuilder({ page: reader }).analyze()).violations.map((v) => v.id)).toEqual([]);
      for (const width of [390, 1280]) {
        await reader.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        expect(await reader.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
        await reader.screenshot({ path: `/tmp/onboarding-shots/author-initials-${width}.png` });
      }
    } finally {
      await readerContext.close();
    }
  } finally {
    await context.close();
  }
});

test("the welcome step is refused without a back-office session, and writes nothing", async ({ request }) => {
  const before = (await query<{ n: number }>(`select count(*)::int as n from authors where role_title = 'Anonymous onboarding'`))[0]!.n;
  const response = await request.post("/admin/welcome", { form: { intent: "save", roleTitle: "Anonymous onboarding", bio: "", photoUrl: "" }, maxRedirects: 0 });
  expect([401, 403]).toContain(response.status());
  expect((await query<{ n: number }>(`select count(*)::int as n from authors where role_title = 'Anonymous onboarding'`))[0]!.n).toBe(before);
});
