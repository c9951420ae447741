import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { NO_STORY, type AudienceDevice, type AudienceSource } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { fromDateTimeLocal } from "~/lib/dates";
import { audienceRolledUntil, audienceRows, ENGAGED_BUCKETS_SECONDS, siteDayOf } from "./audience-rollup.server";
import type {
  AudienceAuthorRow,
  AudienceCampaignRow,
  AudienceCategoryRow,
  AudienceConversions,
  AudienceDeviceRow,
  AudienceEngagement,
  AudienceOverview,
  AudiencePeriod,
  AudiencePeriodKey,
  AudienceRightNow,
  AudienceScope,
  AudienceSeriesPoint,
  AudienceSourceRow,
  AudienceStoryReport,
  AudienceStoryRow,
  AudienceTotals,
} from "./audience-report.types";

// The newsroom's audience figures (issue 42, decision 0058), in the shapes of audience-report.types.ts.
// Every figure reads `audienceRows` (audience-rollup.server.ts): the hourly rollups before rolled_until
// and the raw events after it, so "Today" is exact to the last flush. Buckets are the site time zone's
// hours and days; a chart's empty buckets are zeros.

/** Top lists' length on the screens; the CSV export passes `limit: null` (every row). */
export const AUDIENCE_TOP_LIMIT = 10;
/** The longest chosen range, in days. */
export const AUDIENCE_MAX_RANGE_DAYS = 366;
/** "Right now": the raw events of this many last minutes. */
export const RIGHT_NOW_MINUTES = 5;

export const AUDIENCE_PERIOD_KEYS: readonly AudiencePeriodKey[] = ["today", "7d", "30d", "range"];

const DAY_MS = 86_400_000;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** YYYY-MM-DD plus `days` (calendar days). */
function addDays(day: string, days: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The instant the site's clock reads midnight of `day`. */
function midnightOf(day: string, timeZone: string): Date {
  const instant = fromDateTimeLocal(`${day}T00:00`, timeZone);
  if (!instant) throw new AppError("invalid_input", `${day} is not a date.`);
  return instant;
}

function isRealDay(day: string): boolean {
  if (!DAY_RE.test(day)) return false;
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The period of the site days firstDay..lastDay (inclusive). */
export function audiencePeriodOfDays(key: AudiencePeriodKey, firstDay: string, lastDay: string, timeZone: string): AudiencePeriod {
  return {
    key,
    from: midnightOf(firstDay, timeZone).toISOString(),
    to: midnightOf(addDays(lastDay, 1), timeZone).toISOString(),
    bucket: firstDay === lastDay ? "hour" : "day",
    firstDay,
    lastDay,
  };
}

/**
 * The period asked for by /admin/audience's query: `period` today (the default) / 7d / 30d (each up to
 * and including today) / range with `from` and `to` (YYYY-MM-DD, site days, inclusive). Anything else,
 * a date that does not exist, a range ending before it starts or longer than 366 days: AppError 400.
 */
export function audiencePeriodOf(searchParams: URLSearchParams, timeZone: string, now: Date = new Date()): AudiencePeriod {
  const key = searchParams.get("period") || "today";
  const today = siteDayOf(now, timeZone);
  switch (key) {
    case "today":
      return audiencePeriodOfDays("today", today, today, timeZone);
    case "7d":
      return audiencePeriodOfDays("7d", addDays(today, -6), today, timeZone);
    case "30d":
      return audiencePeriodOfDays("30d", addDays(today, -29), today, timeZone);
    case "range": {
      const from = (searchParams.get("from") ?? "").trim();
      const to = (searchParams.get("to") ?? "").trim();
      if (!from || !to) throw new AppError("invalid_input", "Choose the first and the last day of the range.", { field: !from ? "from" : "to" });
      if (!isRealDay(from)) throw new AppError("invalid_input", `The first day "${from}" is not a date (YYYY-MM-DD).`, { field: "from" });
      if (!isRealDay(to)) throw new AppError("invalid_input", `The last day "${to}" is not a date (YYYY-MM-DD).`, { field: "to" });
      if (to < from) throw new AppError("invalid_input", "The range ends before it starts.", { field: "to" });
      const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
      if (days > AUDIENCE_MAX_RANGE_DAYS) throw new AppError("invalid_input", `A range is at most ${AUDIENCE_MAX_RANGE_DAYS} days.`, { field: "to" });
      return audiencePeriodOfDays("range", from, to, timeZone);
    }
    default:
      throw new AppError("invalid_input", `Unknown period "${key}": choose today, 7d, 30d or range.`, { field: "period" });
  }
}

// ---------------------------------------------------------------- helpers

const num = (value: unknown) => Number(value ?? 0);
const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/**
 * The median engaged seconds of a histogram over ENGAGED_BUCKETS_SECONDS: the bucket holding the middle
 * read, interpolated linearly within it (the open last bucket answers its lower edge). Null when empty.
 */
export function medianEngagedSeconds(buckets: readonly number[]): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  const half = total / 2;
  let before = 0;
  for (let i = 0; i < buckets.length; i++) {
    const count = buckets[i] ?? 0;
    if (count > 0 && before + count >= half) {
      const low = ENGAGED_BUCKETS_SECONDS[i]!;
      const high = ENGAGED_BUCKETS_SECONDS[i + 1];
      if (high === undefined) return low;
      return low + ((half - before) / count) * (high - low);
    }
    before += count;
  }
  return ENGAGED_BUCKETS_SECONDS[ENGAGED_BUCKETS_SECONDS.length - 1]!;
}

/** Which stories a query counts: every one, an author's (their byline), or one story. */
type StoryFilter = { kind: "site" } | { kind: "author"; authorId: string } | { kind: "story"; articleId: string };

const filterOf = (scope: AudienceScope): StoryFilter => scope;

/** ` and <column> in (the filter's stories)` (nothing for the site). */
function storyWhere(filter: StoryFilter, column: SQL): SQL {
  if (filter.kind === "author") return sql` and ${column} in (select aa.article_id from article_authors aa where aa.author_id = ${filter.authorId}::uuid)`;
  if (filter.kind === "story") return sql` and ${column} = ${filter.articleId}::uuid`;
  return sql``;
}

interface Window {
  from: Date;
  to: Date;
  rolledUntil: Date;
}

/** The database, or the report's read-only transaction (one snapshot: see inOneSnapshot). */
type Reader = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Runs a report's queries in one repeatable-read, read-only transaction on one connection: the
 * rollup moves rolled_until every minute (rolling the hour under way again), so the boundary read
 * first and the rollup and raw rows read after must be of the same moment, or a minute of loads
 * could be counted twice or not at all.
 */
function inOneSnapshot<T>(db: Db, read: (tx: Reader) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: "repeatable read", accessMode: "read only" });
}

async function windowOf(db: Reader, period: AudiencePeriod): Promise<Window> {
  return { from: new Date(period.from), to: new Date(period.to), rolledUntil: await audienceRolledUntil(db) };
}

/** A window's rows of `kind` by hour (a chart), or with its whole UTC days as day rows (totals and lists). */
const rows = (kind: Parameters<typeof audienceRows>[0], w: Window, byHour = false) => audienceRows(kind, w.from, w.to, w.rolledUntil, { days: !byHour });

const bucketSums = sql.raw(ENGAGED_BUCKETS_SECONDS.map((_, i) => `coalesce(sum(engaged_buckets[${i + 1}]), 0)::bigint as b${i + 1}`).join(", "));
const bucketsOf = (row: Record<string, unknown>) => ENGAGED_BUCKETS_SECONDS.map((_, i) => num(row[`b${i + 1}`]));

/** The series by the period's bucket in the site time zone, every bucket present (zeros when empty). */
async function seriesOf(db: Reader, period: AudiencePeriod, w: Window, filter: StoryFilter, timeZone: string): Promise<AudienceSeriesPoint[]> {
  const step = sql.raw(`'1 ${period.bucket}'::interval`);
  const unit = sql.raw(`'${period.bucket}'`);
  // The whole site: its hours by device (every page); a set of stories: their story hours.
  const source =
    filter.kind === "site"
      ? sql`select hour, views, visitors from ${rows("site", w, true)} r`
      : sql`select hour, views, visitors from ${rows("story", w, true)} r where true${storyWhere(filter, sql`r.article_id`)}`;
  const result = await db.execute(sql`
    with counted as (
      select date_trunc(${unit}, hour at time zone ${timeZone}) as local, sum(views) as views, sum(visitors) as visitors
      from (${source}) s group by 1
    ), buckets as (
      select generate_series(${ts(w.from)} at time zone ${timeZone}, (${ts(w.to)} at time zone ${timeZone}) - ${step}, ${step}) as local
    )
    select b.local at time zone ${timeZone} as at, coalesce(c.views, 0) as views, coalesce(c.visitors, 0) as visitors
    from buckets b left join counted c on c.local = b.local
    order by b.local`);
  return result.rows.map((r) => ({ at: iso(r.at), views: num(r.views), visitors: num(r.visitors) }));
}

const totalsOf = (series: AudienceSeriesPoint[]): AudienceTotals => ({
  views: series.reduce((a, p) => a + p.views, 0),
  visitors: series.reduce((a, p) => a + p.visitors, 0),
});

const limitSql = (limit: number | null) => (limit === null ? sql`` : sql` limit ${limit}`);

interface StoryLists {
  stories: AudienceStoryRow[];
  categories: AudienceCategoryRow[];
  authors: AudienceAuthorRow[];
}

const readingColumns = sql.raw(["reading.reads", "reading.ends", ...ENGAGED_BUCKETS_SECONDS.map((_, i) => `reading.b${i + 1}`)].join(", "));

/**
 * The top stories (views, then visitors) with their byline, category and reading; the top categories;
 * the top authors (each with every story whose byline names them). One pass over the story hours.
 */
async function storyListsOf(db: Reader, w: Window, filter: StoryFilter, limit: number | null): Promise<StoryLists> {
  const result = await db.execute(sql`
    with per_story as materialized (
      select article_id, sum(views) as views, sum(visitors) as visitors
      from ${rows("story", w)} s where article_id <> ${NO_STORY}::uuid${storyWhere(filter, sql`s.article_id`)}
      group by article_id
    ), top as (
      select * from per_story order by views desc, visitors desc, article_id${limitSql(limit)}
    ), reading as (
      select article_id, coalesce(sum(reads), 0) as reads, coalesce(sum(depth_100), 0) as ends, ${bucketSums}
      from ${rows("read", w)} r where article_id in (select article_id from top) group by article_id
    )
    select
      (select coalesce(json_agg(t order by t.views desc, t.visitors desc, t.article_id), '[]') from (
        select top.article_id, top.views, top.visitors, a.title, a.slug,
          coalesce((select au.name from article_authors aa join authors au on au.id = aa.author_id where aa.article_id = a.id order by aa.position limit 1), a.author_name) as author_name,
          c.name as category_name, ${readingColumns}
        from top join articles a on a.id = top.article_id
        left join categories c on c.id = a.category_id
        left join reading on reading.article_id = top.article_id) t) as stories,
      (select coalesce(json_agg(t order by t.views desc, t.visitors desc, t.name), '[]') from (
        select c.id, c.name, c.slug, sum(p.views) as views, sum(p.visitors) as visitors
        from per_story p join articles a on a.id = p.article_id join categories c on c.id = a.category_id
        group by c.id, c.name, c.slug order by 4 desc, 5 desc, c.name${limitSql(limit)}) t) as categories,
      (select coalesce(json_agg(t order by t.views desc, t.visitors desc, t.name), '[]') from (
        select au.id, au.name, sum(p.views) as views, sum(p.visitors) as visitors
        from per_story p join article_authors aa on aa.article_id = p.article_id join authors au on au.id = aa.author_id
        group by au.id, au.name order by 3 desc, 4 desc, au.name${limitSql(limit)}) t) as authors`);
  const row = result.rows[0] ?? {};
  const list = (value: unknown) => (Array.isArray(value) ? value : JSON.parse(String(value ?? "[]"))) as Record<string, unknown>[];
  return {
    stories: list(row.stories).map((r) => {
      const reads = num(r.reads);
      return {
        articleId: String(r.article_id),
        title: String(r.title),
        slug: String(r.slug),
        authorName: r.author_name == null ? null : String(r.author_name),
        categoryName: r.category_name == null ? null : String(r.category_name),
        views: num(r.views),
        visitors: num(r.visitors),
        medianEngagedSeconds: reads > 0 ? medianEngagedSeconds(bucketsOf(r)) : null,
        readToEndRate: ratio(num(r.ends), reads),
      };
    }),
    categories: list(row.categories).map((r) => ({ categoryId: String(r.id), name: String(r.name), slug: String(r.slug), views: num(r.views), visitors: num(r.visitors) })),
    authors: list(row.authors).map((r) => ({ authorId: String(r.id), name: String(r.name), views: num(r.views), visitors: num(r.visitors) })),
  };
}

/**
 * The top sources (kind and host) and campaigns (utm tags), in one pass: the whole site's from its
 * source hours (a few rows an hour), a set of stories' from their own.
 */
async function sourceListsOf(db: Reader, w: Window, filter: StoryFilter, limit: number | null): Promise<{ sources: AudienceSourceRow[]; campaigns: AudienceCampaignRow[] }> {
  const counted =
    filter.kind === "site"
      ? sql`select * from ${rows("siteSource", w)} s`
      : sql`select * from ${rows("source", w)} s where true${storyWhere(filter, sql`s.article_id`)}`;
  const result = await db.execute(sql`
    with per_source as materialized (
      select source, source_host, utm_source, utm_medium, utm_campaign, sum(views) as views, sum(visitors) as visitors
      from (${counted}) c group by 1, 2, 3, 4, 5
    )
    select
      (select coalesce(json_agg(t order by t.views desc, t.visitors desc, t.source, t.source_host), '[]') from (
        select source, source_host, sum(views) as views, sum(visitors) as visitors
        from per_source group by 1, 2 order by 3 desc, 4 desc, 1, 2${limitSql(limit)}) t) as sources,
      (select coalesce(json_agg(t order by t.views desc, t.visitors desc, t.utm_source, t.utm_medium, t.utm_campaign), '[]') from (
        select utm_source, utm_medium, utm_campaign, sum(views) as views, sum(visitors) as visitors
        from per_source where utm_source <> '' or utm_medium <> '' or utm_campaign <> ''
        group by 1, 2, 3 order by 4 desc, 5 desc, 1, 2, 3${limitSql(limit)}) t) as campaigns`);
  const row = result.rows[0] ?? {};
  const list = (value: unknown) => (Array.isArray(value) ? value : JSON.parse(String(value ?? "[]"))) as Record<string, unknown>[];
  return {
    sources: list(row.sources).map((r) => ({ source: String(r.source) as AudienceSource, host: String(r.source_host), views: num(r.views), visitors: num(r.visitors) })),
    campaigns: list(row.campaigns).map((r) => ({
      utmSource: String(r.utm_source),
      utmMedium: String(r.utm_medium),
      utmCampaign: String(r.utm_campaign),
      views: num(r.views),
      visitors: num(r.visitors),
    })),
  };
}

/** Devices of the whole site's loads (an author's report has none: devices are rolled up per site hour, not per story). */
async function devicesOf(db: Reader, w: Window, filter: StoryFilter): Promise<AudienceDeviceRow[]> {
  if (filter.kind !== "site") return [];
  const result = await db.execute(sql`
    select device, sum(views) as views, sum(visitors) as visitors from ${rows("site", w)} s group by 1 order by 2 desc, 1`);
  return result.rows.map((r) => ({ device: String(r.device) as AudienceDevice, views: num(r.views), visitors: num(r.visitors) }));
}

async function engagementOf(db: Reader, w: Window, filter: StoryFilter): Promise<AudienceEngagement> {
  const result = await db.execute(sql`
    select coalesce(sum(reads), 0) as reads, coalesce(sum(depth_25), 0) as d25, coalesce(sum(depth_50), 0) as d50,
      coalesce(sum(depth_75), 0) as d75, coalesce(sum(depth_100), 0) as d100, ${bucketSums}
    from ${rows("read", w)} r where article_id <> ${NO_STORY}::uuid${storyWhere(filter, sql`r.article_id`)}`);
  const r = result.rows[0] ?? {};
  const reads = num(r.reads);
  return {
    reads,
    medianEngagedSeconds: medianEngagedSeconds(bucketsOf(r)),
    readToEndRate: ratio(num(r.d100), reads),
    depth: { 25: ratio(num(r.d25), reads), 50: ratio(num(r.d50), reads), 75: ratio(num(r.d75), reads), 100: ratio(num(r.d100), reads) },
  };
}

async function conversionsOf(db: Reader, w: Window, filter: StoryFilter): Promise<AudienceConversions> {
  const result = await db.execute(sql`
    select kind, count(*) as n from audience_conversions c
    where at >= ${ts(w.from)} and at < ${ts(w.to)}${storyWhere(filter, sql`c.article_id`)} group by kind`);
  const counts: AudienceConversions = { newsletter: 0, member: 0, paid: 0 };
  for (const r of result.rows) if (String(r.kind) in counts) counts[String(r.kind) as keyof AudienceConversions] = num(r.n);
  return counts;
}

export interface AudienceListOptions {
  /** Rows of each top list (default AUDIENCE_TOP_LIMIT); null: all of them (the CSV export). */
  limit?: number | null;
}

/**
 * The figures of /admin/audience for a period: the whole site, or an author's stories (their totals
 * and chart are those stories' views and visitors; devices are the site's only).
 */
export async function audienceOverview(
  db: Db,
  period: AudiencePeriod,
  scope: AudienceScope,
  timeZone: string,
  options: AudienceListOptions = {},
): Promise<AudienceOverview> {
  const limit = options.limit === undefined ? AUDIENCE_TOP_LIMIT : options.limit;
  const filter = filterOf(scope);
  return inOneSnapshot(db, async (tx) => {
    const w = await windowOf(tx, period);
    // One connection: one query after the other.
    const series = await seriesOf(tx, period, w, filter, timeZone);
    const { stories, categories, authors } = await storyListsOf(tx, w, filter, limit);
    const { sources, campaigns } = await sourceListsOf(tx, w, filter, limit);
    const devices = await devicesOf(tx, w, filter);
    const engagement = await engagementOf(tx, w, filter);
    const conversions = await conversionsOf(tx, w, filter);
    return { period, scope, totals: totalsOf(series), series, stories, sources, campaigns, categories, authors, devices, engagement, conversions };
  });
}

/**
 * The last RIGHT_NOW_MINUTES of raw events (the at index, today's partition only): distinct visitors,
 * views, the stories they are on and their sources (AUDIENCE_TOP_LIMIT each).
 */
export async function audienceRightNow(db: Db, scope: AudienceScope, now: Date = new Date()): Promise<AudienceRightNow> {
  const since = new Date(now.getTime() - RIGHT_NOW_MINUTES * 60_000);
  const filter = filterOf(scope);
  const recent = sql`select article_id, visitor, source, source_host from audience_events e
    where at >= ${ts(since)} and at <= ${ts(now)}${storyWhere(filter, sql`e.article_id`)}`;
  const [totals, stories, sources] = await Promise.all([
    db.execute(sql`select count(distinct visitor) as visitors, count(*) as views from (${recent}) r`),
    db.execute(sql`
      select r.article_id, a.title, a.slug, count(distinct visitor) as visitors, count(*) as views
      from (${recent}) r join articles a on a.id = r.article_id
      group by r.article_id, a.title, a.slug order by 4 desc, 5 desc, a.title limit ${AUDIENCE_TOP_LIMIT}`),
    db.execute(sql`
      select source, source_host, count(distinct visitor) as visitors, count(*) as views
      from (${recent}) r group by 1, 2 order by 3 desc, 4 desc, 1, 2 limit ${AUDIENCE_TOP_LIMIT}`),
  ]);
  return {
    at: now.toISOString(),
    visitors: num(totals.rows[0]?.visitors),
    views: num(totals.rows[0]?.views),
    stories: stories.rows.map((r) => ({ articleId: String(r.article_id), title: String(r.title), slug: String(r.slug), visitors: num(r.visitors), views: num(r.views) })),
    sources: sources.rows.map((r) => ({ source: String(r.source) as AudienceSource, host: String(r.source_host), visitors: num(r.visitors), views: num(r.views) })),
  };
}

/**
 * One story's report: by default since its publication (its creation when never published) up to
 * today; or the period given. An unknown story: AppError not_found. Who may see it is the route's
 * guard (an author: their own stories only).
 */
export async function audienceStoryReport(
  db: Db,
  articleId: string,
  period: AudiencePeriod | null,
  timeZone: string,
  options: AudienceListOptions & { now?: Date } = {},
): Promise<AudienceStoryReport> {
  const found = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(articleId)
    ? await db.execute(sql`
        select a.id, a.title, a.slug, a.status, a.published_at, a.created_at, c.name as category_name,
          (select aa.author_id from article_authors aa where aa.article_id = a.id order by aa.position limit 1) as author_id,
          coalesce((select au.name from article_authors aa join authors au on au.id = aa.author_id where aa.article_id = a.id order by aa.position limit 1), a.author_name) as author_name
        from articles a left join categories c on c.id = a.category_id where a.id = ${articleId}::uuid`)
    : { rows: [] };
  const a = found.rows[0];
  if (!a) throw new AppError("not_found", "That story does not exist.");
  const limit = options.limit === undefined ? AUDIENCE_TOP_LIMIT : options.limit;
  const today = siteDayOf(options.now ?? new Date(), timeZone);
  let chosen = period;
  if (!chosen) {
    const since = siteDayOf(new Date(iso(a.published_at ?? a.created_at)), timeZone);
    chosen = audiencePeriodOfDays("range", since < today ? since : today, today, timeZone);
  }
  const filter: StoryFilter = { kind: "story", articleId: String(a.id) };
  const reported = chosen;
  const [series, { sources, campaigns }, engagement, conversions] = await inOneSnapshot(db, async (tx) => {
    const w = await windowOf(tx, reported);
    const series = await seriesOf(tx, reported, w, filter, timeZone);
    const lists = await sourceListsOf(tx, w, filter, limit);
    return [series, lists, await engagementOf(tx, w, filter), await conversionsOf(tx, w, filter)] as const;
  });
  return {
    article: {
      id: String(a.id),
      title: String(a.title),
      slug: String(a.slug),
      status: String(a.status),
      publishedAt: a.published_at == null ? null : iso(a.published_at),
      authorId: a.author_id == null ? null : String(a.author_id),
      authorName: a.author_name == null ? null : String(a.author_name),
      categoryName: a.category_name == null ? null : String(a.category_name),
    },
    period: chosen,
    totals: totalsOf(series),
    series,
    sources,
    campaigns,
    engagement,
    conversions,
  };
}
