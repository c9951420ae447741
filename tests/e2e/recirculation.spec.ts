import { expect, test } from "./fixtures";
import { categoryId, query } from "./db";

// What a reader is offered next: "More from {Category}" and "Related stories" under an article (never
// the article itself, never a draft), and the home page's lead story on the first screen. The test's
// articles are dated 2001 so they never reach the home page or a category's first page.

const run = Date.now().toString(36);
const WORD = `quillhaven${run}`;
const slug = (name: string) => `recirc-${name}-${run}`;

test.beforeAll(async () => {
  const [news, sport] = [await categoryId("news"), await categoryId("sport")];
  await query(
    `insert into articles (title, slug, content, category_id, status, published_at)
     select t, s, 'Body of the story.', c::uuid, st::article_status, case when st = 'draft' then null else timestamptz '2001-01-01 12:00:00+00' - (h || ' minutes')::interval end
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) as x(t, s, c, st, h)`,
    [
      [`${WORD} vexlor`, `${WORD} trandum`, `Draft on ${WORD}`, `${WORD} korvane`],
      [slug("main"), slug("same-category"), slug("draft"), slug("other-category")],
      [news, news, news, sport],
      ["published", "published", "draft", "published"],
      [3, 2, 1, 1],
    ],
  );
});

test.afterAll(async () => {
  await query(`delete from articles where slug like $1`, [`recirc-%-${run}`]);
});

test("an article ends with More from its category and Related stories, without itself or drafts", async ({ page }) => {
  await page.goto(`/article/${slug("main")}`);
  const more = page.getByRole("region", { name: "More from News" });
  await expect(more).toBeVisible();
  // The category's newest three (the demo's news, newer than this test's 2001 stories).
  const newestNews = await query<{ title: string }>(
    `select a.title from articles a join categories c on c.id = a.category_id
     where c.slug = 'news' and a.status = 'published' and a.published_at <= now() and a.slug <> $1
     order by a.published_at desc, a.id desc limit 3`,
    [slug("main")],
  );
  await expect(more.getByRole("heading", { level: 3 })).toHaveText(newestNews.map((r) => r.title));

  // The two public stories sharing the title's word, most recent first; never the draft.
  const related = page.getByRole("region", { name: "Related stories" });
  await expect(related.getByRole("heading", { level: 3 })).toHaveText([`${WORD} korvane`, `${WORD} trandum`]);

  const everything = await page.locator("#more-from-category, #related-stories").locator("..").allTextContents();
  expect(everything.join(" ")).not.toContain(`Draft on ${WORD}`);
  const shown = await page.locator("section").filter({ has: page.locator("#more-from-category, #related-stories") }).getByRole("link").evaluateAll((links) => links.map((l) => l.getAttribute("href")));
  expect(shown).not.toContain(`/article/${slug("main")}`);
  expect(shown).not.toContain(`/article/${slug("draft")}`);
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`home: the lead story starts on the first screen at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Stay Informed, Stay Connected" })).toBeVisible();
    const top = page.getByRole("region", { name: "Top Stories" });
    const lead = top.getByRole("article").first();
    const box = await lead.boundingBox();
    expect(box, "the lead story is laid out").not.toBeNull();
    expect(box!.y).toBeLessThan(viewport.height * 0.5);
    // Ranked by size: its headline is set larger than the stories beside (or, at 390 px, below) it,
    // whether or not it has an image (a story without one gets the typographic lead).
    const headlineSize = (article: typeof lead) =>
      article.getByRole("heading").first().evaluate((h) => Number.parseFloat(getComputedStyle(h).fontSize));
    const leadSize = await headlineSize(lead);
    const second = top.getByRole("article").nth(1);
    expect(leadSize).toBeGreaterThan(await headlineSize(second));
    if (viewport.width >= 1024) {
      const secondBox = await second.boundingBox();
      expect(box!.width * box!.height).toBeGreaterThan(secondBox!.width * secondBox!.height);
    }
    await page.screenshot({ path: test.info().outputPath(`home-${viewport.width}.png`) });
  });
}
