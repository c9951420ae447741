import { sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { NO_STORY, type AudienceDevice, type AudienceSource } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { fromDateTimeLocal, inTimeZone, isoDayOf } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import type {
  AudienceConversions,
  AudienceEngagement,
  AudienceOverview,
  AudiencePeriod,
  AudiencePeriodKey,
  AudienceRightNow,
  AudienceScope,
  AudienceSeriesPoint,
  AudienceStoryReport,
} from "./audience-report.types";

// SHIM (i42-ui): the screens' branch needs these functions to compile and to show real figures. They read
// the raw tables only (kept 90 days), simply; the report engineer's module (rollups + raw, benchmarked)
// replaces this file at merge with the same exported names and shapes.

/** The longest chosen range, in days. */
export const MAX_RANGE_DAYS = 366;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const RIGHT_NOW_MS = 5 * 60_000;

const midnightOf = (day: string, timeZone: string) => fromDateTimeLocal(`${day}T00:00`, timeZone);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The period a query string asks for (`period=today|7d|30d|range`, a range's `from` and `to` as
 * YYYY-MM-DD in the site's zone, both inclusive); a bad range is refused with the field at fault.
 */
export function audiencePeriodOf(searchParams: URLSearchParams, timeZone: string, now: Date): AudiencePeriod {
  const requested = searchParams.get("period") ?? "today";
  const key: AudiencePeriodKey = (["today", "7d", "30d", "range"] as const).find((k) => k === requested) ?? "today";
  const today = isoDayOf(inTimeZone(now, timeZone));
  let firstDay = today;
  let lastDay = today;
  if (key === "7d") firstDay = addDays(today, -6);
  if (key === "30d") firstDay = addDays(today, -29);
  if (key === "range") {
    const from = (searchParams.get("from") ?? "").trim();
    const to = (searchParams.get("to") ?? "").trim();
    if (!DAY.test(from) || !midnightOf(from, timeZone)) throw new AppError("invalid_input", "Enter the first day as a date.", { field: "from" });
    if (!DAY.test(to) || !midnightOf(to, timeZone)) throw new AppError("invalid_input", "Enter the last day as a date.", { field: "to" });
    if (to < from) throw new AppError("invalid_input", "The last day must not be before the first day.", { field: "to" });
    if (to > today) throw new AppError("invalid_input", "The last day cannot be in the future.", { field: "to" });
    if (Date.parse(to) - Date.parse(from) >= MAX_RANGE_DAYS * 86_400_000) {
      throw new AppError("invalid_input", `Choose at most ${MAX_RANGE_DAYS} days.`, { field: "from" });
    }
    firstDay = from;
    lastDay = to;
  }
  return {
    key,
    from: midnightOf(firstDay, timeZone)!.toISOString(),
    to: midnightOf(addDays(lastDay, 1), timeZone)!.toISOString(),
    bucket: firstDay === lastDay ? "hour" : "day",
    firstDay,
    lastDay,
  };
}

type Row = Record<string, unknown>;
async function rows<T extends Row>(db: Db, query: SQL): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}
const num = (v: unknown) => Number(v ?? 0);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The stories a scope covers, as a condition on `column` (an article id). */
function scopeFilter(scope: AudienceScope, column: SQL): SQL {
  if (scope.kind === "site") return sql`true`;
  return sql`${column} in (select aa.article_id from article_authors aa where aa.author_id = ${scope.authorId}::uuid)`;
}

/** Visitors as the scope counts them: the site's first load of the day, or a story's. */
const visitorsOf = (scope: AudienceScope) => (scope.kind === "site" ? sql`sum(e.new_visitor::int)` : sql`sum(e.new_story_visitor::int)`);

function bucketOf(period: AudiencePeriod, timeZone: string) {
  return sql`(date_trunc(${period.bucket}, e.at at time zone ${timeZone}) at time zone ${timeZone})`;
}

function fillSeries(period: AudiencePeriod, timeZone: string, found: Map<number, { views: number; visitors: number }>): AudienceSeriesPoint[] {
  const points: AudienceSeriesPoint[] = [];
  const end = Date.parse(period.to);
  if (period.bucket === "hour") {
    for (let t = Date.parse(period.from); t < end; t += 3600_000) points.push({ at: new Date(t).toISOString(), ...(found.get(t) ?? { views: 0, visitors: 0 }) });
  } else {
    for (let day = period.firstDay; day <= period.lastDay; day = addDays(day, 1)) {
      const t = midnightOf(day, timeZone)!.getTime();
      points.push({ at: new Date(t).toISOString(), ...(found.get(t) ?? { views: 0, visitors: 0 }) });
    }
  }
  return points;
}

async function engagementOf(db: Db, where: SQL): Promise<AudienceEngagement> {
  const [row] = await rows(
    db,
    sql`with loads as (select r.load_id, max(r.engaged_ms) as ms, max(r.depth) as depth from audience_reads r where ${where} group by r.load_id)
        select count(*) as reads, percentile_cont(0.5) within group (order by ms) / 1000.0 as median,
          count(*) filter (where depth >= 25) as d25, count(*) filter (where depth >= 50) as d50,
          count(*) filter (where depth >= 75) as d75, count(*) filter (where depth >= 100) as d100 from loads`,
  );
  const reads = num(row?.reads);
  const share = (v: unknown) => (reads > 0 ? num(v) / reads : null);
  return {
    reads,
    medianEngagedSeconds: reads > 0 ? Math.round(num(row?.median)) : null,
    readToEndRate: share(row?.d100),
    depth: { 25: share(row?.d25), 50: share(row?.d50), 75: share(row?.d75), 100: share(row?.d100) },
  };
}

async function conversionsOf(db: Db, where: SQL): Promise<AudienceConversions> {
  const found = await rows<{ kind: string; n: string }>(db, sql`select c.kind, count(*) as n from audience_conversions c where ${where} group by c.kind`);
  const of = (kind: string) => num(found.find((r) => r.kind === kind)?.n);
  return { newsletter: of("newsletter"), member: of("member"), paid: of("paid") };
}

async function sourcesOf(db: Db, where: SQL, visitors: SQL) {
  const found = await rows(
    db,
    sql`select e.source, e.source_host, count(*) as views, ${visitors} as visitors from audience_events e where ${where}
        group by e.source, e.source_host order by views desc, e.source, e.source_host limit 50`,
  );
  return found.map((r) => ({ source: r.source as AudienceSource, host: String(r.source_host), views: num(r.views), visitors: num(r.visitors) }));
}

async function campaignsOf(db: Db, where: SQL, visitors: SQL) {
  const found = await rows(
    db,
    sql`select e.utm_source, e.utm_medium, e.utm_campaign, count(*) as views, ${visitors} as visitors from audience_events e
        where ${where} and (e.utm_source <> '' or e.utm_campaign <> '' or e.utm_medium <> '')
        group by e.utm_source, e.utm_medium, e.utm_campaign order by views desc limit 50`,
  );
  return found.map((r) => ({ utmSource: String(r.utm_source), utmMedium: String(r.utm_medium), utmCampaign: String(r.utm_campaign), views: num(r.views), visitors: num(r.visitors) }));
}

async function seriesOf(db: Db, where: SQL, visitors: SQL, period: AudiencePeriod, timeZone: string) {
  const found = await rows(db, sql`select ${bucketOf(period, timeZone)} as bucket, count(*) as views, ${visitors} as visitors from audience_events e where ${where} group by 1`);
  return fillSeries(period, timeZone, new Map(found.map((r) => [new Date(r.bucket as string).getTime(), { views: num(r.views), visitors: num(r.visitors) }])));
}

const inPeriod = (period: AudiencePeriod, alias: SQL) => sql`${alias}.at >= ${period.from}::timestamptz and ${alias}.at < ${period.to}::timestamptz`;

/** The figures of /admin/audience for a period and a scope. */
/** Rows of each top list (default 50 here); null: all of them (the CSV export). */
export interface AudienceListOptions {
  limit?: number | null;
}

export async function audienceOverview(db: Db, period: AudiencePeriod, scope: AudienceScope, timeZone: string, options: AudienceListOptions = {}): Promise<AudienceOverview> {
  void options;
  const where = sql`${inPeriod(period, sql`e`)} and ${scopeFilter(scope, sql`e.article_id`)}`;
  const storyWhere = sql`${where} and e.article_id is not null and e.article_id <> ${NO_STORY}::uuid`;
  const visitors = visitorsOf(scope);
  const [totalsRow] = await rows(db, sql`select count(*) as views, ${visitors} as visitors from audience_events e where ${where}`);
  const stories = await rows(
    db,
    sql`with s as (select e.article_id, count(*) as views, sum(e.new_story_visitor::int) as visitors from audience_events e where ${storyWhere}
          group by e.article_id order by views desc limit 50),
        r as (select r.article_id, r.load_id, max(r.engaged_ms) as ms, max(r.depth) as depth from audience_reads r
          where ${inPeriod(period, sql`r`)} and r.article_id in (select article_id from s) group by r.article_id, r.load_id),
        rs as (select article_id, percentile_cont(0.5) within group (order by ms) / 1000.0 as median,
          count(*) filter (where depth >= 100)::float / count(*) as rate from r group by article_id)
        select s.*, a.title, a.slug, c.name as category_name,
          (select au.name from article_authors aa join authors au on au.id = aa.author_id where aa.article_id = a.id order by aa.position limit 1) as author_name,
          rs.median, rs.rate
        from s join articles a on a.id = s.article_id left join categories c on c.id = a.category_id left join rs on rs.article_id = s.article_id
        order by s.views desc, a.title`,
  );
  const categories = await rows(
    db,
    sql`select c.id, c.name, c.slug, count(*) as views, sum(e.new_story_visitor::int) as visitors from audience_events e
        join articles a on a.id = e.article_id join categories c on c.id = a.category_id where ${storyWhere}
        group by c.id order by views desc limit 50`,
  );
  const authors = await rows(
    db,
    sql`select au.id, au.name, count(*) as views, sum(e.new_story_visitor::int) as visitors from audience_events e
        join article_authors aa on aa.article_id = e.article_id join authors au on au.id = aa.author_id where ${storyWhere}
        group by au.id order by views desc limit 50`,
  );
  const devices = await rows(db, sql`select e.device, count(*) as views, ${visitors} as visitors from audience_events e where ${where} group by e.device order by views desc`);
  return {
    period,
    scope,
    totals: { views: num(totalsRow?.views), visitors: num(totalsRow?.visitors) },
    series: await seriesOf(db, where, visitors, period, timeZone),
    stories: stories.map((r) => ({
      articleId: String(r.article_id),
      title: String(r.title),
      slug: String(r.slug),
      authorName: (r.author_name as string | null) ?? null,
      categoryName: (r.category_name as string | null) ?? null,
      views: num(r.views),
      visitors: num(r.visitors),
      medianEngagedSeconds: r.median == null ? null : Math.round(num(r.median)),
      readToEndRate: numOrNull(r.rate),
    })),
    sources: await sourcesOf(db, where, visitors),
    campaigns: await campaignsOf(db, where, visitors),
    categories: categories.map((r) => ({ categoryId: String(r.id), name: String(r.name), slug: String(r.slug), views: num(r.views), visitors: num(r.visitors) })),
    authors: authors.map((r) => ({ authorId: String(r.id), name: String(r.name), views: num(r.views), visitors: num(r.visitors) })),
    devices: devices.map((r) => ({ device: r.device as AudienceDevice, views: num(r.views), visitors: num(r.visitors) })),
    engagement: await engagementOf(db, sql`${inPeriod(period, sql`r`)} and ${scopeFilter(scope, sql`r.article_id`)}`),
    conversions: await conversionsOf(db, sql`${inPeriod(period, sql`c`)} and ${scope.kind === "site" ? sql`true` : scopeFilter(scope, sql`c.article_id`)}`),
  };
}

/** The last 5 minutes, from the raw events. */
export async function audienceRightNow(db: Db, scope: AudienceScope, now: Date): Promise<AudienceRightNow> {
  const since = new Date(now.getTime() - RIGHT_NOW_MS).toISOString();
  const where = sql`e.at >= ${since}::timestamptz and e.at <= ${now.toISOString()}::timestamptz and ${scopeFilter(scope, sql`e.article_id`)}`;
  const [totals] = await rows(db, sql`select count(*) as views, count(distinct e.visitor) as visitors from audience_events e where ${where}`);
  const stories = await rows(
    db,
    sql`select e.article_id, a.title, a.slug, count(*) as views, count(distinct e.visitor) as visitors from audience_events e join articles a on a.id = e.article_id
        where ${where} group by e.article_id, a.title, a.slug order by visitors desc, views desc limit 10`,
  );
  const sources = await rows(
    db,
    sql`select e.source, e.source_host, count(*) as views, count(distinct e.visitor) as visitors from audience_events e where ${where}
        group by e.source, e.source_host order by visitors desc, views desc limit 10`,
  );
  return {
    at: now.toISOString(),
    visitors: num(totals?.visitors),
    views: num(totals?.views),
    stories: stories.map((r) => ({ articleId: String(r.article_id), title: String(r.title), slug: String(r.slug), visitors: num(r.visitors), views: num(r.views) })),
    sources: sources.map((r) => ({ source: r.source as AudienceSource, host: String(r.source_host), visitors: num(r.visitors), views: num(r.views) })),
  };
}

/** One story's report over a period (null: since its publication, up to today); an unknown story: AppError not_found. */
export async function audienceStoryReport(
  db: Db,
  articleId: string,
  period: AudiencePeriod | null,
  timeZone: string,
  options: AudienceListOptions & { now?: Date } = {},
): Promise<AudienceStoryReport> {
  if (!isUuid(articleId)) throw new AppError("not_found", "That story does not exist.");
  const [article] = await rows(
    db,
    sql`select a.id, a.title, a.slug, a.status, a.published_at, c.name as category_name,
          (select au.id from article_authors aa join authors au on au.id = aa.author_id where aa.article_id = a.id order by aa.position limit 1) as author_id,
          (select au.name from article_authors aa join authors au on au.id = aa.author_id where aa.article_id = a.id order by aa.position limit 1) as author_name
        from articles a left join categories c on c.id = a.category_id where a.id = ${articleId}`,
  );
  if (!article) throw new AppError("not_found", "That story does not exist.");
  const now = options.now ?? new Date();
  const today = isoDayOf(inTimeZone(now, timeZone));
  const since = article.published_at ? isoDayOf(inTimeZone(new Date(article.published_at as string), timeZone)) : today;
  const chosen = period ?? audiencePeriodOf(new URLSearchParams({ period: "range", from: since < today ? since : today, to: today }), timeZone, now);
  const where = sql`${inPeriod(chosen, sql`e`)} and e.article_id = ${articleId}`;
  const visitors = sql`sum(e.new_story_visitor::int)`;
  const [totals] = await rows(db, sql`select count(*) as views, ${visitors} as visitors from audience_events e where ${where}`);
  return {
    article: {
      id: String(article.id),
      title: String(article.title),
      slug: String(article.slug),
      status: String(article.status),
      publishedAt: article.published_at ? new Date(article.published_at as string).toISOString() : null,
      authorId: (article.author_id as string | null) ?? null,
      authorName: (article.author_name as string | null) ?? null,
      categoryName: (article.category_name as string | null) ?? null,
    },
    period: chosen,
    totals: { views: num(totals?.views), visitors: num(totals?.visitors) },
    series: await seriesOf(db, where, visitors, chosen, timeZone),
    sources: await sourcesOf(db, where, visitors),
    campaigns: await campaignsOf(db, where, visitors),
    engagement: await engagementOf(db, sql`${inPeriod(chosen, sql`r`)} and r.article_id = ${articleId}`),
    conversions: await conversionsOf(db, sql`${inPeriod(chosen, sql`c`)} and c.article_id = ${articleId}`),
  };
}
