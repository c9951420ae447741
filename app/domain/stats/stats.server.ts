import { and, asc, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { publiclyVisible, publiclyVisibleSql } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { articles, categories, comments, pageViews as pageViewRows } from "~/db/schema";
import {
  ACTIVITY_PERIODS,
  ARTICLE_DIALOG_LIMIT,
  PERIOD_ARTICLE_LIMITS,
  PERIOD_COMMENT_LIMITS,
  RECENT_COMMENTS_LIMIT,
  TOP_ARTICLES_LIMIT,
  type ActivityPeriod,
} from "./periods";
import type {
  PageViewFigures,
  DashboardArticle,
  DashboardComment,
  DashboardStats,
  DashboardTotals,
  PeriodActivity,
  PeriodFigures,
  ScheduledArticle,
} from "./stats.schema";

/** How many of the next scheduled articles the dashboard lists. */
export const NEXT_SCHEDULED_LIMIT = 5;

/** When "now" is and which wall clock the periods follow. Tests pass a fixed `now`. */
export interface StatsClock {
  timeZone: string;
  now?: Date;
}

/** A half-open interval [start, end) of one period in the site's time zone. */
export interface PeriodRange {
  start: Date;
  end: Date;
}

export type PeriodRanges = Record<ActivityPeriod, PeriodRange>;

const toNumber = (value: unknown) => Number(value ?? 0);
const toDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/**
 * Today, this month and this year in `timeZone`, computed by PostgreSQL: each starts at local
 * midnight (today, the 1st of the month, 1 January) and ends where the next one starts, so daylight
 * saving changes and month lengths follow the zone's own rules.
 */
export async function getPeriodRanges(db: Db, clock: StatsClock): Promise<PeriodRanges> {
  const now = clock.now ?? new Date();
  const tz = clock.timeZone;
  const result = await db.execute(sql`
    with local as (select (${now.toISOString()}::timestamptz at time zone ${tz}) as t)
    select
      date_trunc('day', t) at time zone ${tz} as day_start,
      (date_trunc('day', t) + interval '1 day') at time zone ${tz} as day_end,
      date_trunc('month', t) at time zone ${tz} as month_start,
      (date_trunc('month', t) + interval '1 month') at time zone ${tz} as month_end,
      date_trunc('year', t) at time zone ${tz} as year_start,
      (date_trunc('year', t) + interval '1 year') at time zone ${tz} as year_end
    from local
  `);
  const row = result.rows[0]!;
  return {
    today: { start: toDate(row.day_start), end: toDate(row.day_end) },
    month: { start: toDate(row.month_start), end: toDate(row.month_end) },
    year: { start: toDate(row.year_start), end: toDate(row.year_end) },
  };
}

/**
 * Site-wide totals: counts of public articles (drafts and scheduled ones are counted apart), comments
 * and categories, and the sum of article views.
 */
export async function getTotals(db: Db): Promise<DashboardTotals> {
  const result = await db.execute(sql`
    select
      (select count(*) from ${articles} where ${publiclyVisibleSql()}) as articles,
      (select count(*) from ${articles} where ${articles.status} = 'draft') as drafts,
      (select count(*) from ${articles} where ${articles.status} = 'scheduled') as scheduled,
      (select coalesce(sum(${articles.views}), 0) from ${articles}) as article_views,
      (select count(*) from ${comments} where ${comments.status} = 'published') as comments,
      (select count(*) from ${categories}) as categories
  `);
  const row = result.rows[0]!;
  return {
    articleViews: toNumber(row.article_views),
    articles: toNumber(row.articles),
    drafts: toNumber(row.drafts),
    scheduled: toNumber(row.scheduled),
    comments: toNumber(row.comments),
    categories: toNumber(row.categories),
  };
}

/** What each period count counts: page views when they happened, articles when they went public, comments when posted. */
const PERIOD_COLUMNS = {
  page_views: { column: sql.raw(`"viewed_at"`), only: sql`true` },
  articles: { column: sql.raw(`"published_at"`), only: publiclyVisibleSql() },
  comments: { column: sql.raw(`"created_at"`), only: sql`"status" = 'published'` },
};

/**
 * How many rows of `table` fall in today, this month and this year, by its period column (see
 * PERIOD_COLUMNS). One indexed range scan over the year; PostgreSQL does the counting.
 */
async function countByPeriod(db: Db, table: keyof typeof PERIOD_COLUMNS, ranges: PeriodRanges): Promise<PeriodFigures> {
  const { column, only } = PERIOD_COLUMNS[table];
  const { today, month, year } = ranges;
  const result = await db.execute(sql`
    select
      count(*) filter (where ${column} >= ${today.start.toISOString()}::timestamptz and ${column} < ${today.end.toISOString()}::timestamptz) as today,
      count(*) filter (where ${column} >= ${month.start.toISOString()}::timestamptz and ${column} < ${month.end.toISOString()}::timestamptz) as month,
      count(*) as year
    from ${sql.identifier(table)}
    where ${column} >= ${year.start.toISOString()}::timestamptz and ${column} < ${year.end.toISOString()}::timestamptz and ${only}
  `);
  const row = result.rows[0]!;
  return { today: toNumber(row.today), month: toNumber(row.month), year: toNumber(row.year) };
}

/** Every page view ever recorded (the page views' "All time"). */
async function countAllPageViews(db: Db): Promise<number> {
  const result = await db.execute(sql`select count(*) as n from ${pageViewRows}`);
  return toNumber(result.rows[0]?.n);
}

/** Page views by when they happened: today, this month and this year in the site's time zone. */
export async function getPageViewFigures(db: Db, clock: StatsClock, ranges?: PeriodRanges): Promise<PeriodFigures> {
  return countByPeriod(db, "page_views", ranges ?? (await getPeriodRanges(db, clock)));
}

const articleColumns = {
  id: articles.id,
  title: articles.title,
  slug: articles.slug,
  views: articles.views,
  publishedAt: sql<Date>`${articles.publishedAt}`.mapWith(articles.publishedAt),
  categoryName: categories.name,
};

/** The public articles (the dashboard's figures and lists are about what readers can see). */
function listArticles(db: Db, where?: SQL) {
  return db
    .select(articleColumns)
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(where ? and(publiclyVisible(), where) : publiclyVisible());
}

const commentColumns = {
  id: comments.id,
  authorName: comments.authorName,
  content: comments.content,
  createdAt: comments.createdAt,
  articleTitle: articles.title,
  articleSlug: articles.slug,
};

function listComments(db: Db) {
  // Published comments only: those held for moderation are counted in Moderate Comments' Pending tab.
  return db
    .select(commentColumns)
    .from(comments)
    .innerJoin(articles, and(eq(comments.articleId, articles.id), eq(comments.status, "published")));
}

/** The 10 most viewed public articles (their links go to the reader's article page). */
export function getTopArticles(db: Db, limit = TOP_ARTICLES_LIMIT): Promise<DashboardArticle[]> {
  return listArticles(db).orderBy(desc(articles.views), desc(articles.publishedAt)).limit(limit);
}

/** The scheduled articles that go live next, soonest first. */
export async function getNextScheduled(db: Db, limit = NEXT_SCHEDULED_LIMIT): Promise<ScheduledArticle[]> {
  const rows = await db
    .select({ id: articles.id, title: articles.title, publishAt: articles.publishedAt })
    .from(articles)
    .where(eq(articles.status, "scheduled"))
    .orderBy(asc(articles.publishedAt), asc(articles.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, publishAt: r.publishAt! }));
}

/** The newest comments with the article they are on. */
export function getRecentComments(db: Db, limit = RECENT_COMMENTS_LIMIT): Promise<DashboardComment[]> {
  return listComments(db).orderBy(desc(comments.createdAt)).limit(limit);
}

/** Everything the admin dashboard shows, as of `clock.now` in `clock.timeZone`. */
export async function getDashboardStats(db: Db, clock: StatsClock): Promise<DashboardStats> {
  const ranges = await getPeriodRanges(db, clock);
  const inRange = (column: typeof articles.publishedAt | typeof comments.createdAt, range: PeriodRange) =>
    and(gte(column, range.start), lt(column, range.end));

  const [totals, pagePeriods, pageViewsAllTime, articleCounts, commentCounts, topArticles, allArticles, recentComments, nextScheduled, ...lists] =
    await Promise.all([
      getTotals(db),
      countByPeriod(db, "page_views", ranges),
      countAllPageViews(db),
      countByPeriod(db, "articles", ranges),
      countByPeriod(db, "comments", ranges),
      getTopArticles(db),
      listArticles(db).orderBy(desc(articles.publishedAt)).limit(ARTICLE_DIALOG_LIMIT),
      getRecentComments(db),
      getNextScheduled(db),
      ...ACTIVITY_PERIODS.flatMap((period) => [
        listArticles(db, inRange(articles.publishedAt, ranges[period]))
          .orderBy(desc(articles.publishedAt))
          .limit(PERIOD_ARTICLE_LIMITS[period]),
        listComments(db)
          .where(inRange(comments.createdAt, ranges[period]))
          .orderBy(desc(comments.createdAt))
          .limit(PERIOD_COMMENT_LIMITS[period]),
      ]),
    ]);

  const pageViews = { ...pagePeriods, allTime: pageViewsAllTime };
  const activity = Object.fromEntries(
    ACTIVITY_PERIODS.map((period, i) => [
      period,
      {
        articleCount: articleCounts[period],
        commentCount: commentCounts[period],
        viewCount: pageViews[period],
        articles: lists[i * 2] as DashboardArticle[],
        comments: lists[i * 2 + 1] as DashboardComment[],
      },
    ]),
  ) as Record<ActivityPeriod, PeriodActivity>;

  return {
    totals,
    pageViews: pageViews as PageViewFigures,
    topArticles: topArticles as DashboardArticle[],
    allArticles: allArticles as DashboardArticle[],
    recentComments: recentComments as DashboardComment[],
    nextScheduled: nextScheduled as ScheduledArticle[],
    activity,
  };
}
