import { diffWords } from "diff";
import { and, asc, desc, eq, notInArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articleAuthors, articleRevisions, articles, articleTags, pageRevisions, tags, type ArticleStatus } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { AppError } from "~/lib/app-error";
import { toDateTimeLocal } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import {
  AUTOSAVE_COALESCE_MS,
  REVISIONS_KEPT,
  type DiffPart,
  type FieldComparison,
  type RevisionComparison,
  type RevisionSummary,
} from "./article-revisions.schema";

/** A transaction (or the pool): what a revision is written with, inside the article's own write. */
type Writer = Pick<Db, "select" | "insert" | "update" | "delete">;

/** An article row as written, with every field a revision keeps. */
export interface RevisionSource {
  id: string;
  title: string;
  slug: string;
  excerpt: string | null;
  content: string;
  contentDoc: unknown;
  categoryId: string | null;
  authorName: string;
  featuredImage: string | null;
  featuredImageAlt: string | null;
  featuredImageCaption: string | null;
  featuredImageCredit: string | null;
  videoUrl: string | null;
  status: ArticleStatus;
  publishedAt: Date | null;
}

/** The article columns a write returns for its revision. */
export const revisionSourceColumns = {
  id: articles.id,
  title: articles.title,
  slug: articles.slug,
  excerpt: articles.excerpt,
  content: articles.content,
  contentDoc: articles.contentDoc,
  categoryId: articles.categoryId,
  authorName: articles.authorName,
  featuredImage: articles.featuredImage,
  featuredImageAlt: articles.featuredImageAlt,
  featuredImageCaption: articles.featuredImageCaption,
  featuredImageCredit: articles.featuredImageCredit,
  videoUrl: articles.videoUrl,
  status: articles.status,
  publishedAt: articles.publishedAt,
};

/** The article's authors' ids in byline order, as the write that records the revision left them. */
async function authorIdsOf(tx: Pick<Db, "select">, articleId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: articleAuthors.authorId })
    .from(articleAuthors)
    .where(eq(articleAuthors.articleId, articleId))
    .orderBy(asc(articleAuthors.position));
  return rows.map((r) => r.id);
}

/** The article's tags' names in order, as the write that records the revision left them (issue 29). */
async function tagNamesOf(tx: Pick<Db, "select">, articleId: string): Promise<string[]> {
  const rows = await tx
    .select({ name: tags.name })
    .from(articleTags)
    .innerJoin(tags, eq(tags.id, articleTags.tagId))
    .where(eq(articleTags.articleId, articleId))
    .orderBy(asc(articleTags.position));
  return rows.map((r) => r.name);
}

/** A revision's columns out of a written row (a pending version names its own authors and tags; a written article's are read). */
const fieldsOf = async (tx: Writer, { id, authorIds, tagNames, ...fields }: RevisionSource & { authorIds?: string[]; tagNames?: string[] }) => ({
  articleId: id,
  ...fields,
  authorIds: authorIds ?? (await authorIdsOf(tx, id)),
  tagNames: tagNames ?? (await tagNamesOf(tx, id)),
});

/**
 * Keeps the newest REVISIONS_KEPT revisions of one story or page in a revisions table (run in the
 * transaction that added one): `owner` is the table's column naming the story or page.
 */
export async function keepNewestRevisions(
  tx: Writer,
  table: typeof articleRevisions | typeof pageRevisions,
  owner: typeof articleRevisions.articleId | typeof pageRevisions.pageId,
  ownerId: string,
) {
  const kept = tx.select({ id: table.id }).from(table).where(eq(owner, ownerId)).orderBy(desc(table.createdAt), desc(table.id)).limit(REVISIONS_KEPT);
  await tx.delete(table).where(and(eq(owner, ownerId), notInArray(table.id, kept)));
}

/** Keeps the newest REVISIONS_KEPT revisions of an article. */
const pruneRevisions = (tx: Writer, articleId: string) => keepNewestRevisions(tx, articleRevisions, articleRevisions.articleId, articleId);

/**
 * Records a save of `row` by `actor` — call it inside the transaction that wrote the article, so a
 * refused or failed write leaves no revision — and drops revisions beyond the newest REVISIONS_KEPT.
 */
export async function recordRevision(tx: Writer, row: RevisionSource, actor: Actor): Promise<void> {
  await tx.insert(articleRevisions).values({ ...(await fieldsOf(tx, row)), savedById: actor.id, savedByName: actor.name, autosave: false });
  await pruneRevisions(tx, row.id);
}

/**
 * The first revisions of articles just written whose authors and tags the caller knows (an import
 * writes thousands): one insert, nothing read back and nothing to prune.
 */
export async function recordFirstRevisions(tx: Writer, rows: (RevisionSource & { authorIds: string[]; tagNames: string[] })[], actor: Actor): Promise<void> {
  if (rows.length === 0) return;
  const values = await Promise.all(rows.map(async (row) => ({ ...(await fieldsOf(tx, row)), savedById: actor.id, savedByName: actor.name, autosave: false })));
  await tx.insert(articleRevisions).values(values);
}

/**
 * Records an autosave of `row` without a revision per keystroke: when the article's newest revision
 * is an autosave by the same person written within AUTOSAVE_COALESCE_MS, that revision takes the new
 * fields and time; otherwise one autosave revision is added. (The article's row is locked by the
 * write before this, so two autosaves of one article cannot both add one.)
 */
export async function recordAutosave(tx: Writer, row: RevisionSource, actor: Actor): Promise<"updated" | "added"> {
  return recordCoalesced(tx, row, actor, { autosave: true, pending: false });
}

/**
 * Records a "Save for later" (or its autosave) of a published story: `row` is the pending version's
 * fields with the live story's status. Coalesced like a draft's autosaves: the newest revision, when it
 * is a pending one by the same person within AUTOSAVE_COALESCE_MS, takes the new fields and time.
 */
export async function recordPendingRevision(tx: Writer, row: RevisionSource & { authorIds: string[]; tagNames?: string[] }, actor: Actor, autosave: boolean): Promise<"updated" | "added"> {
  return recordCoalesced(tx, row, actor, { autosave, pending: true });
}

async function recordCoalesced(tx: Writer, row: RevisionSource & { authorIds?: string[]; tagNames?: string[] }, actor: Actor, kind: { autosave: boolean; pending: boolean }): Promise<"updated" | "added"> {
  const [newest] = await tx
    .select({
      id: articleRevisions.id,
      autosave: articleRevisions.autosave,
      pending: articleRevisions.pending,
      savedById: articleRevisions.savedById,
      recent: sql<boolean>`${articleRevisions.createdAt} > now() - make_interval(secs => ${AUTOSAVE_COALESCE_MS / 1000})`,
    })
    .from(articleRevisions)
    .where(eq(articleRevisions.articleId, row.id))
    .orderBy(desc(articleRevisions.createdAt), desc(articleRevisions.id))
    .limit(1);
  // A draft's autosaves coalesce with autosaves; pending saves with pending saves (either kind).
  const sameKind = newest && (kind.pending ? newest.pending : newest.autosave && !newest.pending);
  if (newest && sameKind && newest.recent && actor.id !== null && newest.savedById === actor.id) {
    await tx
      .update(articleRevisions)
      // An explicit "Save for later" after its autosaves leaves a revision that is not marked autosave.
      .set({ ...(await fieldsOf(tx, row)), savedByName: actor.name, autosave: newest.autosave && kind.autosave, createdAt: sql`now()` })
      .where(eq(articleRevisions.id, newest.id));
    return "updated";
  }
  await tx.insert(articleRevisions).values({ ...(await fieldsOf(tx, row)), savedById: actor.id, savedByName: actor.name, ...kind });
  await pruneRevisions(tx, row.id);
  return "added";
}

// ---------------------------------------------------------------- reads

const summaryColumns = {
  id: articleRevisions.id,
  title: articleRevisions.title,
  status: articleRevisions.status,
  savedByName: articleRevisions.savedByName,
  createdAt: articleRevisions.createdAt,
  autosave: articleRevisions.autosave,
  pending: articleRevisions.pending,
};

const summaryOf = (row: Omit<RevisionSummary, "savedAt"> & { createdAt: Date }): RevisionSummary => ({
  id: row.id,
  title: row.title,
  status: row.status,
  savedByName: row.savedByName,
  savedAt: row.createdAt.toISOString(),
  autosave: row.autosave,
  pending: row.pending,
});

const articleGone = () => new AppError("not_found", "This article no longer exists.");
const revisionGone = () => new AppError("not_found", "This version is no longer kept.");

async function articleExists(db: Db, id: string) {
  if (!isUuid(id)) return false;
  const [row] = await db.select({ id: articles.id }).from(articles).where(eq(articles.id, id)).limit(1);
  return Boolean(row);
}

/** An article's revisions, newest first (at most REVISIONS_KEPT). An unknown article is "not_found". */
export async function listRevisions(db: Db, articleId: string): Promise<RevisionSummary[]> {
  if (!(await articleExists(db, articleId))) throw articleGone();
  const rows = await db
    .select(summaryColumns)
    .from(articleRevisions)
    .where(eq(articleRevisions.articleId, articleId))
    .orderBy(desc(articleRevisions.createdAt), desc(articleRevisions.id))
    .limit(REVISIONS_KEPT);
  return rows.map(summaryOf);
}

/** Word diff from the current text to the revision's, or null when it would take too long to compute (very different long texts). */
export function compareText(current: string, revision: string): FieldComparison {
  if (current === revision) return { changed: false };
  const changes = diffWords(current, revision, { timeout: 1000 });
  if (!changes) return { changed: true, parts: null };
  const parts: DiffPart[] = changes.map((c) => ({ value: c.value, side: c.added ? "revision" : c.removed ? "current" : "both" }));
  return { changed: true, parts };
}

/** Whether two versions of a story have the same words but not the same document (bold, links, headings…). */
export function onlyFormattingChanged(current: { content: string; contentDoc: unknown }, revision: { content: string; contentDoc: unknown }): boolean {
  return JSON.stringify(current.contentDoc ?? null) !== JSON.stringify(revision.contentDoc ?? null) && current.content === revision.content;
}

const OTHER_FIELDS = [
  ["slug", "Slug"],
  ["categoryId", "Category"],
  ["authorName", "Author Name"],
  ["featuredImage", "Featured Image"],
  ["featuredImageAlt", "Alt text"],
  ["featuredImageCaption", "Caption"],
  ["featuredImageCredit", "Credit"],
  ["videoUrl", "Video"],
  ["publishedAt", "Publish at"],
] as const;

/**
 * One revision of an article with its fields (for "Restore this version") and what differs from the
 * article as it is stored now: word diffs of the title, the excerpt and the body's plain text, and
 * the names of the other fields that differ. An unknown article or revision is "not_found".
 */
export async function compareRevision(db: Db, articleId: string, revisionId: string, timeZone: string): Promise<RevisionComparison> {
  if (!isUuid(revisionId) || !isUuid(articleId)) throw revisionGone();
  const [[current], [revision], currentAuthorIds, currentTagNames] = await Promise.all([
    db.select(revisionSourceColumns).from(articles).where(eq(articles.id, articleId)).limit(1),
    db
      .select()
      .from(articleRevisions)
      .where(and(eq(articleRevisions.id, revisionId), eq(articleRevisions.articleId, articleId)))
      .limit(1),
    authorIdsOf(db, articleId),
    tagNamesOf(db, articleId),
  ]);
  if (!current) throw articleGone();
  if (!revision) throw revisionGone();
  // "Publish at" as the form shows it: to the minute, on the site's wall clock.
  const publishAt = (d: Date | null) => (d ? toDateTimeLocal(d, timeZone) : "");
  const otherChanges: string[] = OTHER_FIELDS.filter(([key]) =>
    key === "publishedAt" ? publishAt(current.publishedAt) !== publishAt(revision.publishedAt) : current[key] !== revision[key],
  ).map(([, label]) => label);
  // Authors (decision 0015): a revision saved before authors existed (null) restores none of them.
  if (revision.authorIds && revision.authorIds.join(",") !== currentAuthorIds.join(",")) otherChanges.push("Authors");
  // Tags (issue 29): likewise, a revision saved before tags existed (null) leaves the form's tags as they are.
  if (revision.tagNames && revision.tagNames.join("\n") !== currentTagNames.join("\n")) otherChanges.push("Tags");
  if (onlyFormattingChanged(current, revision)) otherChanges.push("Formatting of the content");
  return {
    revision: {
      ...summaryOf(revision),
      fields: {
        title: revision.title,
        slug: revision.slug,
        categoryId: revision.categoryId,
        authorName: revision.authorName,
        excerpt: revision.excerpt,
        content: revision.content,
        contentDoc: revision.contentDoc ?? null,
        featuredImage: revision.featuredImage,
        featuredImageAlt: revision.featuredImageAlt,
        featuredImageCaption: revision.featuredImageCaption,
        featuredImageCredit: revision.featuredImageCredit,
        videoUrl: revision.videoUrl,
        publishAt: publishAt(revision.publishedAt),
        ...(revision.authorIds ? { authorIds: revision.authorIds } : {}),
        ...(revision.tagNames ? { tags: revision.tagNames } : {}),
      },
    },
    changes: {
      title: compareText(current.title, revision.title),
      excerpt: compareText(current.excerpt ?? "", revision.excerpt ?? ""),
      body: compareText(current.content, revision.content),
    },
    otherChanges,
  };
}
