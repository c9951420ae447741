import { and, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articleAuthors, articlePendingVersions, articles, authors, categories, type ArticleStatus } from "~/db/schema";
import { writtenBy } from "~/domain/authors/authors.server";
import { ownedBy } from "./article-access.server";
import { matchesSearch, searchQuery } from "./search.server";

// The back office's article list (issue 27): one page of stories with what the list shows of each —
// full title, authors, status with review state, when it was last saved — narrowed by the list's filters.

export interface AdminArticleRow {
  id: string;
  title: string;
  slug: string;
  /** The byline: the story's authors in order, or its free-text author name when it has none. */
  authorNames: string[];
  views: number;
  createdAt: Date;
  /** When it was last saved. */
  updatedAt: Date;
  hasVideo: boolean;
  categoryId: string | null;
  categoryName: string | null;
  status: ArticleStatus;
  publishedAt: Date | null;
  /** Whether the viewer created it or is one of its authors (decision 0017). */
  own: boolean;
  /** A draft waiting in the review queue. */
  inReview: boolean;
  /** A draft an editor sent back (its note is still on it). */
  sentBack: boolean;
  /** A published story with changes saved for later. */
  hasPendingChanges: boolean;
  /** Live coverage (issue 31): started and not ended. */
  live: boolean;
  /** One of its authors is the viewer's own author record (who may post its live updates). */
  onByline: boolean;
}

/** What the admin article list is narrowed to (each optional; a plain GET form sets them). */
export interface AdminArticleFilter {
  status?: ArticleStatus;
  /** Only drafts waiting in the review queue ("In review"). */
  inReview?: boolean;
  categoryId?: string;
  /** Articles with this author in their byline. */
  authorId?: string;
  /** Words searched as site search does (every status); results then come best match first. */
  q?: string;
  /** "Mine": only the stories of this account (created by it or bylined to its author record). */
  mineOf?: string;
}

/**
 * One page of the articles `filter` narrows to (all of them without one) with their category name,
 * newest first (best match first for a search), and the total count. `viewerId` marks the viewer's own.
 */
export async function listAdminArticles(
  db: Db,
  page: number,
  pageSize: number,
  { status, inReview, categoryId, authorId, q, mineOf }: AdminArticleFilter = {},
  viewerId?: string,
): Promise<{ rows: AdminArticleRow[]; total: number }> {
  const where = and(
    status ? eq(articles.status, status) : undefined,
    inReview ? isNotNull(articles.reviewRequestedAt) : undefined,
    categoryId ? eq(articles.categoryId, categoryId) : undefined,
    authorId ? writtenBy(db, authorId) : undefined,
    q ? matchesSearch(q) : undefined,
    mineOf ? ownedBy(mineOf) : undefined,
  );
  const order = q
    ? [desc(sql`ts_rank_cd(${articles.searchVector}, ${searchQuery(q)})`), desc(articles.createdAt), desc(articles.id)]
    : [desc(articles.createdAt), desc(articles.id)];
  const bylineNames = sql<string[] | null>`(select array_agg(${authors.name} order by ${articleAuthors.position})
    from ${articleAuthors} join ${authors} on ${authors.id} = ${articleAuthors.authorId}
    where ${articleAuthors.articleId} = ${articles.id})`;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: articles.id,
        title: articles.title,
        slug: articles.slug,
        authorName: articles.authorName,
        bylineNames,
        views: articles.views,
        createdAt: articles.createdAt,
        updatedAt: articles.updatedAt,
        videoUrl: articles.videoUrl,
        categoryId: articles.categoryId,
        categoryName: categories.name,
        status: articles.status,
        publishedAt: articles.publishedAt,
        own: viewerId ? sql<boolean>`${ownedBy(viewerId)}` : sql<boolean>`false`,
        inReview: sql<boolean>`${articles.reviewRequestedAt} is not null`,
        sentBack: sql<boolean>`(${articles.reviewNote} is not null and ${articles.reviewRequestedAt} is null)`,
        hasPendingChanges: sql<boolean>`exists (select 1 from ${articlePendingVersions} where ${articlePendingVersions.articleId} = ${articles.id})`,
        live: sql<boolean>`(${articles.liveStartedAt} is not null and ${articles.liveEndedAt} is null)`,
        onByline: viewerId
          ? sql<boolean>`exists (select 1 from "article_authors" aa join "authors" au on au."id" = aa."author_id" where aa."article_id" = "articles"."id" and au."user_id" = ${viewerId})`
          : sql<boolean>`false`,
      })
      .from(articles)
      .leftJoin(categories, eq(articles.categoryId, categories.id))
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(articles).where(where),
  ]);
  return {
    rows: rows.map(({ videoUrl, authorName, bylineNames: names, ...row }) => ({
      ...row,
      authorNames: names && names.length > 0 ? names : [authorName],
      own: Boolean(row.own),
      inReview: Boolean(row.inReview),
      sentBack: Boolean(row.sentBack),
      hasPendingChanges: Boolean(row.hasPendingChanges),
      live: Boolean(row.live),
      onByline: Boolean(row.onByline),
      hasVideo: Boolean(videoUrl),
    })),
    total,
  };
}
