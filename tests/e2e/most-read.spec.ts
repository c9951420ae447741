import { expect, expectNoSidewaysScroll, test, waitForHydration } from "./fixtures";
import { categoryId, withDb } from "./db";
import { primeCache } from "./readers";

// "Most read" for readers (issue 42): the last 24 hours' most viewed public stories, numbered, on the
// home page and under an article (never the article itself), part of the cached page. The test's two
// stories are dated 2001 (they never reach the home page's lists or a category's first page) and get
// far more loads in the last minutes than any other story, as raw audience events: the rollup never
// holds a running hour.

const run = Date.now().toString(36);
const slug = (name: string) => `most-read-${name}-${run}`;
const FIRST = `Ferry timetable leak ${run}`;
const SECOND = `Harbour crane stalls ${run}`;

test.afterAll(async () => {
  await withDb(async (db) => {
    await db.query(`delete from audience_events where article_id in (select id from articles where slug like $1)`, [`most-read-%-${run}`]);
    await db.query(`delete from articles where slug like $1`, [`most-read-%-${run}`]);
  });
});

/** The titles a "Most read" list shows, in order. */
async function mostReadTitles(region: import("@playwright/test").Locator) {
  return region.getByRole("listitem").allTextContents();
}

test("Most read lists the day's most viewed stories in order on the home page and under an article, and a published change refreshes the cached page", async ({ page, browser }) => {
  // The home page cached before the figures: the stories' publication (a change notice) drops it.
  await primeCache(browser, "/");
  const news = await categoryId("news");
  await withDb(async (db) => {
    await db.query("begin");
    const { rows } = await db.query<{ id: string; slug: string }>(
      `insert into articles (title, slug, content, category_id, status, published_at)
       select t, s, 'Body of the story.', $3::uuid, 'published', timestamptz '2001-01-01 12:00:00+00'
       from unnest($1::text[], $2::text[]) as x(t, s) returning id, slug`,
      [[FIRST, SECOND], [slug("first"), slug("second")], news],
    );
    const idOf = (name: string) => rows.find((r) => r.slug === slug(name))!.id;
    // 900 loads of the first and 700 of the second, a minute ago (a partition of today's: migration 0040).
    for (const [name, count] of [["first", 900], ["second", 700]] as const) {
      await db.query(
        `insert into audience_events (at, path, article_id, visitor, new_visitor, new_story_visitor, source, device)
         select now() - interval '1 minute', $1, $2::uuid, sha256(($1 || i)::bytea), true, true, 'direct', 'desktop'
         from generate_series(1, $3::int) as i`,
        [`/article/${slug(name)}`, idOf(name), count],
      );
    }
    await db.query("commit");
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    // (The list is the server's HTML: the document is enough. A loaded machine may take a while.)
    await expect
      .poll(
        async () => {
          await page.goto("/", { waitUntil: "domcontentloaded" });
          return (await mostReadTitles(page.getByRole("region", { name: "Most read" }))).slice(0, 2);
        },
        { timeout: 30_000 },
      )
      .toEqual([FIRST, SECOND]);
    const region = page.getByRole("region", { name: "Most read" });
    await expect(region.getByRole("heading", { level: 2, name: "Most read" })).toBeVisible();
    // Hydrated as the server wrote it: one list, and the sections after it intact.
    await waitForHydration(region);
    await expect(page.locator("#most-read")).toHaveCount(1);
    await expect(page.getByRole("region", { name: "Explore Topics" }).getByRole("heading", { level: 2, name: "Explore Topics" })).toBeVisible();
    // An ordered list of at most five headlines, each a link to its story; no images.
    const list = region.getByRole("list");
    expect(await list.evaluate((el) => el.tagName)).toBe("OL");
    const items = region.getByRole("listitem");
    expect(await items.count()).toBeLessThanOrEqual(5);
    await expect(items.first().getByRole("link", { name: FIRST })).toHaveAttribute("href", `/article/${slug("first")}`);
    await expect(region.locator("img")).toHaveCount(0);
    await region.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, `home at ${viewport.width} px`);
    await page.screenshot({ path: test.info().outputPath(`home-most-read-${viewport.width}.png`), fullPage: true });
    await region.screenshot({ path: test.info().outputPath(`home-most-read-region-${viewport.width}.png`) });

    // Under the first story: the list without it, the second on top.
    await page.goto(`/article/${slug("first")}`);
    const under = page.getByRole("region", { name: "Most read" });
    await expect(under).toBeVisible();
    await waitForHydration(under);
    await expect(page.locator("#most-read")).toHaveCount(1);
    const titles = await mostReadTitles(under);
    expect(titles[0]).toBe(SECOND);
    expect(titles).not.toContain(FIRST);
    await under.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, `article at ${viewport.width} px`);
    await under.screenshot({ path: test.info().outputPath(`article-most-read-${viewport.width}.png`) });
  }

  // The list is the server's HTML: a reader without JavaScript reads it as well.
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const noScript = await context.newPage();
    await noScript.goto("/");
    expect((await mostReadTitles(noScript.getByRole("region", { name: "Most read" }))).slice(0, 2)).toEqual([FIRST, SECOND]);
  } finally {
    await context.close();
  }
});
