import { and, count, eq, inArray, sql, type Placeholder, type SQL, type SQLWrapper } from "drizzle-orm";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared-queries.server";
import { articleAuthors, articles, authors, categories } from "~/db/schema";
import type { BylineAuthor } from "~/domain/authors/byline";
import type { ArticleCard } from "./articles.schema";

// What every list of public articles selects for its cards (home, category, author pages, feeds),
// and how a row becomes a card.

/**
 * Readers' order: newest publication first. NULLS LAST as in the (status, published_at) indexes
 * (migration 0003; the id too since 0015), so PostgreSQL reads them in order instead of sorting
 * every match (a public article always has published_at).
 */
export const newestFirst = [sql`${articles.publishedAt} desc nulls last`, sql`${articles.id} desc nulls last`] as const;

/**
 * A story's authors in byline order (decision 0015), read with its row: one query for a page of cards
 * instead of a second one for their bylines (issue 13). Empty: the card shows its Author Name. The
 * outer row is named in full: drizzle leaves a lone table's columns unqualified, which inside this
 * subquery would name another table's.
 */
const bylineColumn = sql<BylineAuthor[]>`coalesce((
  select json_agg(json_build_object('name', ${authors.name}, 'slug', ${authors.slug}) order by ${articleAuthors.position})
  from ${articleAuthors} join ${authors} on ${authors.id} = ${articleAuthors.authorId}
  where ${articleAuthors.articleId} = "articles"."id"), '[]'::json)`;

/** The columns of a card, its authors included; select them from articles left-joined to categories. */
export const cardColumns = {
  id: articles.id,
  title: articles.title,
  slug: articles.slug,
  excerpt: articles.excerpt,
  featuredImage: articles.featuredImage,
  featuredImageAlt: articles.featuredImageAlt,
  videoUrl: articles.videoUrl,
  authorName: articles.authorName,
  views: articles.views,
  createdAt: articles.createdAt,
  // Set for every public article (the database's check); coalesce only keeps the type non-null.
  publishedAt: sql<Date>`coalesce(${articles.publishedAt}, ${articles.createdAt})`.mapWith(articles.createdAt),
  categoryName: categories.name,
  categorySlug: categories.slug,
  authors: bylineColumn,
  // Live coverage under way (issue 31): the card's "LIVE" badge.
  live: sql<boolean>`(${articles.liveStartedAt} is not null and ${articles.liveEndedAt} is null)`.mapWith(Boolean),
};

/** A query of one page of article ids, newest first, its limit and offset given as placeholders. */
export type PageIds = (db: Db, limit: Placeholder, offset: Placeholder) => SQLWrapper;

/** The page of the articles matching `where` (written with placeholders), from the (…, published_at, id) index. */
export const newestMatching =
  (where: () => SQL | undefined): PageIds =>
  (db, limit, offset) =>
    db.select({ id: articles.id }).from(articles).where(where()).orderBy(...newestFirst).limit(limit).offset(offset);

/**
 * A listing's pages (a category's, an author's): one page of cards, newest first. The page's ids are
 * found first, in an index alone (`pageIds`), and only those 24 rows are read: a deep page no longer
 * reads every row it skips (issue 13: category page 500 at 100,000 articles, 73 ms to 3 ms). The
 * query is built once per database handle (preparedQuery) and each call passes its placeholders' values.
 */
export function preparedPageOfCards<Values extends Record<string, unknown>>(name: string, pageIds: PageIds) {
  const page = preparedQuery(name, (db, statement) =>
    cardsQuery(db, inArray(articles.id, pageIds(db, sql.placeholder("limit"), sql.placeholder("offset")))).prepare(statement),
  );
  return async (db: Db, values: Values, rows: RowWindow): Promise<ArticleCard[]> => (await page(db, { ...values, ...rows })).map(toCard);
}

/** Which rows of a newest-first list a page reads. */
export interface RowWindow {
  offset: number;
  limit: number;
}

/** Page `pageNumber` (from 1) of `pageSize` rows. */
export const pageWindow = (pageNumber: number, pageSize: number): RowWindow => ({ offset: (pageNumber - 1) * pageSize, limit: pageSize });

/** The cards of the articles matching `where` (a page's ids, a pick's), newest first. */
const cardsQuery = (db: Db, where: SQL | undefined) =>
  db.select(cardColumns).from(articles).leftJoin(categories, eq(articles.categoryId, categories.id)).where(where).orderBy(...newestFirst);

const publicCardsByIds = preparedQuery("public_cards_by_ids", (db, name) =>
  cardsQuery(db, and(sql`${articles.id} = any(${sql.placeholder("ids")})`, publiclyVisible())).prepare(name),
);

/** The cards of those of `ids` that are public, newest first (a related pick, read again at each render). */
export async function publicCardsOf(db: Db, ids: readonly string[]): Promise<ArticleCard[]> {
  const rows = await publicCardsByIds(db, { ids });
  return rows.map(toCard);
}

/** How many articles match `where` (a listing's total, for its pagination). */
export async function countOf(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ total: count() }).from(articles).where(where);
  return row?.total ?? 0;
}

type CardRow = Omit<ArticleCard, "category"> & { categoryName: string | null; categorySlug: string | null };

export function toCard({ categoryName, categorySlug, ...row }: CardRow): ArticleCard {
  return { ...row, category: categoryName && categorySlug ? { name: categoryName, slug: categorySlug } : null };
}
