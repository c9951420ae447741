import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { pageViews } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { getPageViewFigures } from "~/domain/stats/stats.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { audienceOverview, audiencePeriodOf, audienceRightNow, audienceStoryReport, medianEngagedSeconds } from "./audience-report.server";
import { runAudienceRollup } from "./audience-rollup.server";
import { insertEvents, insertReads, insertStory, resetAudience, type RawEvent } from "./audience-test-data.server";

let t: TestDatabase;
const TZ = "America/New_York";
// 14:30 on 10 March 2031 in New York (daylight time since the 9th: UTC−4).
const NOW = new Date("2031-03-10T18:30:00Z");
const TODAY_START = new Date("2031-03-10T04:00:00Z");
const min = (m: number) => new Date(TODAY_START.getTime() + m * 60_000);
const params = (q: Record<string, string>) => new URLSearchParams(q);

beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.execute(sql`select audience_make_partitions('2031-02-25', '2031-03-14')`);
});

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("not refused");
}

describe("audiencePeriodOf", () => {
  it("answers today, 7 and 30 days and a range as the site's midnights", () => {
    const today = audiencePeriodOf(params({}), TZ, NOW);
    expect(today).toEqual({ key: "today", from: "2031-03-10T04:00:00.000Z", to: "2031-03-11T04:00:00.000Z", bucket: "hour", firstDay: "2031-03-10", lastDay: "2031-03-10" });
    const week = audiencePeriodOf(params({ period: "7d" }), TZ, NOW);
    // The 4th to the 10th; the 4th's midnight is still standard time (UTC−5).
    expect([week.from, week.to, week.bucket, week.firstDay]).toEqual(["2031-03-04T05:00:00.000Z", "2031-03-11T04:00:00.000Z", "day", "2031-03-04"]);
    expect(audiencePeriodOf(params({ period: "30d" }), TZ, NOW).firstDay).toBe("2031-02-09");
    const range = audiencePeriodOf(params({ period: "range", from: "2031-01-01", to: "2031-01-01" }), TZ, NOW);
    expect([range.from, range.to, range.bucket]).toEqual(["2031-01-01T05:00:00.000Z", "2031-01-02T05:00:00.000Z", "hour"]);
  });

  it("refuses bad, reversed and too long ranges and unknown periods with a 400 and a message", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ period: "range", from: "2031-02-30", to: "2031-03-01" }, /"2031-02-30" is not a date/],
      [{ period: "range", from: "2031-03-01", to: "tomorrow" }, /"tomorrow" is not a date/],
      [{ period: "range", from: "2031-03-05", to: "2031-03-01" }, /ends before it starts/],
      [{ period: "range", from: "2029-01-01", to: "2031-01-01" }, /at most 366 days/],
      [{ period: "range", from: "2031-03-01" }, /Choose the first and the last day/],
      [{ period: "year" }, /Unknown period "year"/],
    ];
    for (const [query, message] of cases) {
      const error = refusal(() => audiencePeriodOf(params(query), TZ, NOW));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(message);
    }
    // 366 days is allowed.
    expect(audiencePeriodOf(params({ period: "range", from: "2030-01-01", to: "2031-01-01" }), TZ, NOW).key).toBe("range");
  });
});

describe("medianEngagedSeconds", () => {
  it("interpolates within the bucket holding the middle read", () => {
    expect(medianEngagedSeconds([])).toBeNull();
    // One read in each of 10–15, 20–30 and 30–45 s: the middle one is halfway through 20–30.
    const buckets = Array(18).fill(0);
    buckets[2] = 1;
    buckets[4] = 1;
    buckets[5] = 1;
    expect(medianEngagedSeconds(buckets)).toBe(25);
    const open = Array(18).fill(0);
    open[17] = 4;
    expect(medianEngagedSeconds(open)).toBe(1800);
  });
});

describe("the overview, a story's report and right now", () => {
  let politics: Awaited<ReturnType<typeof insertStory>>;
  let sport: Awaited<ReturnType<typeof insertStory>>;

  beforeAll(async () => {
    await resetAudience(t.db, new Date("2031-03-09T00:00:00Z"));
    politics = await insertStory(t.db, { title: "Election night", category: "Politics", authors: ["Ann Writer"], publishedAt: new Date("2031-03-08T15:00:00Z") });
    sport = await insertStory(t.db, { title: "Cup final", category: "Sport", authors: ["Bob Reporter"], publishedAt: new Date("2031-03-09T15:00:00Z") });
    const events: RawEvent[] = [];
    // 30 loads of the politics story by 3 visitors: from a search engine, a social network and none.
    const kinds = [
      { visitor: "a", source: "search", host: "www.google.com", device: "desktop" },
      { visitor: "b", source: "social", host: "www.facebook.com", device: "phone" },
      { visitor: "c", source: "direct", host: "", device: "tablet" },
    ];
    for (let i = 0; i < 30; i++) {
      const k = kinds[i % 3]!;
      events.push({ at: min(60 + i * 20), articleId: politics.id, ...k, newVisitor: i < 3, newStoryVisitor: i < 3 });
    }
    // 5 loads of the sport story from the newsletter by visitor a (already counted on the site today).
    for (let i = 0; i < 5; i++) {
      events.push({ at: min(300 + i), articleId: sport.id, visitor: "a", source: "newsletter", utmSource: "newsletter", utmMedium: "email", utmCampaign: "morning", newStoryVisitor: i === 0 });
    }
    // The home page twice; a load yesterday (New York) and one 2 minutes ago.
    events.push({ at: min(10), path: "/", visitor: "d", newVisitor: true }, { at: min(11), path: "/", visitor: "d" });
    events.push({ at: new Date("2031-03-10T03:30:00Z"), articleId: politics.id, visitor: "y", newVisitor: true, newStoryVisitor: true });
    events.push({ at: new Date(NOW.getTime() - 2 * 60_000), articleId: sport.id, visitor: "e", source: "social", host: "t.co", newVisitor: true, newStoryVisitor: true });
    await insertEvents(t.db, events);
    await insertReads(t.db, [
      { at: min(61), articleId: politics.id, loadId: randomUUID(), engagedMs: 10_000, depth: 25 },
      { at: min(62), articleId: politics.id, loadId: randomUUID(), engagedMs: 20_000, depth: 50 },
      { at: min(63), articleId: politics.id, loadId: randomUUID(), engagedMs: 40_000, depth: 100 },
    ]);
    await t.db.execute(sql`insert into audience_conversions (at, kind, article_id, source) values (${min(70).toISOString()}::timestamptz, 'newsletter', ${politics.id}::uuid, 'search')`);
  });

  it("shows today's visitors, views, sources, campaigns, stories and reading, the same before and after the rollup", async () => {
    const period = audiencePeriodOf(params({ period: "today" }), TZ, NOW);
    const before = await audienceOverview(t.db, period, { kind: "site" }, TZ);
    expect(before.totals).toEqual({ views: 38, visitors: 5 });
    expect(before.series).toHaveLength(24);
    expect(before.series[0]!.at).toBe("2031-03-10T04:00:00.000Z");
    expect(before.series.reduce((a, p) => a + p.views, 0)).toBe(38);
    expect(before.series[0]).toEqual({ at: "2031-03-10T04:00:00.000Z", views: 2, visitors: 1 });
    expect(before.series[23]).toEqual({ at: "2031-03-11T03:00:00.000Z", views: 0, visitors: 0 });
    expect(before.stories.map((s) => [s.title, s.views, s.visitors])).toEqual([["Election night", 30, 3], ["Cup final", 6, 2]]);
    expect(before.stories[0]).toMatchObject({ authorName: "Ann Writer", categoryName: "Politics", medianEngagedSeconds: 25, readToEndRate: 1 / 3 });
    expect(before.stories[1]).toMatchObject({ medianEngagedSeconds: null, readToEndRate: null });
    expect(before.sources.map((s) => [s.source, s.host, s.views])).toEqual([
      ["search", "www.google.com", 10],
      ["social", "www.facebook.com", 10],
      ["direct", "", 12],
      ["newsletter", "", 5],
      ["social", "t.co", 1],
    ].sort((a, b) => (b[2] as number) - (a[2] as number)));
    expect(before.campaigns).toEqual([{ utmSource: "newsletter", utmMedium: "email", utmCampaign: "morning", views: 5, visitors: 0 }]);
    expect(before.categories.map((c) => [c.name, c.views])).toEqual([["Politics", 30], ["Sport", 6]]);
    expect(before.authors.map((c) => [c.name, c.views])).toEqual([["Ann Writer", 30], ["Bob Reporter", 6]]);
    expect(before.devices.reduce((a, d) => a + d.views, 0)).toBe(38);
    expect(before.engagement).toMatchObject({ reads: 3, medianEngagedSeconds: 25, readToEndRate: 1 / 3, depth: { 25: 1, 50: 2 / 3, 75: 1 / 3, 100: 1 / 3 } });
    expect(before.conversions).toEqual({ newsletter: 1, member: 0, paid: 0 });

    const run = await runAudienceRollup(t.db, { timeZone: TZ, now: NOW });
    expect(run.hoursRolled).toBeGreaterThan(30);
    const after = await audienceOverview(t.db, period, { kind: "site" }, TZ);
    expect(after).toEqual(before);

    // Lists are cut at the limit; the CSV export (null) has every row.
    expect((await audienceOverview(t.db, period, { kind: "site" }, TZ, { limit: 1 })).stories).toHaveLength(1);
    expect((await audienceOverview(t.db, period, { kind: "site" }, TZ, { limit: null })).sources).toHaveLength(5);
    // 7 days: yesterday's load counted too, one point per day.
    const week = await audienceOverview(t.db, audiencePeriodOf(params({ period: "7d" }), TZ, NOW), { kind: "site" }, TZ);
    expect(week.totals.views).toBe(39);
    expect(week.series).toHaveLength(7);
    expect(week.series[5]!.views).toBe(1);
  });

  it("shows an author only their own stories, with those stories' totals", async () => {
    const period = audiencePeriodOf(params({ period: "today" }), TZ, NOW);
    const bob = await audienceOverview(t.db, period, { kind: "author", authorId: sport.authorIds[0]! }, TZ);
    expect(bob.totals).toEqual({ views: 6, visitors: 2 });
    expect(bob.stories.map((s) => s.title)).toEqual(["Cup final"]);
    expect(bob.sources.map((s) => [s.source, s.views])).toEqual([["newsletter", 5], ["social", 1]]);
    expect(bob.engagement.reads).toBe(0);
    expect(bob.conversions.newsletter).toBe(0);
    expect(bob.devices).toEqual([]);
  });

  it("reports a story since its publication by default", async () => {
    const report = await audienceStoryReport(t.db, politics.id, null, TZ, { now: NOW });
    expect(report.article).toMatchObject({ title: "Election night", authorName: "Ann Writer", categoryName: "Politics", status: "published" });
    expect([report.period.firstDay, report.period.lastDay, report.period.bucket]).toEqual(["2031-03-08", "2031-03-10", "day"]);
    expect(report.totals).toEqual({ views: 31, visitors: 4 });
    expect(report.series.map((p) => p.views)).toEqual([0, 1, 30]);
    expect(report.sources.map((s) => s.source).sort()).toEqual(["direct", "search", "social"]);
    expect(report.engagement.readToEndRate).toBeCloseTo(1 / 3);
    expect(report.conversions.newsletter).toBe(1);
    await expect(audienceStoryReport(t.db, randomUUID(), null, TZ)).rejects.toMatchObject({ status: 404 });
    await expect(audienceStoryReport(t.db, "not-an-id", null, TZ)).rejects.toMatchObject({ status: 404 });
  });

  it("right now counts the last 5 minutes' distinct visitors, their stories and sources", async () => {
    await insertEvents(t.db, [
      { at: new Date(NOW.getTime() - 60_000), articleId: sport.id, visitor: "e", source: "social", host: "t.co" },
      { at: new Date(NOW.getTime() - 30_000), articleId: politics.id, visitor: "f", source: "search", host: "www.bing.com" },
      { at: new Date(NOW.getTime() - 6 * 60_000), articleId: politics.id, visitor: "g" },
    ]);
    const now = await audienceRightNow(t.db, { kind: "site" }, NOW);
    expect([now.visitors, now.views]).toEqual([2, 3]);
    expect(now.stories.map((s) => [s.title, s.visitors, s.views])).toEqual([["Cup final", 1, 2], ["Election night", 1, 1]]);
    expect(now.sources.map((s) => [s.host, s.views])).toEqual([["t.co", 2], ["www.bing.com", 1]]);
    const ann = await audienceRightNow(t.db, { kind: "author", authorId: politics.authorIds[0]! }, NOW);
    expect([ann.visitors, ann.views, ann.stories.length]).toEqual([1, 1, 1]);
  });
});

describe("the old dashboard and the overview", () => {
  it("agree on the views of a period when loads are recorded through both paths", async () => {
    await resetAudience(t.db, new Date("2031-03-01T00:00:00Z"));
    await t.db.delete(pageViews);
    const story = await insertStory(t.db, { title: "Both paths" });
    // Loads over the month so far (some in the first hours of the 1st in UTC, the last day of February in New York).
    const times: Date[] = [];
    for (let i = 0; i < 60; i++) times.push(new Date(Date.parse("2031-03-01T01:00:00Z") + i * 3 * 3_600_000 + i * 7_000));
    times.push(new Date(NOW.getTime() - 60_000), new Date(NOW.getTime() - 10 * 3_600_000));
    const loads = times.filter((at) => at <= NOW);
    await t.db.insert(pageViews).values(loads.map((at, i) => ({ path: i % 4 ? `/article/${story.slug}` : "/", viewedAt: at })));
    await insertEvents(t.db, loads.map((at, i) => ({ at, articleId: i % 4 ? story.id : null, path: i % 4 ? `/article/${story.slug}` : "/", visitor: `v${i}`, newVisitor: true })));
    // Part of it rolled up, the rest raw.
    await runAudienceRollup(t.db, { timeZone: TZ, now: new Date("2031-03-06T00:00:00Z") });

    const dashboard = await getPageViewFigures(t.db, { timeZone: TZ, now: NOW });
    const today = await audienceOverview(t.db, audiencePeriodOf(params({ period: "today" }), TZ, NOW), { kind: "site" }, TZ);
    const month = await audienceOverview(t.db, audiencePeriodOf(params({ period: "range", from: "2031-03-01", to: "2031-03-31" }), TZ, NOW), { kind: "site" }, TZ);
    expect(dashboard.today).toBeGreaterThan(0);
    expect(today.totals.views).toBe(dashboard.today);
    expect(month.totals.views).toBe(dashboard.month);
    expect(month.totals.views).toBeLessThan(loads.length);
    // The story's loads of the month: whole UTC days from the day tables, the edges from hours and raw rows.
    const monthStart = Date.parse(month.period.from);
    const storyLoads = loads.filter((at, i) => i % 4 !== 0 && at.getTime() >= monthStart).length;
    expect(month.stories.map((s) => [s.title, s.views])).toEqual([["Both paths", storyLoads]]);
    const days = await t.db.execute(sql`select count(*) as n, sum(views) as views from audience_story_days`);
    expect(Number(days.rows[0]!.n)).toBeGreaterThan(3);
  });
});
