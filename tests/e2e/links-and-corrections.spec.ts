import { expect, test, type Page } from "./fixtures";
import { signInAsAdmin, toastWith } from "./admin-session";
import { query, siteDate } from "./db";
import { asReader, primeCache } from "./readers";
import { fillPublishingDetails, publishNow, expectStoryLive } from "./publish-panel";

// Links that survive a slug change, and dated corrections/updates (decision 0012).

/** Creates an article through the form, published now; answers its id. */
async function createPublished(page: Page, title: string, slug: string): Promise<string> {
  await page.goto("/admin/articles/new", { waitUntil: "networkidle" });
  await page.getByLabel("Title *").fill(title);
  await page.getByLabel("Slug *").fill(slug);
  await page.getByLabel("Content *").fill("Written for the links and corrections journey.\n\nSecond paragraph.");
  await fillPublishingDetails(page);
  await publishNow(page);
  await expectStoryLive(page);
  const [row] = await query<{ id: string }>(`select id from articles where slug = $1`, [slug]);
  created.push(row!.id);
  return row!.id;
}

/**
 * The articles this file made, deleted after it: "Update Article" re-sends "Publish at" at minute
 * precision, which moves a published article's date back by up to a minute, and reader.spec.ts
 * expects the home page's order to be the order of creation.
 */
const created: string[] = [];
test.afterAll(async () => {
  await query(`delete from articles where id = any($1::uuid[])`, [created]);
});

test.describe("links and corrections", () => {
  test.beforeEach(async ({ page }) => {
    await signInAsAdmin(page);
  });

  test("a published article's slug change: the form keeps the slug while the title changes, and the old address answers 301", async ({ page, browser }) => {
    // Two articles, a rename and a take-over through the form: longer than one journey's 30 s on two cores.
    test.slow();
    const run = Date.now().toString(36);
    const oldSlug = `council-vote-${run}`;
    const newSlug = `council-vote-delayed-${run}`;
    const id = await createPublished(page, `Council vote ${run}`, oldSlug);

    // The old address is a cached 200 for readers before the change.
    await primeCache(browser, `/article/${oldSlug}`);

    await page.goto(`/admin/articles/edit/${id}`, { waitUntil: "networkidle" });
    // A published article's slug no longer follows its headline.
    await page.getByLabel("Title *").fill(`Council vote delayed ${run}`);
    await expect(page.getByLabel("Slug *")).toHaveValue(oldSlug);
    await page.getByLabel("Slug *").fill(newSlug);
    await expect(page.getByTestId("slug-redirect-hint")).toHaveText(`The old address /article/${oldSlug} will redirect to the new one, /article/${newSlug}.`);
    await page.getByRole("button", { name: "Update Article" }).click();
    await expect(toastWith(page, "Article updated successfully")).toBeVisible();

    await asReader(browser, async (reader) => {
      const moved = await reader.request.get(`/article/${oldSlug}?ref=newsletter`, { maxRedirects: 0 });
      expect(moved.status()).toBe(301);
      expect(moved.headers()["location"]).toBe(`/article/${newSlug}?ref=newsletter`);
      await reader.goto(`/article/${oldSlug}`);
      await expect(reader).toHaveURL(new RegExp(`/article/${newSlug}$`));
      await expect(reader.getByRole("heading", { level: 1, name: `Council vote delayed ${run}` })).toBeVisible();
    });

    // Another article cannot take the old address without saying so.
    await page.goto("/admin/articles/new", { waitUntil: "networkidle" });
    await page.getByLabel("Title *").fill(`Other story ${run}`);
    await page.getByLabel("Slug *").fill(oldSlug);
    await page.getByLabel("Content *").fill("Another story.");
    await fillPublishingDetails(page);
    await publishNow(page);
    await expect(page.locator("#slug-error")).toHaveText(
      `The address /article/${oldSlug} still redirects to “Council vote delayed ${run}”. Choose another slug, or tick “Take over this address”.`,
    );
    await page.getByLabel("Take over this address").check();
    await publishNow(page);
    await expectStoryLive(page);
    const [other] = await query<{ id: string; title: string }>(`select id, title from articles where slug = $1`, [oldSlug]);
    expect(other?.title).toBe(`Other story ${run}`);
    created.push(other!.id);
    await asReader(browser, async (reader) => {
      expect((await reader.request.get(`/article/${oldSlug}`, { maxRedirects: 0 })).status()).toBe(200);
    });
  });

  test("a correction note shows on the article page with its date, and goes when deleted", async ({ page, browser }) => {
    const run = Date.now().toString(36);
    const slug = `bridge-reopens-${run}`;
    const id = await createPublished(page, `Bridge reopens ${run}`, slug);
    // Cached for readers before the note.
    await primeCache(browser, `/article/${slug}`);

    await page.goto(`/admin/articles/edit/${id}`, { waitUntil: "networkidle" });
    await page.getByLabel("Kind").selectOption("correction");
    await page.getByLabel("Note *").fill("An earlier version gave the wrong reopening day.");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(toastWith(page, "Note added")).toBeVisible();
    await expect(page.getByTestId("admin-article-notes")).toContainText("An earlier version gave the wrong reopening day.");
    if (process.env.LINKS_SCREENSHOTS) {
      await page.getByRole("heading", { name: "Corrections and updates" }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env.LINKS_SCREENSHOTS}/admin-notes-1280.png` });
    }

    const today = siteDate(new Date(), "long");
    await asReader(browser, async (reader) => {
      await reader.goto(`/article/${slug}`);
      const notes = reader.getByRole("complementary", { name: "Corrections and updates" });
      await expect(notes).toContainText(`Correction, ${today}: An earlier version gave the wrong reopening day.`);
      // LINKS_SCREENSHOTS=/tmp/dir: the article page with its note, on a phone and on a desktop.
      const dir = process.env.LINKS_SCREENSHOTS;
      if (dir) {
        for (const width of [390, 1280]) {
          await reader.setViewportSize({ width, height: 900 });
          await reader.screenshot({ path: `${dir}/article-notes-${width}.png`, fullPage: false });
        }
      }
    });

    // A blank note is refused beside the field.
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByText("Write the note's text.").first()).toBeVisible();

    await page.getByRole("button", { name: new RegExp(`Delete the correction of`) }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(toastWith(page, "Note deleted")).toBeVisible();
    await asReader(browser, async (reader) => {
      await reader.goto(`/article/${slug}`);
      await expect(reader.getByRole("heading", { level: 1, name: `Bridge reopens ${run}` })).toBeVisible();
      await expect(reader.getByRole("complementary", { name: "Corrections and updates" })).toHaveCount(0);
    });
  });

  test("“Show as updated” shows “Updated {date}” next to the published date", async ({ page, browser }) => {
    const run = Date.now().toString(36);
    const slug = `school-budget-${run}`;
    // Published now (a past "Publish at" would reorder the home page that reader.spec.ts checks by creation).
    const id = await createPublished(page, `School budget ${run}`, slug);
    const today = siteDate(new Date(), "long");
    await asReader(browser, async (reader) => {
      await reader.goto(`/article/${slug}`);
      await expect(reader.getByRole("heading", { level: 1, name: `School budget ${run}` })).toBeVisible();
      await expect(reader.getByTestId("article-updated")).toHaveCount(0);
    });

    // A save without the box ticked does not show the article as updated.
    await page.goto(`/admin/articles/edit/${id}`, { waitUntil: "networkidle" });
    await page.getByRole("button", { name: "Update Article" }).click();
    await expect(toastWith(page, "Article updated successfully")).toBeVisible();
    await asReader(browser, async (reader) => {
      await reader.goto(`/article/${slug}`);
      await expect(reader.getByRole("heading", { level: 1, name: `School budget ${run}` })).toBeVisible();
      await expect(reader.getByTestId("article-updated")).toHaveCount(0);
    });

    await page.goto(`/admin/articles/edit/${id}`, { waitUntil: "networkidle" });
    await page.getByLabel("Show as updated").check();
    await page.getByRole("button", { name: "Update Article" }).click();
    await expect(toastWith(page, "Article updated successfully")).toBeVisible();

    await asReader(browser, async (reader) => {
      await reader.goto(`/article/${slug}`);
      await expect(reader.getByTestId("article-updated")).toHaveText(`Updated ${today}`);
    });
  });
});
