import { expect, test, type Browser, type Page } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query, wallClock } from "./db";
import { fillPublishingDetails, publishNow, scheduleAt, expectStoryLive } from "./publish-panel";

// The publishing lifecycle (decision 0009): drafts and scheduled articles stay off every public page
// until the scheduler (SCHEDULER_INTERVAL_MS=2000 on the e2e server) publishes them.

/** What an anonymous reader gets: the article's status, and whether home, RSS and the sitemap name it. */
async function readerSees(browser: Browser, slug: string, title: string) {
  const context = await browser.newContext();
  try {
    const article = await context.request.get(`/article/${slug}`);
    const home = await (await context.request.get("/")).text();
    const rss = await (await context.request.get("/rss.xml")).text();
    // The sitemap index, and every child it points to.
    const index = await (await context.request.get("/sitemap.xml")).text();
    let sitemap = "";
    for (const [, child] of index.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]+)<\/loc>/g)) sitemap += await (await context.request.get(child!)).text();
    return { status: article.status(), onHome: home.includes(title), inRss: rss.includes(slug), inSitemap: sitemap.includes(slug) };
  } finally {
    await context.close();
  }
}

const HIDDEN = { status: 404, onHome: false, inRss: false, inSitemap: false };
const PUBLIC = { status: 200, onHome: true, inRss: true, inSitemap: true };

async function fillArticle(page: Page, title: string) {
  await page.goto("/admin/articles/new", { waitUntil: "networkidle" });
  await page.getByLabel("Title *").fill(title);
  await page.getByLabel("Content *").fill("Written for the publishing journey.\n\nSecond paragraph.");
}

test.describe("publishing lifecycle", () => {
  test.beforeEach(async ({ page }) => {
    await signInAsAdmin(page);
  });

  test("Save Draft keeps it off the site, Preview shows it to the admin, Publish now publishes, Unpublish… hides it again", async ({ page, browser }) => {
    const run = Date.now().toString(36);
    const title = `Quiet draft ${run}`;
    const slug = `quiet-draft-${run}`;
    await fillArticle(page, title);
    await page.getByRole("button", { name: "Save Draft" }).click();
    await expect(toastWith(page, "Draft saved")).toBeVisible();
    // A draft stays in its form, now with its status and a Preview link.
    await expect(page).toHaveURL(/\/admin\/articles\/edit\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId("article-status")).toHaveText("Status: Draft");
    const editUrl = page.url();

    expect(await readerSees(browser, slug, title)).toEqual(HIDDEN);

    // The admin list says so, and filters by status without scripts (a GET form).
    await page.goto("/admin/articles?status=draft", { waitUntil: "networkidle" });
    await expect(page.getByRole("row", { name: new RegExp(title) }).getByRole("cell", { name: "Draft", exact: true })).toBeVisible();
    await page.goto("/admin/articles?status=published", { waitUntil: "networkidle" });
    await expect(page.getByRole("row", { name: new RegExp(title) })).toHaveCount(0);

    // Preview: the reader's article page, for the admin only, never stored, never indexed.
    await page.goto(editUrl, { waitUntil: "networkidle" });
    const [preview] = await Promise.all([page.waitForResponse((r) => r.url().includes("/admin/articles/preview/")), page.getByRole("link", { name: "Preview" }).click()]);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("Second paragraph.")).toBeVisible();
    expect(preview.headers()["cache-control"]).toBe("no-store");
    const previewUrl = page.url();
    const anonymous = await browser.newContext();
    const anonymousPreview = await anonymous.request.get(previewUrl, { maxRedirects: 0 });
    expect(anonymousPreview.status()).toBe(302);
    expect(anonymousPreview.headers()["location"]).toBe("/admin/login");
    await anonymous.close();

    // "Publish…" → "Publish now" publishes it, with the spec's notice.
    await page.goto(editUrl, { waitUntil: "networkidle" });
    await fillPublishingDetails(page);
    await publishNow(page);
    await expectStoryLive(page);
    await page.getByTestId("story-live").getByRole("link", { name: "Back to articles" }).click();
    await expect(toastWith(page, "Article published successfully")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(title) }).getByRole("cell", { name: "Published", exact: true })).toBeVisible();
    expect(await readerSees(browser, slug, title)).toEqual(PUBLIC);

    // Unpublish…, after its confirm: gone from every public page again.
    await page.goto(editUrl, { waitUntil: "networkidle" });
    await expect(page.getByRole("button", { name: "Save Draft" })).toHaveCount(0);
    await page.getByRole("button", { name: "Unpublish…" }).click();
    await page.getByRole("alertdialog", { name: "Take this story off the site?" }).getByRole("button", { name: "Unpublish" }).click();
    await expect(toastWith(page, "Article unpublished")).toBeVisible();
    await expect(page.getByTestId("article-status")).toHaveText("Status: Draft");
    expect(await readerSees(browser, slug, title)).toEqual(HIDDEN);

    await query(`delete from articles where slug = $1`, [slug]);
  });

  test("a shared preview link shows a draft to someone without an account, never indexed; a damaged one is refused; publishing leads it to the article", async ({
    page,
    browser,
  }) => {
    const run = Date.now().toString(36);
    const title = `Shared draft ${run}`;
    const slug = `shared-draft-${run}`;
    await fillArticle(page, title);
    await page.getByRole("button", { name: "Save Draft" }).click();
    await expect(toastWith(page, "Draft saved")).toBeVisible();
    await page.getByRole("button", { name: "Share preview link" }).click();
    const field = page.getByLabel("Preview link");
    await expect(field).toHaveValue(/\/preview\/[0-9a-f-]{36}\.[0-9a-z]+\.[\w-]{43}$/);
    await expect(page.getByText(/Anyone with this link can read the preview, without signing in, until /)).toBeVisible();
    const url = new URL(await field.inputValue());

    const outsider = await browser.newContext();
    try {
      const reader = await outsider.newPage();
      const answer = await reader.goto(url.pathname, { waitUntil: "networkidle" });
      expect(answer?.status()).toBe(200);
      expect(answer?.headers()["cache-control"]).toBe("no-store");
      expect(answer?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
      await expect(reader.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(reader.getByText("Second paragraph.")).toBeVisible();
      await expect(reader.getByRole("note")).toContainText("not public yet");
      await expect(reader.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
      // The article itself is still hidden from that reader.
      expect((await outsider.request.get(`/article/${slug}`)).status()).toBe(404);

      // A damaged signature, or another article's id under this signature: not found.
      const [id, expiry, signature] = url.pathname.replace("/preview/", "").split(".") as [string, string, string];
      const damaged = await outsider.request.get(`/preview/${id}.${expiry}.${signature.slice(0, -2)}xx`);
      expect(damaged.status()).toBe(404);
      const pushedBack = await outsider.request.get(`/preview/${id}.${(parseInt(expiry, 36) + 86_400).toString(36)}.${signature}`);
      expect(pushedBack.status()).toBe(404);

      // "Revoke preview links" asks first, then every link made so far stops opening; a new one works.
      await page.getByRole("button", { name: "Revoke preview links" }).click();
      const confirm = page.getByRole("alertdialog", { name: "Revoke every preview link of this story?" });
      await confirm.getByRole("button", { name: "Cancel" }).click();
      expect((await outsider.request.get(url.pathname)).status()).toBe(200);
      await page.getByRole("button", { name: "Revoke preview links" }).click();
      await confirm.getByRole("button", { name: "Revoke links" }).click();
      await expect(toastWith(page, "Preview links revoked")).toBeVisible();
      expect((await outsider.request.get(url.pathname)).status()).toBe(404);
      await page.getByRole("button", { name: "Share preview link" }).click();
      await expect(field).toHaveValue(/\/preview\//);
      const renewed = new URL(await field.inputValue());
      expect(renewed.pathname).not.toBe(url.pathname);
      expect((await outsider.request.get(renewed.pathname)).status()).toBe(200);

      // Once published, the same link leads to the public article.
      url.pathname = renewed.pathname;
      await fillPublishingDetails(page);
      await publishNow(page);
      await expectStoryLive(page);
      const after = await outsider.request.get(url.pathname, { maxRedirects: 0 });
      expect(after.status()).toBe(302);
      expect(after.headers()["location"]).toBe(`/article/${slug}`);
    } finally {
      await outsider.close();
      await query(`delete from articles where slug = $1`, [slug]);
    }
  });

  test("a bad Publish at is refused beside the field and nothing is saved", async ({ page }) => {
    const run = Date.now().toString(36);
    const slug = `bad-date-${run}`;
    await fillArticle(page, `Bad date ${run}`);
    await fillPublishingDetails(page);
    await page.getByRole("button", { name: "Publish…" }).click();
    const panel = page.getByRole("dialog", { name: "Publish this story" });
    await panel.getByLabel("Schedule").check();
    // A datetime-local input only takes valid values; a client sending anything else is what the server refuses.
    await panel.getByLabel("Publish at").evaluate((input: HTMLInputElement) => {
      input.type = "text";
      input.value = "next tuesday";
    });
    await panel.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect(page.locator("#publishAt-error")).toContainText("Enter a date and time");
    await expect(page).toHaveURL(/\/admin\/articles\/new$/);
    expect(await query(`select id from articles where slug = $1`, [slug])).toHaveLength(0);
  });

  test("a scheduled article goes live at its time with no request in between", async ({ page, browser }) => {
    test.setTimeout(180_000);
    const run = Date.now().toString(36);
    const title = `Timed story ${run}`;
    const slug = `timed-story-${run}`;
    // Far enough ahead for the form, the panel and the checks below on a busy machine.
    const at = new Date(Date.now() + 45_000);
    await fillArticle(page, title);
    await fillPublishingDetails(page);
    await scheduleAt(page, wallClock(at));
    await expect(toastWith(page, "Article scheduled for")).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(title) }).getByRole("cell", { name: /^Scheduled for / })).toBeVisible();
    // The dashboard lists it among the scheduled stories (an editor's work, issue 27).
    await page.goto("/admin", { waitUntil: "networkidle" });
    await expect(page.getByRole("region", { name: /^Scheduled \(\d+\)$/ }).getByRole("link", { name: title })).toBeVisible();

    // Before its time: nowhere (and the home page is now in the page cache without it).
    expect(await readerSees(browser, slug, title)).toEqual(HIDDEN);

    // The form stored the time asked for; the test then brings it to a few seconds from now (it need
    // not wait out the margin the form and the checks above needed).
    const [stored] = await query<{ published_at: Date }>(`select published_at from articles where slug = $1`, [slug]);
    expect(Math.abs(stored!.published_at.getTime() - at.getTime())).toBeLessThan(1000);
    // (On a machine slow enough that its time has come already, the scheduler may have published it: then that time stands.)
    const [moved] = await query<{ due: Date }>(
      `update articles set published_at = least(published_at, now() + interval '3 seconds') where slug = $1 and status = 'scheduled' returning published_at as due`,
      [slug],
    );
    const due = moved?.due ?? stored!.published_at;

    // No request reaches the server until a little after its time (the scheduler looks every 2 s).
    await page.goto("about:blank");
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due.getTime() - Date.now()) + 4_000));
    expect(await readerSees(browser, slug, title)).toEqual(PUBLIC);
    const [row] = await query<{ status: string; published_at: Date }>(`select status, published_at from articles where slug = $1`, [slug]);
    expect(row!.status).toBe("published");
    expect(Math.abs(row!.published_at.getTime() - due.getTime())).toBeLessThan(1000);

    await query(`delete from articles where slug = $1`, [slug]);
  });
});
