import { EventEmitter } from "node:events";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articles, audienceRollupState, audienceStoryHours, NO_STORY } from "~/db/schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import type { ChangeEvent } from "~/lib/change-feed.server";
import { forgetMostRead, mostRead } from "./most-read.server";

let t: TestDatabase;
const HOUR = 3_600_000;
const now = new Date();
/** The start of the current UTC hour. */
const thisHour = Math.floor(now.getTime() / HOUR) * HOUR;
const hoursAgo = (n: number) => new Date(thisHour - n * HOUR);
const ids: Record<string, string> = {};

async function story(slug: string, extra: Partial<typeof articles.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(articles)
    .values({ title: `Story ${slug}`, slug, content: "Body.", status: "published", publishedAt: new Date(now.getTime() - 48 * HOUR), ...extra })
    .returning({ id: articles.id });
  ids[slug] = row!.id;
}

async function rolled(slug: string | null, hour: Date, views: number) {
  await t.db.insert(audienceStoryHours).values({ hour, articleId: slug ? ids[slug]! : NO_STORY, views, visitors: 1 });
}

/** `count` raw loads of a story at `at` (null: a page that is not a story). */
async function loads(slug: string | null, at: Date, count: number) {
  await t.db.execute(sql`
    insert into audience_events (at, path, article_id, visitor, new_visitor, new_story_visitor, source, device)
    select ${at.toISOString()}::timestamptz, ${slug ? `/article/${slug}` : "/"}, ${slug ? ids[slug]! : null}::uuid,
      sha256(i::text::bytea), true, true, 'direct', 'desktop'
    from generate_series(1, ${count}) as i`);
}

beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.execute(sql`select audience_make_partitions((now() at time zone 'UTC')::date - 3, (now() at time zone 'UTC')::date + 1)`);
  // Every hour before two hours ago is rolled up; the raw rows from then on are not yet.
  await t.db.insert(audienceRollupState).values({ id: 1, rolledUntil: hoursAgo(2) }).onConflictDoUpdate({ target: audienceRollupState.id, set: { rolledUntil: hoursAgo(2) } });
  await story("alpha");
  await story("beta");
  await story("gamma");
  await story("quiet");
  await story("draft", { status: "draft", publishedAt: null });
  await story("future", { publishedAt: new Date(now.getTime() + 5 * HOUR) });

  // alpha: 5 + 4 rolled within the day, 3 raw since the rollup: 12. Older rolled hours, and raw rows
  // that are already rolled up, do not count.
  await rolled("alpha", hoursAgo(3), 5);
  await rolled("alpha", hoursAgo(10), 4);
  await rolled("alpha", hoursAgo(30), 100);
  await loads("alpha", new Date(hoursAgo(1).getTime() + 5 * 60_000), 3);
  await loads("alpha", new Date(hoursAgo(2).getTime() - 30 * 60_000), 40);
  // beta: 10 rolled. A rollup row of an hour not yet rolled (a rollup in progress) is the raw rows' to count.
  await rolled("beta", hoursAgo(5), 10);
  await rolled("beta", hoursAgo(1), 20);
  // gamma: 11 raw only, plus loads after `now` (the test's moment).
  await loads("gamma", new Date(hoursAgo(1).getTime() + 10 * 60_000), 11);
  await loads("gamma", new Date(now.getTime() + 60_000), 30);
  // quiet: 1 view.
  await loads("quiet", new Date(hoursAgo(1).getTime() + 10 * 60_000), 1);
  // Not public, much read (a preview, say): never listed. Nor the pages that are not stories.
  await rolled("draft", hoursAgo(3), 100);
  await rolled("future", hoursAgo(3), 100);
  await loads("future", new Date(hoursAgo(1).getTime() + 10 * 60_000), 5);
  await rolled(null, hoursAgo(3), 500);
  await loads(null, new Date(hoursAgo(1).getTime() + 10 * 60_000), 50);
});

const slugs = (list: { slug: string }[]) => list.map((s) => s.slug);

describe("mostRead", () => {
  it("adds the rolled hours of the last day to the raw loads since the rollup, most views first", async () => {
    const list = await mostRead(t.db, { now });
    expect(list.map(({ slug, views, title }) => ({ slug, views, title }))).toEqual([
      { slug: "alpha", views: 12, title: "Story alpha" },
      { slug: "gamma", views: 11, title: "Story gamma" },
      { slug: "beta", views: 10, title: "Story beta" },
      { slug: "quiet", views: 1, title: "Story quiet" },
    ]);
    expect(list[0]!.articleId).toBe(ids.alpha);
  });

  it("never lists a draft, a story scheduled for later, or a page that is not a story", async () => {
    const listed = slugs(await mostRead(t.db, { now, limit: 20 }));
    expect(listed).not.toContain("draft");
    expect(listed).not.toContain("future");
    expect(listed).toHaveLength(4);
  });

  it("leaves out the story being read and stops at the limit", async () => {
    expect(slugs(await mostRead(t.db, { now, exclude: ids.alpha, limit: 2 }))).toEqual(["gamma", "beta"]);
  });

  it("counts nothing older than the last day", async () => {
    expect(await mostRead(t.db, { now: new Date(now.getTime() + 3 * 24 * HOUR) })).toEqual([]);
  });

  it("keeps its ranking in the process for a while, but never shows a story that stopped being public", async () => {
    forgetMostRead(t.db);
    const first = slugs(await mostRead(t.db));
    expect(first.slice(0, 3)).toEqual(["alpha", "gamma", "beta"]);
    // Many new loads of beta: the kept ranking stands until it is read again.
    await loads("beta", new Date(Date.now() - 1000), 20);
    expect(slugs(await mostRead(t.db))).toEqual(first);
    // alpha unpublished: gone at once from the list (the titles are read at each call).
    await t.db.update(articles).set({ status: "draft" }).where(eq(articles.id, ids.alpha!));
    expect(slugs(await mostRead(t.db))).toEqual(first.filter((s) => s !== "alpha"));
    forgetMostRead(t.db);
    expect(slugs(await mostRead(t.db)).slice(0, 2)).toEqual(["beta", "gamma"]);
    await t.db.update(articles).set({ status: "published" }).where(eq(articles.id, ids.alpha!));
  });

  it("ranks afresh after a change notice names a public story, not after a draft's or a comment's", async () => {
    const changes = new EventEmitter<{ change: [ChangeEvent] }>();
    forgetMostRead(t.db);
    // The loaders hand in the process's change feed; it is watched once however many renders ask.
    const before = slugs(await mostRead(t.db, { changes }));
    await mostRead(t.db, { changes });
    expect(changes.listenerCount("change")).toBe(1);
    await loads("quiet", new Date(Date.now() - 1000), 100);
    changes.emit("change", { table: "articles", op: "UPDATE", public: { ids: [], slugs: [], categories: [], authors: [] } });
    changes.emit("change", { table: "comments", op: "INSERT", articles: ["alpha"] });
    expect(slugs(await mostRead(t.db))).toEqual(before);
    changes.emit("change", { table: "articles", op: "UPDATE", public: { ids: [ids.beta!], slugs: ["beta"], categories: [], authors: [] } });
    expect(slugs(await mostRead(t.db, { changes }))[0]).toBe("quiet");
  });
});
