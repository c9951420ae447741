import { signInAsAdmin } from "./admin-session";
import { query } from "./db";
import { expect, test, type Page } from "./fixtures";

// Issue 41, acceptance 6: no admin screen scrolls sideways at 390 px with real content — a live story in
// the breaking-news card, a 120-character headline with long words, long category, tag, author and
// newsletter names, a long e-mail address. Each screen is checked at 390 x 844.

const run = Date.now().toString(36);
const LONG_WORD = "Supercalifragilisticexpialidociousnesswise";
// 120 characters exactly, with words too long for a phone's line.
const LONG_TITLE = `${LONG_WORD} harbour-authority-commissioned-infrastructure reassessment ${run} leaves councillors deliberating overnight`
  .padEnd(120, "x")
  .slice(0, 120);
const LONG_NAME = `Intergovernmentalisationcommitteeonregionaldevelopment ${run}`;
const LONG_EMAIL = `extraordinarily.long.local.part.for.a.reader.${run}@a-very-long-subdomain-of-a-regional-newspaper-group.example.com`;

let articleId = "";
let newsletterId = "";
let memberId = "";
let pageId = "";

test.beforeAll(async () => {
  const [category] = await query<{ id: string }>(`insert into categories (name, slug) values ($1, $2) returning id`, [LONG_NAME, `phone-category-${run}`]);
  const [tag] = await query<{ id: string }>(`insert into tags (name, slug) values ($1, $2) returning id`, [`${LONG_WORD}tag ${run}`, `phone-tag-${run}`]);
  const [author] = await query<{ id: string }>(`insert into authors (name, slug) values ($1, $2) returning id`, [`${LONG_WORD} Reporter ${run}`, `phone-author-${run}`]);
  // A published live story: the dashboard's breaking-news card offers it ("LIVE" and its title).
  const [story] = await query<{ id: string }>(
    `insert into articles (title, slug, content, excerpt, category_id, status, published_at, live_started_at)
     values ($1, $2, 'The council met until dawn.', 'What was decided.', $3, 'published', now() - interval '1 hour', now() - interval '1 hour') returning id`,
    [LONG_TITLE, `phone-story-${run}-${LONG_WORD.toLowerCase()}`, category!.id],
  );
  articleId = story!.id;
  await query(`insert into article_authors (article_id, author_id, position) values ($1, $2, 0)`, [articleId, author!.id]);
  await query(`insert into article_tags (article_id, tag_id, position) values ($1, $2, 0)`, [articleId, tag!.id]);
  const [letter] = await query<{ id: string }>(`insert into newsletters (name, slug) values ($1, $2) returning id`, [`${LONG_NAME} Briefing`, `phone-letter-${run}`]);
  newsletterId = letter!.id;
  const [person] = await query<{ id: string }>(
    `insert into subscribers (email, status, token_key, consent_source, consent_at, confirmed_at) values ($1, 'active', $2, '/newsletter', now(), now()) returning id`,
    [LONG_EMAIL, `phone-${run}`],
  );
  memberId = person!.id;
  await query(`insert into subscriptions (subscriber_id, newsletter_id) values ($1, $2)`, [memberId, newsletterId]);
  const [page] = await query<{ id: string }>(`insert into pages (title, slug, content) values ($1, $2, 'About the desk.') returning id`, [LONG_TITLE, `phone-page-${run}`]);
  pageId = page!.id;
});

test.afterAll(async () => {
  await query(`delete from articles where id = $1`, [articleId]);
  await query(`delete from pages where id = $1`, [pageId]);
  await query(`delete from subscribers where id = $1`, [memberId]);
  await query(`delete from newsletters where id = $1`, [newsletterId]);
  await query(`delete from categories where slug = $1`, [`phone-category-${run}`]);
  await query(`delete from tags where slug = $1`, [`phone-tag-${run}`]);
  await query(`delete from authors where slug = $1`, [`phone-author-${run}`]);
});

/** Neither the document nor the body is wider than the 390 px window. */
async function expectFits(page: Page, path: string) {
  const widths = await page.evaluate(() => ({ html: document.documentElement.scrollWidth, body: document.body.scrollWidth }));
  expect(widths.html, `${path}: the page is ${widths.html} px wide`).toBeLessThanOrEqual(390);
  expect(widths.body, `${path}: the body is ${widths.body} px wide`).toBeLessThanOrEqual(390);
}

test.describe("the back office on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("no admin screen scrolls sideways at 390 px with long titles, names, addresses and a live story", async ({ page }) => {
    // About thirty screens, each server-rendered and hydrated, on a shared machine.
    test.setTimeout(360_000);
    await signInAsAdmin(page);
    const paths = [
      "/admin",
      "/admin/articles",
      `/admin/articles?q=${encodeURIComponent(LONG_WORD)}`,
      "/admin/articles/new",
      `/admin/articles/edit/${articleId}`,
      `/admin/articles/edit/${articleId}?published=1`,
      `/admin/articles/preview/${articleId}`,
      `/admin/articles/live/${articleId}`,
      "/admin/categories",
      "/admin/tags",
      "/admin/pages",
      "/admin/pages/new",
      `/admin/pages/edit/${pageId}`,
      "/admin/front-page",
      "/admin/authors",
      "/admin/media",
      "/admin/comments",
      "/admin/settings",
      "/admin/import",
      "/admin/members/tiers",
      "/admin/redirects",
      "/admin/newsletters",
      `/admin/newsletters/${newsletterId}`,
      "/admin/members",
      `/admin/members/${memberId}`,
      "/admin/activity",
      "/admin/team",
      "/admin/profile",
      "/admin/notifications",
    ];
    for (const path of paths) {
      // "load", then hydrated: the dashboard's live stream (and any screen's) keeps the network from ever idling.
      const response = await page.goto(path, { waitUntil: "load" });
      expect(response?.status(), path).toBe(200);
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      await expectFits(page, path);
    }
    // The old address of the members screen redirects there, and fits too.
    await page.goto("/admin/subscribers", { waitUntil: "load" });
    await expect(page).toHaveURL(/\/admin\/members/);
    await expectFits(page, "/admin/subscribers");
  });

  test("the dashboard shows the work first, the live story in the breaking-news card, and the figures after", async ({ page }) => {
    // Four full-page screenshots on a shared machine.
    test.setTimeout(90_000);
    await signInAsAdmin(page);
    await page.goto("/admin", { waitUntil: "networkidle" });
    const card = page.getByTestId("breaking-live-stories");
    await expect(card.getByRole("button", { name: new RegExp(LONG_WORD) })).toBeVisible();
    await expectFits(page, "/admin");
    const order = await page.evaluate(() => {
      const work = document.querySelector("[data-work]")!;
      const breaking = document.getElementById("breaking-news-heading")!;
      const stats = document.getElementById("stats-heading")!;
      const follows = (a: Element, b: Element) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
      return { breakingAfterWork: follows(work, breaking), statsAfterBreaking: follows(breaking, stats) };
    });
    expect(order).toEqual({ breakingAfterWork: true, statsAfterBreaking: true });
    await page.screenshot({ path: `/tmp/desk-shots/dashboard-390.png`, fullPage: true });
    await page.goto(`/admin/articles/edit/${articleId}?published=1`, { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { name: "Your story is live" })).toBeVisible();
    await page.screenshot({ path: `/tmp/desk-shots/article-form-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `/tmp/desk-shots/article-form-1280.png`, fullPage: true });
    await page.goto("/admin", { waitUntil: "networkidle" });
    await page.screenshot({ path: `/tmp/desk-shots/dashboard-1280.png`, fullPage: true });
  });
});
