import { query } from "./db";
import { expect, test, waitForHydration } from "./fixtures";
import { asReader } from "./readers";

// Issue 42: what a reader's visit records (decision 0058). The newsroom's screens are tested with them.

test("a load is counted with its source and campaign, and reading a story to its end reports depth 100 and an engaged time", async ({ browser }) => {
  test.slow();
  const run = Date.now().toString(36);
  const [category] = await query<{ id: string }>(`select id from categories order by name limit 1`);
  const slug = `long-read-${run}`;
  const content = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of a long read about the harbour's tides, the ferries and the people who keep them running.`).join("\n\n");
  const [story] = await query<{ id: string }>(`insert into articles (title, slug, content, category_id) values ($1, $2, $3, $4) returning id`, [`A long read ${run}`, slug, content, category!.id]);

  await asReader(browser, async (page) => {
    await page.goto(`/article/${slug}?utm_source=newsletter&utm_medium=email&utm_campaign=morning`, { referer: "https://www.google.com/" });
    await waitForHydration(page.locator("body"));
    // Halfway, a moment later, then the end.
    await page.waitForTimeout(1200);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 3));
    await page.waitForTimeout(800);
    await page.locator("[data-story-text]").evaluate((text) => text.scrollIntoView({ block: "end" }));
    await page.waitForTimeout(300);

    await expect
      .poll(async () => (await query<{ depth: number; engaged_ms: number }>(`select depth, engaged_ms from audience_reads where article_id = $1 order by depth desc, engaged_ms desc limit 1`, [story!.id]))[0] ?? null, { timeout: 20_000 })
      .toMatchObject({ depth: 100 });
  });
  const [read] = await query<{ depth: number; engaged_ms: number; loads: number }>(
    `select max(depth)::int as depth, max(engaged_ms)::int as engaged_ms, count(distinct load_id)::int as loads from audience_reads where article_id = $1`,
    [story!.id],
  );
  expect(read!.depth).toBe(100);
  expect(read!.engaged_ms).toBeGreaterThanOrEqual(1500);
  expect(read!.loads).toBe(1);

  const events = await query<{ source: string; source_host: string; utm_campaign: string; new_visitor: boolean; new_story_visitor: boolean; device: string; path: string }>(
    `select source, source_host, utm_campaign, new_visitor, new_story_visitor, device, path from audience_events where article_id = $1`,
    [story!.id],
  );
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ source: "newsletter", source_host: "google.com", utm_campaign: "morning", new_story_visitor: true, device: "desktop", path: `/article/${slug}` });
});
