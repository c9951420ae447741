import { and, desc, eq, ne, notInArray, sql } from "drizzle-orm";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared-queries.server";
import { articles, categories } from "~/db/schema";
import type { ArticleCard } from "./articles.schema";
import { newestFirst, publicCardsOf } from "./article-cards.server";
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

/** The newest public articles of the article's category, without it: their ids. */
const moreFromCategory = preparedQuery("more_from_category", (db, name) =>
  db
    .select({ id: articles.id })
    .from(articles)
    .innerJoin(categories, eq(articles.categoryId, categories.id))
    .where(and(eq(categories.slug, sql.placeholder("categorySlug")), ne(articles.id, sql.placeholder("articleId")), publiclyVisible()))
    .orderBy(...newestFirst)
    .limit(sql.placeholder("limit"))
    .prepare(name),
);

async function pickMoreFromCategory(db: Db, articleId: string, categorySlug: string, limit: number): Promise<string[]> {
  const rows = await moreFromCategory(db, { categorySlug, articleId, limit });
  return rows.map((r) => r.id);
}

/**
 * An article page's "More from {Category}" (the category's newest public stories) and "Related
 * stories" (those sharing its words, leaving out the "More from" ones). Which stories each shows
 * follows from the set of public stories, so both picks are kept in `memo` until a public story
 * changes (the related pick reads RELATED_WINDOW rows: 16 ms at 100,000 articles); the cards, with
 * their current view counts, are read in one query at each render.
 */
export async function listRecirculation(
  db: Db,
  article: { id: string; category: { slug: string } | null },
  memo: StoryMemo = readEveryTime,
  limit = RECIRCULATION_COUNT,
): Promise<{ moreFromCategory: ArticleCard[]; related: ArticleCard[] }> {
  const { id, category } = article;
  const moreIds = category ? await memo(`more-from:${category.slug}:${id}:${limit}`, () => pickMoreFromCategory(db, id, category.slug, limit)) : [];
  const relatedIds = await memo(`related:${id}:${limit}:${moreIds.join(",")}`, () => pickRelatedStories(db, id, moreIds, limit));
  if (moreIds.length + relatedIds.length === 0) return { moreFromCategory: [], related: [] };
  // Both newest first, as the query answers: each keeps its order.
  const cards = await publicCardsOf(db, [...moreIds, ...relatedIds]);
  const more = new Set(moreIds);
  return { moreFromCategory: cards.filter((c) => more.has(c.id)), related: cards.filter((c) => !more.has(c.id)) };
}

/** The ids "Related stories" shows, the best `limit` matches, none of `exclude`. */
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
