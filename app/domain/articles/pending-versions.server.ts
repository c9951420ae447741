import { eq, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articlePendingVersions, authors, categories, DEFAULT_AUTHOR_NAME } from "~/db/schema";
import type { BylineAuthor } from "~/domain/authors/byline";
import { isUuid } from "~/lib/ids";
import type { ArticleFormFields, PendingVersionInfo } from "./articles.schema";
import type { ArticleDetail } from "./articles.server";
import type { StoryDocument } from "./story-document.schema";

/**
 * A published story's pending version (decision 0033): the article form's fields as "Save for later"
 * (or its autosave) left them, checked as a save checks them. Readers' queries never read this table:
 * only the edit form and the two previews (the back office's and the shared link's) do.
 */
export type PendingFields = Omit<ArticleFormFields, "contentDoc" | "authorIds"> & {
  contentDoc: StoryDocument | null;
  /** The chosen authors in byline order. */
  authorIds: string[];
};

export interface PendingVersion extends PendingVersionInfo {
  fields: PendingFields;
}

/** The story's pending version, or null (none, or an id that names nothing). */
export async function getPendingVersion(db: Pick<Db, "select">, articleId: string): Promise<PendingVersion | null> {
  if (!isUuid(articleId)) return null;
  const [row] = await db
    .select({ fields: articlePendingVersions.fields, savedAt: articlePendingVersions.savedAt, savedByName: articlePendingVersions.savedByName })
    .from(articlePendingVersions)
    .where(eq(articlePendingVersions.articleId, articleId))
    .limit(1);
  if (!row) return null;
  // Written by savePendingVersion from checked input.
  return { fields: row.fields as PendingFields, savedAt: row.savedAt.toISOString(), savedByName: row.savedByName };
}

/**
 * A preview of a story (`detail`, as its page shows it) with its pending version's fields in place of
 * the live ones, when it has one: the category and the authors are read for the pending choice. The
 * publication date, views and notes stay the live story's. Answers whether a pending version was used.
 */
export async function withPendingVersion<A extends ArticleDetail>(db: Db, detail: A): Promise<{ article: A; pending: PendingVersionInfo | null }> {
  const pending = await getPendingVersion(db, detail.id);
  if (!pending) return { article: detail, pending: null };
  const f = pending.fields;
  const [category] = f.categoryId
    ? await db.select({ name: categories.name, slug: categories.slug }).from(categories).where(eq(categories.id, f.categoryId)).limit(1)
    : [];
  const found = f.authorIds.length
    ? await db.select({ id: authors.id, name: authors.name, slug: authors.slug }).from(authors).where(inArray(authors.id, f.authorIds))
    : [];
  const byline: BylineAuthor[] = f.authorIds.flatMap((id) => {
    const author = found.find((a) => a.id === id);
    return author ? [{ name: author.name, slug: author.slug }] : [];
  });
  const article: A = {
    ...detail,
    title: f.title,
    slug: f.slug,
    excerpt: f.excerpt,
    content: f.content,
    contentDoc: f.contentDoc,
    featuredImage: f.featuredImage,
    featuredImageAlt: f.featuredImageAlt,
    featuredImageCaption: f.featuredImageCaption,
    featuredImageCredit: f.featuredImageCredit,
    videoUrl: f.videoUrl,
    // A pending version saved before the overrides existed (issue 41) leaves the live story's.
    seoTitle: f.seoTitle !== undefined ? f.seoTitle : detail.seoTitle,
    seoDescription: f.seoDescription !== undefined ? f.seoDescription : detail.seoDescription,
    socialImage: f.socialImage !== undefined ? f.socialImage : detail.socialImage,
    authorName: f.authorName || DEFAULT_AUTHOR_NAME,
    authors: byline,
    category: category ?? null,
  };
  return { article, pending: { savedAt: pending.savedAt, savedByName: pending.savedByName } };
}
