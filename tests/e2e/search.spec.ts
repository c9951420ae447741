import { expect, test } from "./fixtures";
import { signInAsAdmin } from "./admin-session";
import { categoryId, query } from "./db";

// Site search as a reader uses it: the header's box (an icon on a phone), highlighted results, the
// category filter, and the same page with JavaScript off. Drafts never show. The public article is
// dated 2001, so it never reaches the home page or a category's first page that other tests read.

const run = Date.now().toString(36);
// A made-up word only this test's articles contain, so the demo content never matches it.
const WORD = `zephyrquill${run}`;
const PUBLIC_SLUG = `search-public-${run}`;
const DRAFT_SLUG = `search-draft-${run}`;

test.beforeAll(async () => {
  const news = await categoryId("news");
  await query(
    `insert into articles (title, slug, content, category_id, status, published_at)
     values ($1, $2, $3, $4, 'published', timestamptz '2001-01-01 12:00:00+00'),
            ($5, $6, $7, $4, 'draft', null)`,
    [
      "Harbour lights return",
      PUBLIC_SLUG,
      `The old pier glowed again as the ${WORD} lanterns were lit along the water.`,
      news,
      `Draft about ${WORD}`,
      DRAFT_SLUG,
      `An unpublished ${WORD} story.`,
    ],
  );
});

test.afterAll(async () => {
  await query(`delete from articles where slug = any($1)`, [[PUBLIC_SLUG, DRAFT_SLUG]]);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the header's search icon opens a field; the result is highlighted, the draft never found", async ({ page }) => {
    await page.goto("/");
    const field = page.locator("#header-search-phone");
    await expect(field).toBeHidden();
    await page.getByRole("link", { name: "Search", exact: true }).click();
    await expect(field).toBeVisible();
    await expect(field).toBeFocused();
    await field.fill(WORD);
    await field.press("Enter");

    await expect(page).toHaveURL(new RegExp(`/search\\?q=${WORD}`));
    await expect(page.getByRole("heading", { level: 1, name: "Search" })).toBeVisible();
    await expect(page.getByRole("status")).toHaveText(`1 result for “${WORD}”`);
    const results = page.getByRole("list", { name: "Search results" }).getByRole("listitem");
    await expect(results).toHaveCount(1);
    await expect(results.getByRole("link", { name: "Harbour lights return" })).toHaveAttribute("href", `/article/${PUBLIC_SLUG}`);
    await expect(results.locator("mark")).toHaveText([WORD]);
    await expect(page.getByText("An unpublished")).toHaveCount(0);
    // The field closed after the search; the page's own box carries the words.
    await expect(field).toBeHidden();
    await expect(page.locator("#search-page-q")).toHaveValue(WORD);
    await page.screenshot({ path: test.info().outputPath("search-390.png"), fullPage: true });
  });
});

test("the category filter narrows the results and the empty query gets a friendly page", async ({ page }) => {
  await page.goto(`/search?q=${WORD}&category=sport`);
  await expect(page.getByRole("status")).toHaveText(`0 results for “${WORD}”`);
  await expect(page.getByText("No articles match your search.")).toBeVisible();
  await page.locator("#search-page-category").selectOption("news");
  await page.getByRole("main").getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/category=news/);
  await expect(page.getByRole("status")).toHaveText(`1 result for “${WORD}”`);

  const empty = await page.goto("/search?q=");
  expect(empty?.status()).toBe(200);
  await expect(page.getByText("Type a word or a phrase to search every story.")).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await page.screenshot({ path: test.info().outputPath("search-1280.png"), fullPage: true });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the header form searches and the page is complete", async ({ page }) => {
    await page.goto("/about");
    const box = page.locator("#header-search-wide");
    await box.fill(WORD);
    await box.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${WORD}`));
    await expect(page.getByRole("status")).toHaveText(`1 result for “${WORD}”`);
    await expect(page.locator("mark")).toHaveText([WORD]);
  });

  test("on a phone the search icon is a link to the search page", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await page.getByRole("link", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/search$/);
    await page.locator("#search-page-q").fill(WORD);
    await page.locator("#search-page-q").press("Enter");
    await expect(page.getByRole("status")).toHaveText(`1 result for “${WORD}”`);
  });
});

test("the 404 page offers the search box", async ({ page }) => {
  const response = await page.goto(`/no-such-page-${run}`);
  expect(response?.status()).toBe(404);
  await page.locator("#not-found-search").fill(WORD);
  await page.locator("#not-found-search").press("Enter");
  await expect(page.getByRole("status")).toHaveText(`1 result for “${WORD}”`);
});

test("result pages are not for search engines: noindex in the header too", async ({ request }) => {
  const response = await request.get(`/search?q=${WORD}`);
  expect(response.status()).toBe(200);
  expect(response.headers()["x-robots-tag"]).toBe("noindex, follow");
  expect(response.headers()["cache-control"] ?? "").not.toMatch(/s-maxage|public/);
});

test("the admin article list searches every status and combines its filters", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/articles");
  await page.getByLabel("Search").fill(WORD);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${WORD}`));
  const rows = page.getByRole("table").getByRole("row");
  // The header row, the public article and the draft: the back office finds both.
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole("table")).toContainText("Harbour lights return");
  await expect(page.getByRole("table")).toContainText(`Draft about ${WORD}`);

  await page.locator("#status-filter").selectOption("draft");
  await page.locator("#category-filter").selectOption({ label: "News" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("table")).toContainText(`Draft about ${WORD}`);
  await expect(page.getByLabel("Search")).toHaveValue(WORD);

  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/admin\/articles$/);
  await expect(page.getByLabel("Search")).toHaveValue("");
});
