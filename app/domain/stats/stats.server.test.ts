import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articles, categories, comments, pageViews } from "~/db/schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { PERIOD_COMMENT_LIMITS, RECENT_COMMENTS_LIMIT, TOP_ARTICLES_LIMIT } from "./periods";
import { figureLabel, MEASURES, viewFigureRows } from "./figures";
import { getDashboardStats, getPageViewFigures, getPeriodRanges } from "./stats.server";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});

// ------------------------------------------------------------ an independent model of "when" in a zone

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(date: Date, timeZone: string): LocalParts {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute"), second: get("second") };
}

/** The instant at which the wall clock in `timeZone` shows y-m-d 00:00:00 (found by iterating the offset). */
function zonedMidnight(year: number, month: number, day: number, timeZone: string): Date {
  const target = Date.UTC(year, month - 1, day);
  let guess = target;
  for (let i = 0; i < 3; i++) {
    const p = localParts(new Date(guess), timeZone);
    const shownAsUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    guess += target - shownAsUtc;
  }
  const check = localParts(new Date(guess), timeZone);
  expect([check.year, check.month, check.day, check.hour, check.minute]).toEqual([year, month, day, 0, 0]);
  return new Date(guess);
}

type Period = "today" | "month" | "year";

function inPeriod(at: Date, now: Date, timeZone: string, period: Period) {
  const a = localParts(at, timeZone);
  const n = localParts(now, timeZone);
  if (a.year !== n.year) return false;
  if (period === "year") return true;
  if (a.month !== n.month) return false;
  return period === "month" || a.day === n.day;
}

function expectedCounts(times: Date[], now: Date, timeZone: string) {
  const count = (period: Period) => times.filter((at) => inPeriod(at, now, timeZone, period)).length;
  return { today: count("today"), month: count("month"), year: count("year") };
}

/** A small deterministic pseudo-random generator, so every run seeds the same rows. */
function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * Instants up to `now`: some today, some earlier this month, some earlier this year, some last year,
 * plus the edges of each period (its first instant and the millisecond before it).
 */
function spreadTimes(now: Date, timeZone: string, seed: number, spread: { today: number; month: number; year: number; before: number }) {
  const random = mulberry32(seed);
  const n = localParts(now, timeZone);
  const todayStart = zonedMidnight(n.year, n.month, n.day, timeZone);
  const monthStart = zonedMidnight(n.year, n.month, 1, timeZone);
  const yearStart = zonedMidnight(n.year, 1, 1, timeZone);
  const between = (from: number, to: number) => new Date(from + Math.floor(random() * Math.max(1, to - from)));
  const times: Date[] = [];
  for (let i = 0; i < spread.today; i++) times.push(between(todayStart.getTime(), now.getTime()));
  for (let i = 0; i < spread.month; i++) times.push(between(monthStart.getTime(), todayStart.getTime()));
  for (let i = 0; i < spread.year; i++) times.push(between(yearStart.getTime(), monthStart.getTime()));
  for (let i = 0; i < spread.before; i++) times.push(between(yearStart.getTime() - 400 * DAY, yearStart.getTime()));
  for (const edge of [todayStart, monthStart, yearStart]) {
    times.push(edge, new Date(edge.getTime() - 1), new Date(edge.getTime() + MINUTE));
  }
  // UTC midnight of now's UTC date: a zone-unaware implementation would split the day here.
  const utcMidnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  for (const at of [utcMidnight, new Date(utcMidnight.getTime() - 1)]) if (at <= now) times.push(at);
  return times.filter((at) => at <= now);
}

async function resetContent(db: TestDatabase["db"]) {
  await db.execute(sql`truncate page_views, comments, articles, categories restart identity cascade`);
}

async function seed(db: TestDatabase["db"], now: Date, timeZone: string, seedNumber: number) {
  const viewTimes = spreadTimes(now, timeZone, seedNumber, { today: 23, month: 41, year: 67, before: 31 });
  const articleTimes = spreadTimes(now, timeZone, seedNumber + 1, { today: 3, month: 4, year: 6, before: 2 });
  const commentTimes = spreadTimes(now, timeZone, seedNumber + 2, { today: 12, month: 9, year: 20, before: 5 });

  const [category] = await db.insert(categories).values({ name: "News", slug: "news" }).returning();
  await db.insert(categories).values({ name: "Sport", slug: "sport" });
  const random = mulberry32(seedNumber + 3);
  const articleRows = await db
    .insert(articles)
    .values(
      articleTimes.map((createdAt, i) => ({
        title: `Article ${i}`,
        slug: `article-${i}`,
        content: "Body",
        categoryId: i % 2 === 0 ? category!.id : null,
        views: Math.floor(random() * 1000),
        createdAt,
      })),
    )
    .returning();
  // Created in every period but not public: the dashboard's article figures must leave them out.
  await db.insert(articles).values([
    { title: "A draft", slug: "a-draft", content: "Body", status: "draft", createdAt: now },
    { title: "Planned", slug: "planned", content: "Body", status: "scheduled", publishedAt: new Date("2099-01-01T00:00:00Z"), createdAt: now },
  ]);
  await db.insert(comments).values(
    commentTimes.map((createdAt, i) => ({
      articleId: articleRows[i % articleRows.length]!.id,
      authorName: `Reader ${i}`,
      authorEmail: `reader${i}@example.com`,
      content: `Comment ${i}`,
      createdAt,
    })),
  );
  await db.insert(pageViews).values(viewTimes.map((viewedAt, i) => ({ path: i % 3 === 0 ? "/" : `/article/article-${i % 5}`, viewedAt })));
  return { viewTimes, articleTimes, commentTimes, articleRows };
}

const scenarios = [
  // 23:30 on 28 February in New York is already 1 March in UTC: the month must still be February.
  { name: "late on the last day of a month in New York", timeZone: "America/New_York", now: new Date("2025-03-01T04:30:00Z") },
  // 22:00 on New Year's Eve in New York is already next year in UTC.
  { name: "New Year's Eve evening in New York", timeZone: "America/New_York", now: new Date("2025-01-01T03:00:00Z") },
  // Summer time: the year started in EST (UTC-5), today is EDT (UTC-4).
  { name: "a summer afternoon in New York", timeZone: "America/New_York", now: new Date("2025-06-15T16:00:00Z") },
  // A zone ahead of UTC: 01:30 on 1 August in India is still 31 July in UTC.
  { name: "just after midnight on the 1st in India", timeZone: "Asia/Kolkata", now: new Date("2025-07-31T20:00:00Z") },
];

describe.each(scenarios)("dashboard figures, $name", ({ timeZone, now }) => {
  it("period ranges start at local midnight today, on the 1st and on 1 January", async () => {
    const ranges = await getPeriodRanges(t.db, { timeZone, now });
    const n = localParts(now, timeZone);
    expect(ranges.today.start).toEqual(zonedMidnight(n.year, n.month, n.day, timeZone));
    expect(ranges.month.start).toEqual(zonedMidnight(n.year, n.month, 1, timeZone));
    expect(ranges.year.start).toEqual(zonedMidnight(n.year, 1, 1, timeZone));
    expect(ranges.year.end).toEqual(zonedMidnight(n.year + 1, 1, 1, timeZone));
    for (const range of Object.values(ranges)) expect(range.start <= now && now < range.end).toBe(true);
  });

  it("views, articles and comments per period equal the counts computed independently", async () => {
    await resetContent(t.db);
    const seeded = await seed(t.db, now, timeZone, now.getTime() % 100_000);
    const stats = await getDashboardStats(t.db, { timeZone, now });

    const views = expectedCounts(seeded.viewTimes, now, timeZone);
    // The data must actually exercise every period, or the comparison proves nothing.
    expect(views.today).toBeGreaterThan(0);
    // (On the 1st, "this month" is today; in January, "this year" is this month.)
    const local = localParts(now, timeZone);
    if (local.day > 1) expect(views.month).toBeGreaterThan(views.today);
    if (local.month > 1) expect(views.year).toBeGreaterThan(views.month);
    expect(seeded.viewTimes.length).toBeGreaterThan(views.year);

    expect(stats.pageViews).toEqual({ ...views, allTime: seeded.viewTimes.length });
    expect(await getPageViewFigures(t.db, { timeZone, now })).toEqual(views);

    const articleCounts = expectedCounts(seeded.articleTimes, now, timeZone);
    const commentCounts = expectedCounts(seeded.commentTimes, now, timeZone);
    for (const period of ["today", "month", "year"] as const) {
      expect(stats.activity[period].viewCount).toBe(views[period]);
      expect(stats.activity[period].articleCount).toBe(articleCounts[period]);
      expect(stats.activity[period].commentCount).toBe(commentCounts[period]);
    }
  });

  it("totals count public articles (drafts and scheduled apart), every comment, and sum every article's views", async () => {
    const stats = await getDashboardStats(t.db, { timeZone, now });
    const [row] = (
      await t.db.execute(
        sql`select (select count(*) from articles where status = 'published') a, (select count(*) from comments) c, (select sum(views) from articles) v`,
      )
    ).rows;
    expect(Number(row!.a)).toBeGreaterThan(0);
    expect(stats.totals).toEqual({
      articles: Number(row!.a),
      drafts: 1,
      scheduled: 1,
      comments: Number(row!.c),
      categories: 2,
      articleViews: Number(row!.v),
    });
  });

  it("lists hold only rows of their period, newest first, within the spec's limits", async () => {
    const stats = await getDashboardStats(t.db, { timeZone, now });
    for (const period of ["today", "month", "year"] as const) {
      const { articles: listed, comments: listedComments, commentCount, articleCount } = stats.activity[period];
      for (const item of listed) expect(inPeriod(item.publishedAt, now, timeZone, period)).toBe(true);
      for (const item of listedComments) expect(inPeriod(item.createdAt, now, timeZone, period)).toBe(true);
      expect(listed.map((a) => a.slug)).not.toContain("a-draft");
      expect(listedComments.length).toBe(Math.min(commentCount, PERIOD_COMMENT_LIMITS[period]));
      expect(listed.length).toBeLessThanOrEqual(articleCount);
      const times = listedComments.map((c) => c.createdAt.getTime());
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
    expect(PERIOD_COMMENT_LIMITS.month).toBe(10);
    expect(PERIOD_COMMENT_LIMITS.year).toBe(15);
    expect(stats.activity.year.comments).toHaveLength(15);

    expect(stats.topArticles.length).toBe(Math.min(TOP_ARTICLES_LIMIT, stats.totals.articles));
    const views = stats.topArticles.map((a) => a.views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    const [maxRow] = (await t.db.execute(sql`select max(views) m from articles`)).rows;
    expect(views[0]).toBe(Number(maxRow!.m));

    expect(stats.recentComments.length).toBe(Math.min(RECENT_COMMENTS_LIMIT, stats.totals.comments));
    expect(stats.recentComments[0]!.articleSlug).toMatch(/^article-\d+$/);
  });
});

describe("the recent comments dialog", () => {
  it("shows the latest 50 comments, newest first, with the article they are on", async () => {
    await resetContent(t.db);
    const [article] = await t.db.insert(articles).values({ title: "Busy", slug: "busy", content: "Body" }).returning();
    const base = Date.parse("2025-05-01T12:00:00Z");
    await t.db.insert(comments).values(
      Array.from({ length: 60 }, (_, i) => ({
        articleId: article!.id,
        authorName: `Reader ${i}`,
        authorEmail: `r${i}@example.com`,
        content: `Comment ${i}`,
        createdAt: new Date(base + i * MINUTE),
      })),
    );
    const stats = await getDashboardStats(t.db, { timeZone: "America/New_York", now: new Date(base + DAY) });
    expect(stats.recentComments).toHaveLength(50);
    expect(stats.recentComments[0]).toMatchObject({ content: "Comment 59", articleTitle: "Busy", articleSlug: "busy" });
    expect(stats.recentComments[49]!.content).toBe("Comment 10");
    expect(stats.totals.comments).toBe(60);
  });

  it("an empty site shows zeros everywhere", async () => {
    await resetContent(t.db);
    const stats = await getDashboardStats(t.db, { timeZone: "America/New_York", now: new Date("2025-05-01T12:00:00Z") });
    expect(stats.totals).toEqual({ articleViews: 0, articles: 0, drafts: 0, scheduled: 0, comments: 0, categories: 0 });
    expect(stats.pageViews).toEqual({ today: 0, month: 0, year: 0, allTime: 0 });
    expect(stats.activity.today).toEqual({ articleCount: 0, commentCount: 0, viewCount: 0, articles: [], comments: [] });
  });
});

describe("the view figures say what they count and agree", () => {
  // Today's mix-up: "Total Site Views 90,226" (the article counters' sum) sat beside "Views This Year
  // 90,242" (page views). Here the counters sum to less than this year's page views, as on the demo site.
  it("each row is one measure, and its All time ≥ This year ≥ This month ≥ Today", async () => {
    await resetContent(t.db);
    const timeZone = "America/New_York";
    const now = new Date("2025-06-15T16:00:00Z");
    const viewTimes = spreadTimes(now, timeZone, 27, { today: 7, month: 11, year: 40, before: 9 });
    await t.db.insert(pageViews).values(viewTimes.map((viewedAt, i) => ({ path: `/article/story-${i % 4}`, viewedAt })));
    await t.db.insert(articles).values([
      { title: "One", slug: "one", content: "Body", views: 20 },
      { title: "Two", slug: "two", content: "Body", views: 13 },
    ]);
    const stats = await getDashboardStats(t.db, { timeZone, now });
    const expected = expectedCounts(viewTimes, now, timeZone);
    expect(expected.year).toBeGreaterThan(33);

    const rows = viewFigureRows(stats);
    expect(rows.map((r) => r.measure)).toEqual(["pageViews", "articleViews"]);
    for (const row of rows) {
      const values = row.figures.map((f) => f.value);
      // Shortest period first, so the figures never decrease along the row.
      expect(values, MEASURES[row.measure].label).toEqual([...values].sort((a, b) => a - b));
      for (const figure of row.figures) expect(figureLabel(row.measure, figure.period).toLowerCase()).toContain(MEASURES[row.measure].label.toLowerCase());
    }
    // Every figure of a row counts that row's measure, checked independently.
    const [pageRow, articleRow] = rows;
    expect(Object.fromEntries(pageRow!.figures.map((f) => [f.period, f.value]))).toEqual({ ...expected, allTime: viewTimes.length });
    expect(articleRow!.figures).toEqual([{ period: "allTime", value: 33 }]);
    expect(figureLabel("pageViews", "year")).toBe("Page Views This Year");
    expect(figureLabel("articleViews", "allTime")).toBe("Article Views All Time");
  });
});
