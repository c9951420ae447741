import { and, count, desc, eq, gt, inArray, or, sql, type SQL } from "drizzle-orm";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { PLAN_EACH_TIME } from "~/db/prepared-statements.server";
import { articles, articleTags, categories, tags } from "~/db/schema";
import type { ArticleCard } from "./articles.schema";
import { cardColumns, newestFirst, toCard } from "./article-cards.server";
import { FRAGMENT_DELIMITER, MARK_END, MARK_START, SEARCH_CANDIDATES, SEARCH_PAGE_SIZE, snippetOf } from "./search.schema";

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

/**
 * The tags whose names match `q` (issue 29: search matches tag names), read from the tags table
 * alone: a newsroom has thousands of tags, not millions.
 */
async function matchingTagIds(db: Db, q: string): Promise<string[]> {
  const rows = await db
    .select({ id: tags.id })
    .from(tags)
    .where(sql`to_tsvector('english', ${tags.name}) @@ ${searchQuery(q)}`)
    .limit(100);
  return rows.map((r) => r.id);
}

/**
 * Articles carrying one of these tags. `= any(array(…))` is computed once, before the scan, so the
 * primary key's index answers it beside the full-text index (an OR of the two stays two bitmaps).
 */
function taggedWithAny(db: Db, tagIds: readonly string[]): SQL {
  const ids = db.select({ id: articleTags.articleId }).from(articleTags).where(inArray(articleTags.tagId, [...tagIds]));
  return sql`${articles.id} = any(array(${ids}))`;
}

const HEADLINE_OPTIONS = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=32, MinWords=12`;
/** The body's passages (up to two around the matches) apart, for snippetOf to place back in the text they come from. */
const SNIPPET_OPTIONS = `${HEADLINE_OPTIONS}, MaxFragments=2, FragmentDelimiter=${FRAGMENT_DELIMITER}`;

export interface SearchResult extends ArticleCard {
  /** The title with every match between MARK_START and MARK_END. */
  titleHighlight: string;
  /** A passage or two of the body around the matches, marked the same way. */
  snippet: string;
}

/** The share of the archive above which a query counts as common (see howToFindMatches). */
const COMMON_QUERY_SHARE = 0.1;
/** The recent window is sized for this many times the matches it must hold (the estimate is rough). */
const WINDOW_MARGIN = 2;
/** A window over more than this share of the archive saves too little to be worth a second try. */
const WINDOW_MAX_SHARE = 0.5;

export interface MatchPlan {
  /** The word is in a large share of the archive: walk the date index newest first until enough match. */
  common: boolean;
  /** Look for the newest matches among the articles published since this time first (null: the whole archive). */
  since: Date | null;
}

/**
 * How to find the newest `wanted` matches of a query PostgreSQL expects in `expected` of `total`
 * articles, published between `oldest` and `now`. A common word: walk the date index. A rarer one
 * whose newest `wanted` matches lie, at an even rate of publication, within a recent part of the
 * archive: take the full-text index's matches in that recent window alone (the two indexes'
 * bitmaps ANDed, so far fewer rows are read), sized WINDOW_MARGIN times over. searchArticles falls
 * back to the whole archive when the window holds fewer than `wanted`, so the answer never depends
 * on this guess. A category search counts its matches in the category alone: no window.
 */
export function planMatches(
  { expected, total, oldest, now, wanted, inCategory }: { expected: number; total: number; oldest: Date | null; now: Date; wanted: number; inCategory: boolean },
): MatchPlan {
  if (total > 0 && expected >= total * COMMON_QUERY_SHARE) return { common: true, since: null };
  const share = expected > 0 ? (WINDOW_MARGIN * wanted) / expected : 1;
  if (inCategory || !oldest || share > WINDOW_MAX_SHARE) return { common: false, since: null };
  return { common: false, since: new Date(now.getTime() - (now.getTime() - oldest.getTime()) * share) };
}

/**
 * What planMatches needs, in one round trip's time: PostgreSQL's own estimate of the matches (its
 * statistics of the search vectors' words, read through EXPLAIN: no rows are touched), the size
 * of the archive and its oldest public story. The planner alone picks badly between the ways to
 * find the newest matches: it does not count the cost of reading each row's vector while walking
 * the date index, and it cannot know that the newest matches lie in a recent window.
 */
async function howToFindMatches(db: Db, q: string, wanted: number, inCategory: boolean): Promise<MatchPlan> {
  const [plan, table] = await Promise.all([
    db.execute<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
      sql`explain (format json) select 1 from ${articles} where ${matchesSearch(q)}`,
    ),
    db.execute<{ rows: number; oldest: string | null; now: string }>(
      sql`select reltuples::float8 as rows, now() as now,
            (select min(${articles.publishedAt}) from ${articles} where ${publiclyVisible()}) as oldest
          from pg_class where oid = 'articles'::regclass`,
    ),
  ]);
  const row = table.rows[0];
  return planMatches({
    expected: plan.rows[0]?.["QUERY PLAN"][0].Plan["Plan Rows"] ?? 0,
    total: row?.rows ?? 0,
    oldest: row?.oldest ? new Date(row.oldest) : null,
    now: row ? new Date(row.now) : new Date(),
    wanted,
    inCategory,
  });
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
    plan: given,
  }: {
    categoryId?: string;
    page?: number;
    pageSize?: number;
    candidateLimit?: number;
    /** Tests: how to find the matches, instead of asking the statistics (howToFindMatches). */
    plan?: MatchPlan;
  } = {},
): Promise<SearchPage> {
  if (!q) return { results: [], total: 0 };
  // A story matches by its own words or by the name of one of its tags.
  const tagIds = await matchingTagIds(db, q);
  const matches = tagIds.length ? or(matchesSearch(q), taggedWithAny(db, tagIds)) : matchesSearch(q);
  const where = and(matches, publiclyVisible(), categoryId ? eq(articles.categoryId, categoryId) : undefined);
  const plan = given ?? (await howToFindMatches(db, q, candidateLimit + 1, Boolean(categoryId)));
  const range = { page, pageSize, candidateLimit, common: plan.common, tagIds };
  // The recent window first when there is one; the whole archive when the window holds too few
  // matches to be sure its newest are the archive's newest.
  let found = plan.since ? await pageOfMatches(db, q, and(where, gt(articles.publishedAt, plan.since))!, range) : null;
  if (!found || found.total <= candidateLimit) found = await pageOfMatches(db, q, where!, range);
  const { ids, total } = found;
  if (ids.length === 0) return { results: [], total };
  // A gated story (issue 40) is quoted from its free part only: free_content, never content.
  const snippetSource = sql<string>`coalesce(nullif(coalesce(${articles.freeContent}, ${articles.content}), ''), ${articles.excerpt}, '')`;
  const rows = await db
    .select({
      ...cardColumns,
      titleHighlight: sql<string>`ts_headline('english', ${articles.title}, ${searchQuery(q)}, ${`${HEADLINE_OPTIONS}, HighlightAll=true`})`,
      snippet: sql<string>`ts_headline('english', ${snippetSource}, ${searchQuery(q)}, ${SNIPPET_OPTIONS})`,
      snippetSource,
    })
    .from(articles)
    .leftJoin(categories, eq(articles.categoryId, categories.id))
    .where(inArray(articles.id, ids));
  const order = new Map(ids.map((id, i) => [id, i]));
  rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  const cards = rows.map(({ titleHighlight, snippet, snippetSource, ...row }) => ({ ...toCard(row), titleHighlight, snippet: snippetOf(snippetSource, snippet) }));
  return { results: cards, total };
}

/**
 * One page of ids among the candidateLimit newest matches of `where`, ranked (ts_rank_cd: title
 * above excerpt above body; newer first among equals), and the number of matches up to
 * candidateLimit + 1. A common query reads the newest articles in index order until enough match;
 * any other takes the matches from the full-text index, then the newest of them (decision 0018).
 */
async function pageOfMatches(
  db: Db,
  q: string,
  where: SQL,
  { page, pageSize, candidateLimit, common, tagIds }: { page: number; pageSize: number; candidateLimit: number; common: boolean; tagIds: readonly string[] },
): Promise<{ ids: string[]; total: number }> {
  const candidateOrder = common ? newestFirst : [sql`${articles.publishedAt} + interval '0 seconds' desc`, desc(articles.id)];
  const candidates = db.$with("candidates").as(
    db
      .select({ id: articles.id, publishedAt: articles.publishedAt })
      .from(articles)
      .where(where)
      .orderBy(...candidateOrder)
      .limit(candidateLimit + 1),
  );
  // The page's rows and the capped count in one statement; the rank is read for the candidates alone
  // (one vector each, through the primary key).
  // A matching tag counts as a match in the title would (ts_rank_cd gives one about 0.1).
  const tagged = tagIds.length
    ? sql` + case when exists (select 1 from ${articleTags} tagged where tagged.article_id = ${candidates.id}
        and tagged.tag_id in (${sql.join(tagIds.map((id) => sql`${id}::uuid`), sql`, `)})) then 0.1 else 0 end`
    : sql``;
  const rank = sql`((select ts_rank_cd(ranked.search_vector, ${searchQuery(q)}) from ${articles} ranked where ranked.id = ${candidates.id})${tagged})`;
  const rows = await db
    .with(candidates)
    .select({ id: candidates.id, total: sql<number>`(select count(*) from ${candidates})`.mapWith(Number) })
    .from(candidates)
    .orderBy(desc(rank), desc(candidates.publishedAt), desc(candidates.id))
    .limit(Math.max(0, Math.min(pageSize, candidateLimit - (page - 1) * pageSize)))
    .offset((page - 1) * pageSize);
  if (rows.length > 0) return { ids: rows.map((r) => r.id), total: rows[0].total };
  if (page === 1) return { ids: [], total: 0 };
  const [{ total }] = await db.with(candidates).select({ total: count() }).from(candidates);
  return { ids: [], total };
}
