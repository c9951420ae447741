import { and, desc, eq, ne, notInArray, sql } from "drizzle-orm";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared-queries.server";
import { articles, categories } from "~/db/schema";
import type { ArticleCard } from "./articles.schema";
import { cardColumns, newestFirst, publicCardsOf, toCard } from "./article-cards.server";
import { readEveryTime, type StoryMemo } from "./story-memo.server";

// What an article page offers next (recirculation): "More from {Category}" and "Related stories".
// Both list public articles only (publiclyVisible), never the article itself, and are part of the
// article page's loader data, so they are cached with the page: a change to a story shown drops it,
// a story published in the category marks it stale (the loader notes both: decision 0028), and a
// new story joins other pages' "Related stories" within the cache's five-minute time-to-live.

/** Cards in each of the two sections. */
export const RECIRCULATION_COUNT = 3;

/**
 * How many of the newest matching articles "Related stories" ranks: similarity is judged among recent
 * stories (a news page links to news), and the ranking stays cheap however large the archive.
 */
const RELATED_CANDIDATES = 200;
/**
 * How many of the newest public articles are searched for those candidates (issue 13): read from the
 * date index and checked one by one, a fixed cost at any archive size. Matching the whole archive
 * first (the word index) read 100,000 rows for an article with common words: 4 s at 100,000 articles.
 */
const RELATED_WINDOW = 2000;

/** The newest public articles of the article's category, without it. */
const moreFromCategory = preparedQuery("more_from_category", (db, name) =>
  db
    .select(cardColumns)
    .from(articles)
    .innerJoin(categories, eq(articles.categoryId, categories.id))
    .where(and(eq(categories.slug, sql.placeholder("categorySlug")), ne(articles.id, sql.placeholder("articleId")), publiclyVisible()))
    .orderBy(...newestFirst)
    .limit(sql.placeholder("limit"))
    .prepare(name),
);

export async function listMoreFromCategory(db: Db, articleId: string, categorySlug: string, limit = RECIRCULATION_COUNT): Promise<ArticleCard[]> {
  const rows = await moreFromCategory(db, { categorySlug, articleId, limit });
  return rows.map(toCard);
}

/**
 * Public articles that share words with this one's title and excerpt (the weight A and B lexemes of
 * its stored search vector), among the RELATED_CANDIDATES newest that do: the best matches (a shared
 * category counts as much as a strong match), shown most recent first. `exclude`: articles already
 * shown elsewhere on the page (the "More from" cards). The pick reads RELATED_WINDOW rows (16 ms at
 * 100,000 articles), so it is kept in `memo` until a public story changes; the cards are read each time.
 */
export async function listRelatedStories(
  db: Db,
  articleId: string,
  exclude: readonly string[] = [],
  limit = RECIRCULATION_COUNT,
  memo: StoryMemo = readEveryTime,
): Promise<ArticleCard[]> {
  const picked = await memo(`related:${articleId}:${limit}:${exclude.join(",")}`, () => pickRelatedStories(db, articleId, exclude, limit));
  if (picked.length === 0) return [];
  return publicCardsOf(db, picked);
}

/** The ids listRelatedStories shows. */
async function pickRelatedStories(db: Db, articleId: string, exclude: readonly string[], limit: number): Promise<string[]> {
  // The article's own title and excerpt words, already stemmed, OR-ed into one query ('simple': no second stemming).
  const similar = sql`(select to_tsquery('simple', coalesce(string_agg(quote_literal(word), ' | '), ''))
    from articles source, unnest(tsvector_to_array(ts_filter(source.search_vector, '{a,b}'))) as word
    where source.id = ${articleId})`;
  const recent = db
    .select({ id: articles.id, publishedAt: articles.publishedAt, categoryId: articles.categoryId, searchVector: articles.searchVector })
    .from(articles)
    .where(publiclyVisible())
    .orderBy(...newestFirst)
    .limit(RELATED_WINDOW)
    .as("recent");
  const candidates = db
    .select({ id: recent.id, publishedAt: recent.publishedAt, categoryId: recent.categoryId, searchVector: recent.searchVector })
    .from(recent)
    .where(and(sql`${recent.searchVector} @@ ${similar}`, ne(recent.id, articleId), exclude.length ? notInArray(recent.id, [...exclude]) : undefined))
    .orderBy(sql`${recent.publishedAt} desc nulls last`, desc(recent.id))
    .limit(RELATED_CANDIDATES)
    .as("candidates");
  // Ranked only once the candidates are chosen: ts_rank_cd for 200 rows, not for every match.
  const best = await db
    .select({ id: candidates.id, publishedAt: candidates.publishedAt })
    .from(candidates)
    .orderBy(
      desc(sql`ts_rank_cd(${candidates.searchVector}, ${similar})
        + case when ${candidates.categoryId} = (select source.category_id from articles source where source.id = ${articleId}) then 0.1 else 0 end`),
      desc(candidates.publishedAt),
    )
    .limit(limit);
  return best.map((b) => b.id);
}
