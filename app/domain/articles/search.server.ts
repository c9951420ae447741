import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { articles, categories } from "~/db/schema";
import { withBylines } from "~/domain/authors/authors.server";
import type { ArticleCard } from "./articles.schema";
import { cardColumns, toCard } from "./article-cards.server";
import { MARK_END, MARK_START, SEARCH_PAGE_SIZE } from "./search.schema";

// Site search (decision 0018): PostgreSQL full-text search over articles.search_vector, a stored
// generated tsvector (title weighted A, excerpt B, body C, English stemming) with a GIN index.

/** The reader's words as a tsquery: websearch syntax ("quoted phrases", -excluded, or). */
export function searchQuery(q: string): SQL {
  return sql`websearch_to_tsquery('english', ${q})`;
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

export interface SearchPage {
  results: SearchResult[];
  total: number;
}

/**
 * One page of public articles matching `q`, best match first (ts_rank_cd, title above excerpt above
 * body; newer first among equals), with highlighted title and snippet, and the number of matches.
 * Drafts, scheduled and future articles never match (publiclyVisible). An empty query finds nothing.
 */
export async function searchArticles(
  db: Db,
  q: string,
  { categoryId, page = 1, pageSize = SEARCH_PAGE_SIZE }: { categoryId?: string; page?: number; pageSize?: number } = {},
): Promise<SearchPage> {
  if (!q) return { results: [], total: 0 };
  const where = and(matchesSearch(q), publiclyVisible(), categoryId ? eq(articles.categoryId, categoryId) : undefined);
  const rank = sql<number>`ts_rank_cd(${articles.searchVector}, ${searchQuery(q)})`;
  // The page's rows first (rank needs only the stored vector), then the snippets for those rows alone:
  // ts_headline re-parses the body, so it must not run over every match.
  const page$ = db
    .select({ id: articles.id })
    .from(articles)
    .where(where)
    .orderBy(desc(rank), desc(articles.publishedAt), desc(articles.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [ids, [{ total }]] = await Promise.all([page$, db.select({ total: count() }).from(articles).where(where)]);
  if (ids.length === 0) return { results: [], total };
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
  const cards = await withBylines(
    db,
    rows.map(({ titleHighlight, snippet, ...row }) => ({ ...toCard(row), titleHighlight, snippet })),
  );
  return { results: cards, total };
}
