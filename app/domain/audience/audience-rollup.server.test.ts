import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { NO_STORY } from "~/db/schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { AUDIENCE_ROLLUP_CRON, dropExpiredAudiencePartitions, ENGAGED_BUCKETS_SECONDS, runAudienceRollup } from "./audience-rollup.server";
import { insertEvents, insertReads, insertStory, resetAudience, rollupSnapshot } from "./audience-test-data.server";

let t: TestDatabase;
const H = 3_600_000;
const T0 = new Date("2031-03-10T00:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const TZ = "America/New_York";

beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.execute(sql`select audience_make_partitions('2031-03-01', '2031-03-14')`);
});

beforeEach(async () => {
  await resetAudience(t.db, T0);
});

async function rolledUntil() {
  const r = await t.db.execute(sql`select rolled_until from audience_rollup_state`);
  return new Date(String(r.rows[0]!.rolled_until instanceof Date ? (r.rows[0]!.rolled_until as Date).toISOString() : r.rows[0]!.rolled_until));
}

describe("the hourly rollup", () => {
  it("is registered every minute (ended hours, then the hour under way)", () => {
    expect(AUDIENCE_ROLLUP_CRON).toBe("* * * * * audience-rollup");
  });

  it("catches up 30 hours after downtime, and running it again (or over again) leaves the same tables", async () => {
    const story = await insertStory(t.db, { title: "Catch up" });
    // Hour h has h + 1 loads of the story (the first of each hour by a new visitor) and one of the home page.
    const events = [];
    for (let h = 0; h < 30; h++) {
      for (let i = 0; i <= h; i++) {
        events.push({ at: at(h * H + i * 60_000), articleId: story.id, path: `/article/${story.slug}`, newVisitor: i === 0, newStoryVisitor: i === 0, source: i % 2 ? "search" : "direct", host: i % 2 ? "www.google.com" : "", device: i % 3 ? "phone" : "desktop" });
      }
      events.push({ at: at(h * H + 59 * 60_000), path: "/", device: "tablet", newVisitor: false });
    }
    await insertEvents(t.db, events);
    // A load in the hour under way: rolled so far as that hour, and whole again once it has ended.
    await insertEvents(t.db, [{ at: at(30 * H + 30_000), articleId: story.id }]);

    const now = at(31 * H + 60_000);
    const first = await runAudienceRollup(t.db, { timeZone: TZ, now });
    expect(first.hoursRolled).toBe(30);
    // The hour under way is rolled up to ROLLUP_SETTLE_MS (2 minutes) before now.
    expect((await rolledUntil()).toISOString()).toBe(at(31 * H - 60_000).toISOString());

    const hours = await t.db.execute(sql`select hour, views, visitors from audience_story_hours where article_id = ${story.id}::uuid order by hour`);
    expect(hours.rows).toHaveLength(31);
    expect(Number(hours.rows[30]!.views)).toBe(1);
    hours.rows.slice(0, 30).forEach((r, h) => {
      expect(new Date(String(r.hour instanceof Date ? (r.hour as Date).toISOString() : r.hour)).toISOString()).toBe(at(h * H).toISOString());
      expect(Number(r.views)).toBe(h + 1);
      expect(Number(r.visitors)).toBe(1);
    });
    const site = await t.db.execute(sql`select sum(views) as views, sum(visitors) as visitors from audience_site_hours`);
    expect(Number(site.rows[0]!.views)).toBe(events.length + 1);
    expect(Number(site.rows[0]!.visitors)).toBe(30);
    const home = await t.db.execute(sql`select sum(views) as views from audience_story_hours where article_id = ${NO_STORY}::uuid`);
    expect(Number(home.rows[0]!.views)).toBe(30);
    const sources = await t.db.execute(sql`select source, source_host, sum(views) as views from audience_source_hours group by 1, 2 order by 1`);
    expect(sources.rows.map((r) => [r.source, r.source_host])).toEqual([["direct", ""], ["search", "www.google.com"]]);

    const snapshot = await rollupSnapshot(t.db);
    // Again at once: nothing to do, nothing changes.
    expect((await runAudienceRollup(t.db, { timeZone: TZ, now })).hoursRolled).toBe(0);
    expect(await rollupSnapshot(t.db)).toEqual(snapshot);
    // Over again from the start (rolled_until moved back): the same rows, not twice as many.
    await t.db.execute(sql`update audience_rollup_state set rolled_until = ${T0.toISOString()}::timestamptz`);
    expect((await runAudienceRollup(t.db, { timeZone: TZ, now })).hoursRolled).toBe(30);
    expect(await rollupSnapshot(t.db)).toEqual(snapshot);
    // A load of that hour written late (a buffer held through a database outage): three minutes past
    // the hour's end, the hour is rolled whole again, with it.
    await insertEvents(t.db, [{ at: at(30 * H + 10 * 60_000), articleId: story.id }]);
    expect((await runAudienceRollup(t.db, { timeZone: TZ, now: at(31 * H + 3 * 60_000) })).hoursRolled).toBe(1);
    const last = await t.db.execute(sql`select views from audience_story_hours where hour = ${at(30 * H).toISOString()}::timestamptz and article_id = ${story.id}::uuid`);
    expect(Number(last.rows[0]!.views)).toBe(2);
    // And the hour now under way, up to two minutes ago.
    expect((await rolledUntil()).toISOString()).toBe(at(31 * H + 60_000).toISOString());
  });

  it("rolls a page load's reading into the hour of its first report, with its longest time and deepest read", async () => {
    const story = await insertStory(t.db, { title: "Long read" });
    const load = randomUUID();
    const other = randomUUID();
    await insertReads(t.db, [
      { at: at(50 * 60_000), articleId: story.id, loadId: load, engagedMs: 4_000, depth: 25 },
      { at: at(H + 10 * 60_000), articleId: story.id, loadId: load, engagedMs: 70_000, depth: 100 },
      { at: at(H + 20 * 60_000), articleId: story.id, loadId: other, engagedMs: 3_000, depth: 50 },
    ]);
    await runAudienceRollup(t.db, { timeZone: TZ, now: at(2 * H + 5 * 60_000) });
    const rows = await t.db.execute(sql`select * from audience_read_hours order by hour`);
    expect(rows.rows).toHaveLength(2);
    const [first, second] = rows.rows;
    expect(Number(first!.reads)).toBe(1);
    expect(Number(first!.engaged_ms)).toBe(70_000);
    const buckets = first!.engaged_buckets as number[];
    expect(buckets).toHaveLength(ENGAGED_BUCKETS_SECONDS.length);
    // 70 s: the 60–90 s bucket.
    expect(buckets[ENGAGED_BUCKETS_SECONDS.indexOf(60)]).toBe(1);
    expect(buckets.reduce((a, b) => a + b, 0)).toBe(1);
    expect([first!.depth_25, first!.depth_50, first!.depth_75, first!.depth_100].map(Number)).toEqual([1, 1, 1, 1]);
    expect(Number(second!.reads)).toBe(1);
    expect([second!.depth_25, second!.depth_50, second!.depth_75, second!.depth_100].map(Number)).toEqual([1, 1, 0, 0]);
    expect((second!.engaged_buckets as number[])[0]).toBe(1);

    // A page left open reports again 2 hours later: its hour is rolled again with the next hours.
    await insertReads(t.db, [{ at: at(2 * H + 30 * 60_000), articleId: story.id, loadId: load, engagedMs: 200_000, depth: 100 }]);
    await runAudienceRollup(t.db, { timeZone: TZ, now: at(3 * H + 5 * 60_000) });
    const again = await t.db.execute(sql`select engaged_ms, reads from audience_read_hours where hour = ${T0.toISOString()}::timestamptz`);
    expect([Number(again.rows[0]!.engaged_ms), Number(again.rows[0]!.reads)]).toEqual([200_000, 1]);
    const day = await t.db.execute(sql`select reads, engaged_ms from audience_read_days where day = ${T0.toISOString()}::timestamptz`);
    expect([Number(day.rows[0]!.reads), Number(day.rows[0]!.engaged_ms)]).toEqual([2, 203_000]);
  });
});

describe("retention", () => {
  it("drops whole partitions past the retention only when rolled up: never unrolled data", async () => {
    await t.db.execute(sql`insert into website_settings (id, site_name, audience_retention_days) values (1, 'Test', 2)
      on conflict (id) do update set audience_retention_days = 2`);
    // Rolled up to 2031-03-05: the 3rd and 4th are rolled, the 5th and later are not.
    await t.db.execute(sql`update audience_rollup_state set rolled_until = '2031-03-05T00:00:00Z'`);
    await insertEvents(t.db, [{ at: new Date("2031-03-03T10:00:00Z") }, { at: new Date("2031-03-06T10:00:00Z") }]);
    const now = new Date("2031-03-10T12:00:00Z");
    const dropped = await dropExpiredAudiencePartitions(t.db, now);
    expect(dropped).toContain("audience_events_20310303");
    expect(dropped).toContain("audience_reads_20310304");
    expect(dropped).not.toContain("audience_events_20310305");
    const exists = async (name: string) => (await t.db.execute(sql`select to_regclass(${name}) is not null as e`)).rows[0]!.e;
    expect(await exists("audience_events_20310304")).toBe(false);
    // The 5th to 7th are past 2 days' retention but not rolled up: kept, with their rows.
    expect(await exists("audience_events_20310305")).toBe(true);
    expect(await exists("audience_events_20310307")).toBe(true);
    expect(await exists("audience_events_20310308")).toBe(true);
    const left = await t.db.execute(sql`select count(*) as n from audience_events where at >= '2031-03-06' and at < '2031-03-07'`);
    expect(Number(left.rows[0]!.n)).toBe(1);

    // Rolled up to now: the days that ended 2 days ago go, the last 2 days stay.
    await t.db.execute(sql`update audience_rollup_state set rolled_until = '2031-03-10T11:00:00Z'`);
    const later = await dropExpiredAudiencePartitions(t.db, now);
    expect(later).toEqual(["audience_events_20310305", "audience_events_20310306", "audience_events_20310307", "audience_reads_20310305", "audience_reads_20310306", "audience_reads_20310307"]);
    expect(await exists("audience_events_20310308")).toBe(true);
    await t.db.execute(sql`select audience_make_partitions('2031-03-01', '2031-03-14')`);
  });
});

describe("the day's salt", () => {
  it("is gone the next day in the site's time zone (a moved clock), with the day's visitors", async () => {
    await t.db.execute(sql`insert into audience_salts (day, salt) values ('2031-03-09', '\\x01'), ('2031-03-10', '\\x02')`);
    await t.db.execute(sql`insert into audience_day_visitors (day, visitor, article_id) values ('2031-03-09', '\\x0a', ${NO_STORY}::uuid), ('2031-03-10', '\\x0b', ${NO_STORY}::uuid)`);
    const salts = async () => (await t.db.execute(sql`select day from audience_salts order by day`)).rows.map((r) => r.day);
    const visitorDays = async () => (await t.db.execute(sql`select day from audience_day_visitors order by day`)).rows.map((r) => r.day);

    // 2031-03-10 08:00 in New York: the 9th is over, the 10th is today.
    expect((await runAudienceRollup(t.db, { timeZone: TZ, now: new Date("2031-03-10T12:00:00Z") })).saltsDeleted).toBe(1);
    expect(await salts()).toEqual(["2031-03-10"]);
    expect(await visitorDays()).toEqual(["2031-03-10"]);
    // 23:00 on the 10th in New York (already the 11th in UTC): still the 10th's day, its salt stays.
    await runAudienceRollup(t.db, { timeZone: TZ, now: new Date("2031-03-11T03:00:00Z") });
    expect(await salts()).toEqual(["2031-03-10"]);
    // 01:00 on the 11th in New York: gone.
    await runAudienceRollup(t.db, { timeZone: TZ, now: new Date("2031-03-11T05:00:00Z") });
    expect(await salts()).toEqual([]);
    expect(await visitorDays()).toEqual([]);
  });
});

describe("a story's sources", () => {
  it("count the story's own new visitors: a reader already on the site today for another page is still this story's new visitor from search", async () => {
    const story = await insertStory(t.db, { title: "Sources of a story" });
    await insertEvents(t.db, [
      // Earlier the same day: the reader's first load of the site, the home page, direct.
      { at: at(60_000), path: "/", newVisitor: true, device: "desktop" },
      // Then the story, from search: not new to the site, new to the story.
      { at: at(120_000), articleId: story.id, path: `/article/${story.slug}`, newVisitor: false, newStoryVisitor: true, source: "search", host: "google.com", device: "desktop" },
      { at: at(180_000), articleId: story.id, path: `/article/${story.slug}`, newVisitor: false, newStoryVisitor: false, source: "search", host: "google.com", device: "desktop" },
    ]);
    await runAudienceRollup(t.db, { timeZone: TZ, now: at(3 * H) });
    const rows = await t.db.execute(sql`select source, source_host, sum(views)::int as views, sum(visitors)::int as visitors from audience_source_hours where article_id = ${story.id}::uuid group by 1, 2`);
    expect(rows.rows).toEqual([{ source: "search", source_host: "google.com", views: 2, visitors: 1 }]);
  });
});
