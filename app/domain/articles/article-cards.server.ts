import type { FocalPoint } from "~/lib/image-variants";
import { and, count, eq, inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared-queries.server";
import { articleAuthors, articles, authors, categories } from "~/db/schema";
import type { BylineAuthor } from "~/domain/authors/byline";
import type { ArticleCard } from "./articles.schema";
import { readEveryTime, type StoryMemo } from "./story-memo.server";

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
  featuredImageFocus: sql<FocalPoint | null>`case when ${articles.featuredImageFocalX} is null then null else json_build_object('x', ${articles.featuredImageFocalX}, 'y', ${articles.featuredImageFocalY}) end`,
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

/**
 * A newest-first listing of public stories: the table its rows are read from (articles, or the
 * authors' listing), that table's publication time and story id, and which rows belong to it (written
 * with placeholders). Its rows are ordered as readers see them (newestFirst): by time, then id.
 */
export interface Listing {
  table: PgTable;
  publishedAt: PgColumn;
  id: PgColumn;
  where: () => SQL | undefined;
}

/** The articles matching `where` (written with placeholders), from their (…, published_at, id) index. */
export const newestMatching = (where: () => SQL | undefined): Listing => ({ table: articles, publishedAt: articles.publishedAt, id: articles.id, where });

/**
 * Every how many rows of a listing a boundary (the row's key: its time and id) is kept (issue 39): a
 * page past the first ones is read from the boundary before it, skipping fewer than this many rows.
 */
export const BOUNDARY_EVERY = 240;

/** A kept boundary of a listing: the key of its row number n × BOUNDARY_EVERY (from 0), its time as PostgreSQL's exact text. */
interface Boundary {
  publishedAt: string;
  id: string;
}

/** A listing's ids newest first, from `from` on (a boundary's key, as placeholders) when given. */
function listingIds(db: Db, listing: Listing, from?: { publishedAt: Placeholder; id: Placeholder }) {
  const { table, publishedAt, id } = listing;
  // Written as two conditions, not a row comparison: PostgreSQL starts the scan of a descending index
  // at a scalar bound; `(published_at, id) <= (…)` it reads from the listing's first row.
  const seek = from && sql`${publishedAt} <= ${from.publishedAt}::timestamptz and (${publishedAt} < ${from.publishedAt}::timestamptz or ${id} <= ${from.id}::uuid)`;
  return db
    .select({ id: sql<string>`${id}`.as("id") })
    .from(table)
    .where(and(listing.where(), seek))
    .orderBy(sql`${publishedAt} desc nulls last`, sql`${id} desc nulls last`);
}

/**
 * A listing's pages (a category's, a tag's, an author's): one page of cards, newest first. The page's
 * ids are found first, in an index alone, and only those rows are read. A deep page does not count
 * its way through every row before it (issue 39: page 500 of a category skipped 12,000 rows): the
 * listing's boundaries, one every BOUNDARY_EVERY rows, are read once (one scan of its index, as its
 * count is) and kept in the process's story memo until a public story changes (`kept`); the page
 * seeks to the boundary before it and skips fewer than BOUNDARY_EVERY rows. The rows are exactly
 * those offset pagination gives: the boundaries are rows' keys, and the order has no ties (the id).
 * The queries are built once per database handle (preparedQuery) and each call passes its
 * placeholders' values.
 */
export function preparedPageOfCards<Values extends Record<string, unknown>>(name: string, listing: Listing) {
  const fromStart = preparedQuery(name, (db, statement) =>
    cardsQuery(db, inArray(articles.id, listingIds(db, listing).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")))).prepare(statement),
  );
  const fromBoundary = preparedQuery(`${name}_from`, (db, statement) =>
    cardsQuery(
      db,
      inArray(
        articles.id,
        listingIds(db, listing, { publishedAt: sql.placeholder("fromPublishedAt"), id: sql.placeholder("fromId") })
          .limit(sql.placeholder("limit"))
          .offset(sql.placeholder("offset")),
      ),
    ).prepare(statement),
  );
  const boundaries = preparedQuery(`${name}_boundaries`, (db, statement) => {
    const numbered = db
      .select({
        publishedAt: sql<string>`${listing.publishedAt}::text`.as("boundary_published_at"),
        id: sql<string>`${listing.id}`.as("boundary_id"),
        n: sql<number>`row_number() over (order by ${listing.publishedAt} desc nulls last, ${listing.id} desc nulls last) - 1`.as("boundary_n"),
      })
      .from(listing.table)
      .where(listing.where())
      .as("numbered");
    return db
      .select({ publishedAt: numbered.publishedAt, id: numbered.id })
      .from(numbered)
      .where(sql`${numbered.n} % ${sql.raw(String(BOUNDARY_EVERY))} = 0`)
      .orderBy(numbered.n)
      .prepare(statement);
  });
  return async (db: Db, values: Values, rows: RowWindow, kept?: { memo: StoryMemo; key: string }): Promise<ArticleCard[]> => {
    // Without a process's memo (tests, scripts) the boundaries would be read at every call: from the start.
    if (!kept || kept.memo === readEveryTime || rows.offset < BOUNDARY_EVERY) return (await fromStart(db, { ...values, ...rows })).map(toCard);
    const marks: Boundary[] = await kept.memo(kept.key, () => boundaries(db, values));
    const mark = marks[Math.floor(rows.offset / BOUNDARY_EVERY)];
    // Past the listing's last row: no page there (its count says so too).
    if (!mark) return [];
    const within = rows.offset % BOUNDARY_EVERY;
    return (await fromBoundary(db, { ...values, limit: rows.limit, offset: within, fromPublishedAt: mark.publishedAt, fromId: mark.id })).map(toCard);
  };
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
