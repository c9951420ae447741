import { expect, test, type Browser } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query } from "./db";

/** What an anonymous reader's page shows in the banner's place (a fresh context: no session, served from the page cache). */
async function bannerFor(browser: Browser, path: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(path);
  const banner = page.getByRole("region", { name: "Breaking news" });
  const shown = (await banner.count()) > 0;
  const text = shown ? await banner.innerText() : null;
  const links = banner.getByRole("link");
  const link = shown && (await links.count()) > 0 ? await links.getAttribute("href") : null;
  await context.close();
  return { text, link };
}

test.describe("the breaking-news banner", () => {
  // Each check loads a page in a fresh anonymous browser context (eight of them, a sign-in and the
  // dashboard): on a busy 2-core machine one such load took 5–7 s, past a minute in all.
  test.describe.configure({ timeout: 120_000 });

  test.afterEach(async () => {
    await query("update website_settings set breaking_news_text = null, breaking_news_url = null, breaking_news_expires_at = null");
  });

  test("Show banner puts it on every reader page at once, cached pages included; it leaves by itself at its expiry", async ({ page, browser }) => {
    const text = `Harbour bridge closed ${Date.now().toString(36)}`;
    // Reader pages are in the page cache before the banner exists.
    expect((await bannerFor(browser, "/")).text).toBeNull();
    expect((await bannerFor(browser, "/category/news")).text).toBeNull();

    await signInAsAdmin(page);
    const card = page.getByRole("region", { name: "Breaking news" });
    await expect(card.getByRole("status")).toHaveText("No banner is showing.");
    await card.getByLabel("Banner text *").fill(text);
    await card.getByLabel("Link").fill("/about");
    await card.getByRole("button", { name: "Show banner" }).click();
    await expect(toastWith(page, "Banner shown")).toBeVisible();
    await expect(card.getByRole("status")).toContainText(`Showing “${text}” until`);

    for (const path of ["/", "/category/news", "/about"]) {
      const shown = await bannerFor(browser, path);
      expect(shown.text).toContain(text);
      expect(shown.link).toBe("/about");
    }

    // Expiry: a few seconds from now, with no request in between, the cached pages drop it.
    await query("update website_settings set breaking_news_expires_at = now() + interval '3 seconds'");
    await expect.poll(async () => (await bannerFor(browser, "/")).text, { timeout: 15_000 }).toBeNull();
    expect((await bannerFor(browser, "/category/news")).text).toBeNull();
  });

  test("Remove banner takes it down; a bad expiry or link is refused beside its field and shows nothing", async ({ page, browser }) => {
    await signInAsAdmin(page);
    const card = page.getByRole("region", { name: "Breaking news" });
    await card.getByLabel("Banner text *").fill("Polls close at 8 p.m.");
    await card.getByLabel("Link").fill("javascript:alert(1)");
    await card.getByRole("button", { name: "Show banner" }).click();
    await expect(toastWith(page, "Please correct the highlighted fields.")).toBeVisible();
    await expect(card.getByText("The link must be a web address (https://…) or a path on this site (/…)")).toBeVisible();
    await card.getByLabel("Link").fill("");
    await card.getByLabel("Expires at *").fill("2020-01-01T10:00");
    await card.getByRole("button", { name: "Show banner" }).click();
    await expect(card.getByText("The banner must go away at a time in the future")).toBeVisible();
    expect((await bannerFor(browser, "/")).text).toBeNull();

    await card.getByLabel("Expires at *").fill("2099-01-01T10:00");
    await card.getByRole("button", { name: "Show banner" }).click();
    await expect(toastWith(page, "Banner shown")).toBeVisible();
    expect((await bannerFor(browser, "/")).text).toContain("Polls close at 8 p.m.");
    await card.getByRole("button", { name: "Remove banner" }).click();
    await expect(toastWith(page, "Banner removed")).toBeVisible();
    await expect(card.getByRole("status")).toHaveText("No banner is showing.");
    expect((await bannerFor(browser, "/")).text).toBeNull();
  });
});
