import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { PLAN_EACH_TIME } from "~/db/prepared-statements.server";
import { articles, categories } from "~/db/schema";
import type { ArticleCard } from "./articles.schema";
import { cardColumns, newestFirst, toCard } from "./article-cards.server";
import { MARK_END, MARK_START, SEARCH_CANDIDATES, SEARCH_PAGE_SIZE } from "./search.schema";

// Site search (decision 0018): PostgreSQL full-text search over articles.search_vector, a stored
// generated tsvector (title weighted A, excerpt B, body C, English stemming) with a GIN index.

/**
 * The reader's words as a tsquery: websearch syntax ("quoted phrases", -excluded, or). A statement
 * with them is planned for them at every run (PLAN_EACH_TIME: how many articles match decides the plan).
 */
export function searchQuery(q: string): SQL {
  return sql`${sql.raw(PLAN_EACH_TIME)} websearch_to_tsquery('english', ${q})`;
}

/** Articles whose search document matches `q`. */
export function matchesSearch(q: string): SQL {
  return sql`${articles.searchVector} @@ ${searchQuery(q)}`;
}

const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=32, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`;

export interface SearchResult extends ArticleCard {
  /** The title with every match between MARK_START and MARK_END. */
  titleHighlight: string;
  /** A passage or two of the body around the matches, marked the same way. */
  snippet: string;
}

/** The share of the archive above which a query counts as common (see isCommonQuery). */
const COMMON_QUERY_SHARE = 0.1;

/**
 * Whether PostgreSQL expects `q` to match at least COMMON_QUERY_SHARE of the articles (its own
 * statistics of the search vectors' words, read through EXPLAIN: no rows are touched). The planner
 * alone picks badly between the two ways to find the newest matches, since it does not count the
 * cost of reading each row's vector while walking the date index.
 */
async function isCommonQuery(db: Db, q: string): Promise<boolean> {
  const [plan, table] = await Promise.all([
    db.execute<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
      sql`explain (format json) select 1 from ${articles} where ${matchesSearch(q)}`,
    ),
    db.execute<{ rows: number }>(sql`select reltuples::float8 as rows from pg_class where oid = 'articles'::regclass`),
  ]);
  const expected = plan.rows[0]?.["QUERY PLAN"][0].Plan["Plan Rows"] ?? 0;
  const all = table.rows[0]?.rows ?? 0;
  return all > 0 && expected >= all * COMMON_QUERY_SHARE;
}

export interface SearchPage {
  results: SearchResult[];
  /** How many articles match, up to SEARCH_CANDIDATES + 1 (more: "more than SEARCH_CANDIDATES"). */
  total: number;
}

/**
 * One page of public articles matching `q`: among the SEARCH_CANDIDATES newest matches, best match
 * first (ts_rank_cd: title above excerpt above body; newer first among equals), with highlighted
 * title and snippet, and the number of matches (capped). Drafts, scheduled and future articles never
 * match (publiclyVisible). An empty query finds nothing.
 */
export async function searchArticles(
  db: Db,
  q: string,
  {
    categoryId,
    page = 1,
    pageSize = SEARCH_PAGE_SIZE,
    candidateLimit = SEARCH_CANDIDATES,
  }: { categoryId?: string; page?: number; pageSize?: number; candidateLimit?: number } = {},
): Promise<SearchPage> {
  if (!q) return { results: [], total: 0 };
  const where = and(matchesSearch(q), publiclyVisible(), categoryId ? eq(articles.categoryId, categoryId) : undefined);
  // A query in a large share of the archive: read the newest articles in index order until enough
  // match. Any other: take the matches from the full-text index, then the newest of them (decision 0018).
  const candidateOrder = (await isCommonQuery(db, q)) ? newestFirst : [sql`${articles.publishedAt} + interval '0 seconds' desc`, desc(articles.id)];
  const candidates = db.$with("candidates").as(
    db
      .select({ id: articles.id, publishedAt: articles.publishedAt })
      .from(articles)
      .where(where)
      .orderBy(...candidateOrder)
      .limit(candidateLimit + 1),
  );
  // The page's rows and the capped count in one statement; the rank is read for the candidates alone
  // (one vector each, through the primary key), the snippets after, for the page's rows alone.
  const rank = sql`(select ts_rank_cd(ranked.search_vector, ${searchQuery(q)}) from ${articles} ranked where ranked.id = ${candidates.id})`;
  const ids = await db
    .with(candidates)
    .select({ id: candidates.id, total: sql<number>`(select count(*) from ${candidates})`.mapWith(Number) })
    .from(candidates)
    .orderBy(desc(rank), desc(candidates.publishedAt), desc(candidates.id))
    .limit(Math.max(0, Math.min(pageSize, candidateLimit - (page - 1) * pageSize)))
    .offset((page - 1) * pageSize);
  if (ids.length === 0) {
    if (page === 1) return { results: [], total: 0 };
    const [{ total }] = await db.with(candidates).select({ total: count() }).from(candidates);
    return { results: [], total };
  }
  const rows = await db
    .select({
      ...cardColumns,
      titleHighlight: sql<string>`ts_headline('english', ${articles.title}, ${searchQuery(q)}, ${`${HEADLINE_OPTIONS}, HighlightAll=true`})`,
      snippet: sql<string>`ts_headline('english', coalesce(nullif(${articles.content}, ''), ${articles.excerpt}, ''), ${searchQuery(q)}, ${HEADLINE_OPTIONS})`,
    })
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(inArray(articles.id, ids.map((r) => r.id)));
  const order = new Map(ids.map((r, i) => [r.id, i]));
  rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  const cards = rows.map(({ titleHighlight, snippet, ...row }) => ({ ...toCard(row), titleHighlight, snippet }));
  return { results: cards, total: ids[0].total };
}
