import { and, asc, desc, eq, like, ne, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { isForeignKeyViolation, isUniqueViolation } from "~/db/pg-errors";
import { pageRevisions, pages, type PageStatus } from "~/db/schema";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { checkCapability } from "~/domain/articles/article-access.server";
import { checkStoryImages } from "~/domain/articles/article-admin.server";
import { compareText, keepNewestRevisions, onlyFormattingChanged } from "~/domain/articles/article-revisions.server";
import { REVISIONS_KEPT, type RevisionComparison, type RevisionSummary } from "~/domain/articles/article-revisions.schema";
import { storyPlainText } from "~/domain/articles/story-document";
import { importedStoryDocumentSchema, storyDocumentField, type StoryDocument } from "~/domain/articles/story-document.schema";
import { recordActivity } from "~/domain/activity/activity.server";
import { AppError, isAppError } from "~/lib/app-error";
import { parseForm } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import { isSlug, slugify } from "~/lib/slugs";
import type { Storage } from "~/lib/storage.server";
import {
  PAGE_ALREADY_DRAFT,
  PAGE_LIVE_STAYS_LIVE,
  PAGE_SLUG_TAKEN,
  pageFormSchema,
  pagePath,
  pageSlugReserved,
  REQUIRED_PAGE_FIELDS,
  type FooterPage,
  type PageFieldName,
  type PageFormFields,
} from "./pages.schema";
import { isReservedSlug } from "./reserved-slugs";

export { isReservedSlug, pagePath };

/** A database handle or an open transaction. */
type Queryable = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

const pageGone = () => new AppError("not_found", "This page no longer exists.");
const revisionGone = () => new AppError("not_found", "This version is no longer kept.");
const PAGES_NOT_YOURS = "Your role cannot change pages.";
const slugTaken = () => new AppError<PageFieldName>("slug_taken", PAGE_SLUG_TAKEN, { field: "slug" });

// ---------------------------------------------------------------- reads

/** The page columns a write returns for its revision. */
const revisionSourceColumns = {
  id: pages.id,
  title: pages.title,
  slug: pages.slug,
  content: pages.content,
  contentDoc: pages.contentDoc,
  status: pages.status,
  showInFooter: pages.showInFooter,
  footerPosition: pages.footerPosition,
  publishedAt: pages.publishedAt,
};

export interface AdminPageRow {
  id: string;
  title: string;
  slug: string;
  status: PageStatus;
  updatedAt: Date;
  showInFooter: boolean;
  footerPosition: number;
}

/** Every page, most recently changed first (/admin/pages). */
export async function listAdminPages(db: Db): Promise<AdminPageRow[]> {
  return db
    .select({
      id: pages.id,
      title: pages.title,
      slug: pages.slug,
      status: pages.status,
      updatedAt: pages.updatedAt,
      showInFooter: pages.showInFooter,
      footerPosition: pages.footerPosition,
    })
    .from(pages)
    .orderBy(desc(pages.updatedAt), asc(pages.slug));
}

export interface EditablePage extends PageFormFields {
  id: string;
  contentDoc: StoryDocument | null;
  status: PageStatus;
  publishedAt: Date | null;
  updatedAt: Date;
}

/** One page's stored fields for the edit form, or null (an id that is not a UUID names nothing). */
export async function getPageForEdit(db: Pick<Db, "select">, id: string): Promise<EditablePage | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({ ...revisionSourceColumns, updatedAt: pages.updatedAt })
    .from(pages)
    .where(eq(pages.id, id))
    .limit(1);
  // Stored documents were checked by storyDocumentSchema when they were saved.
  return row ? { ...row, contentDoc: (row.contentDoc as StoryDocument | null) ?? null } : null;
}

export interface PublicPage {
  title: string;
  slug: string;
  content: string;
  contentDoc: StoryDocument | null;
  publishedAt: Date | null;
  updatedAt: Date;
}

/** What /{slug} shows: a published page's public fields; null for a draft or an unknown slug (the 404 page). */
export async function findPublicPage(db: Db, slug: string): Promise<PublicPage | null> {
  if (!isSlug(slug)) return null;
  const [row] = await db
    .select({ title: pages.title, slug: pages.slug, content: pages.content, contentDoc: pages.contentDoc, publishedAt: pages.publishedAt, updatedAt: pages.updatedAt })
    .from(pages)
    .where(and(eq(pages.slug, slug), eq(pages.status, "published")))
    .limit(1);
  return row ? { ...row, contentDoc: (row.contentDoc as StoryDocument | null) ?? null } : null;
}

/** The published pages the footer lists, by footer position then title (read once per process with the site frame). */
export async function listFooterPages(db: Db): Promise<FooterPage[]> {
  return db
    .select({ title: pages.title, slug: pages.slug })
    .from(pages)
    .where(and(eq(pages.status, "published"), eq(pages.showInFooter, true)))
    .orderBy(asc(pages.footerPosition), asc(pages.title));
}

/** Every published page's address and last change (the pages sitemap: a newsroom has a handful). */
export async function listSitemapPages(db: Db): Promise<{ slug: string; lastmod: Date }[]> {
  return db
    .select({ slug: pages.slug, lastmod: pages.updatedAt })
    .from(pages)
    .where(eq(pages.status, "published"))
    .orderBy(asc(pages.slug));
}

// ---------------------------------------------------------------- revisions

interface PageRevisionSource {
  id: string;
  title: string;
  slug: string;
  content: string;
  contentDoc: unknown;
  status: PageStatus;
  showInFooter: boolean;
  footerPosition: number;
  publishedAt: Date | null;
}

/** Records a save of `row` inside the transaction that wrote it, keeping the newest REVISIONS_KEPT (decision 0011). */
async function recordPageRevision(tx: Queryable, row: PageRevisionSource, actor: Actor): Promise<void> {
  const { id, publishedAt: _publishedAt, ...fields } = row;
  await tx.insert(pageRevisions).values({ pageId: id, ...fields, savedById: actor.id, savedByName: actor.name });
  await keepNewestRevisions(tx, pageRevisions, pageRevisions.pageId, id);
}

const summaryOf = (row: { id: string; title: string; status: PageStatus; savedByName: string; createdAt: Date }): RevisionSummary => ({
  id: row.id,
  title: row.title,
  status: row.status,
  savedByName: row.savedByName,
  savedAt: row.createdAt.toISOString(),
  autosave: false,
  pending: false,
});

/** A page's saves, newest first (the History panel). An unknown page is "not_found". */
export async function listPageRevisions(db: Db, pageId: string): Promise<RevisionSummary[]> {
  if (!(await getPageForEdit(db, pageId))) throw pageGone();
  const rows = await db
    .select({ id: pageRevisions.id, title: pageRevisions.title, status: pageRevisions.status, savedByName: pageRevisions.savedByName, createdAt: pageRevisions.createdAt })
    .from(pageRevisions)
    .where(eq(pageRevisions.pageId, pageId))
    .orderBy(desc(pageRevisions.createdAt), desc(pageRevisions.id))
    .limit(REVISIONS_KEPT);
  return rows.map(summaryOf);
}

/**
 * One saved version of a page with its fields (what "Restore this version" puts into the form; the
 * next save stores it as a new revision) and what differs from the page as stored now.
 */
export async function comparePageRevision(db: Db, pageId: string, revisionId: string): Promise<RevisionComparison<PageFormFields>> {
  if (!isUuid(pageId) || !isUuid(revisionId)) throw revisionGone();
  const current = await getPageForEdit(db, pageId);
  if (!current) throw pageGone();
  const [revision] = await db
    .select()
    .from(pageRevisions)
    .where(and(eq(pageRevisions.id, revisionId), eq(pageRevisions.pageId, pageId)))
    .limit(1);
  if (!revision) throw revisionGone();
  const otherChanges: string[] = [];
  if (revision.slug !== current.slug) otherChanges.push("Slug");
  if (revision.showInFooter !== current.showInFooter || revision.footerPosition !== current.footerPosition) otherChanges.push("Footer");
  if (onlyFormattingChanged(current, revision)) otherChanges.push("Formatting of the content");
  return {
    revision: {
      ...summaryOf(revision),
      fields: {
        title: revision.title,
        slug: revision.slug,
        content: revision.content,
        contentDoc: revision.contentDoc ?? null,
        showInFooter: revision.showInFooter,
        footerPosition: revision.footerPosition,
      },
    },
    changes: { title: compareText(current.title, revision.title), body: compareText(current.content, revision.content) },
    otherChanges,
  };
}

// ---------------------------------------------------------------- writes

/** The form's input as saved: the document checked, and the plain text derived from it here (as for articles). */
const pageSaveSchema = pageFormSchema.extend({ contentDoc: storyDocumentField }).transform((input, ctx) => {
  if (!input.contentDoc) return input;
  const content = storyPlainText(input.contentDoc);
  if (content === "") {
    ctx.addIssue({ code: "custom", path: ["content"], message: "Content is required: write some text on the page." });
    return z.NEVER;
  }
  return { ...input, content };
});

/** A slug no route uses and no other page has (refused beside the slug field otherwise). */
async function checkSlug(db: Queryable, slug: string, exceptId?: string) {
  if (isReservedSlug(slug)) throw new AppError<PageFieldName>("invalid_input", pageSlugReserved(slug), { field: "slug" });
  const [taken] = await db
    .select({ id: pages.id })
    .from(pages)
    .where(exceptId ? and(eq(pages.slug, slug), ne(pages.id, exceptId)) : eq(pages.slug, slug))
    .limit(1);
  if (taken) throw slugTaken();
}

function translateWriteError(error: unknown): never {
  if (isAppError(error)) throw error;
  if (isUniqueViolation(error)) throw slugTaken();
  if (isForeignKeyViolation(error)) throw new AppError("forbidden", "Your account no longer exists. Sign in again to save.");
  throw error;
}

/** What a save answers. */
export interface SavedPage {
  id: string;
  slug: string;
  status: PageStatus;
  /** The status before the save (null: a new page). */
  previousStatus: PageStatus | null;
}

/**
 * Reads and validates a submitted page form and creates (no id) or updates (id) the page: "draft"
 * keeps a draft a draft (a live page is refused, 409: only Unpublish takes it off the site), "publish"
 * publishes it (its first publication time is kept). Refusals are AppErrors beside their field (400),
 * nothing saved: a reserved or taken slug, a bad document, an image that is not our own media.
 */
export async function savePageFromForm(
  db: Db,
  storage: Storage,
  values: Record<PageFieldName, string>,
  options: { id?: string; actor?: Actor } = {},
): Promise<SavedPage> {
  const actor = options.actor ?? SYSTEM_ACTOR;
  checkCapability(actor, "pages.manage", PAGES_NOT_YOURS);
  const { intent, ...input } = parseForm(pageSaveSchema, values, { required: REQUIRED_PAGE_FIELDS });
  const previous = options.id ? await getPageForEdit(db, options.id) : null;
  if (options.id && !previous) throw pageGone();
  await checkSlug(db, input.slug, options.id);
  await checkStoryImages(storage, input.contentDoc, previous ?? undefined);
  const fields = {
    title: input.title,
    slug: input.slug,
    content: input.content,
    contentDoc: input.contentDoc,
    showInFooter: input.showInFooter,
    footerPosition: input.footerPosition,
  };
  const status: PageStatus = intent === "publish" ? "published" : "draft";
  try {
    return await db.transaction(async (tx) => {
      let row: PageRevisionSource | undefined;
      let before: PageStatus | null = null;
      if (options.id) {
        const [stored] = await tx.select({ status: pages.status }).from(pages).where(eq(pages.id, options.id)).for("update");
        if (!stored) throw pageGone();
        before = stored.status;
        if (stored.status === "published" && status === "draft") throw new AppError("invalid_input", PAGE_LIVE_STAYS_LIVE, { status: 409 });
        [row] = await tx
          .update(pages)
          .set({ ...fields, status, publishedAt: status === "published" ? sql`coalesce(${pages.publishedAt}, now())` : undefined, updatedAt: sql`now()` })
          .where(eq(pages.id, options.id))
          .returning(revisionSourceColumns);
      } else {
        [row] = await tx
          .insert(pages)
          .values({ ...fields, status, publishedAt: status === "published" ? sql`now()` : null, createdById: actor.id })
          .returning(revisionSourceColumns);
      }
      if (!row) throw pageGone();
      await recordPageRevision(tx, row, actor);
      const kind = !options.id ? "page.create" : before !== "published" && status === "published" ? "page.publish" : "page.update";
      await recordActivity(tx, actor, { kind, objectType: "page", objectId: row.id, objectLabel: row.title, details: { status, slug: row.slug } });
      return { id: row.id, slug: row.slug, status: row.status, previousStatus: before };
    });
  } catch (error) {
    translateWriteError(error);
  }
}

/** "Unpublish": a published page becomes a draft (it leaves /{slug}, the footer and the sitemap at once). */
export async function unpublishPage(db: Db, id: string, actor: Actor = SYSTEM_ACTOR): Promise<SavedPage> {
  checkCapability(actor, "pages.manage", PAGES_NOT_YOURS);
  if (!isUuid(id)) throw pageGone();
  const saved = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(pages)
      .set({ status: "draft", updatedAt: sql`now()` })
      .where(and(eq(pages.id, id), eq(pages.status, "published")))
      .returning(revisionSourceColumns);
    if (!row) return null;
    await recordPageRevision(tx, row, actor);
    await recordActivity(tx, actor, { kind: "page.unpublish", objectType: "page", objectId: id, objectLabel: row.title });
    return { id: row.id, slug: row.slug, status: row.status, previousStatus: "published" as const };
  });
  if (saved) return saved;
  if (!(await getPageForEdit(db, id))) throw pageGone();
  throw new AppError("invalid_input", PAGE_ALREADY_DRAFT, { status: 409 });
}

// ---------------------------------------------------------------- the importer (issue 29)

/** What the WordPress/Ghost importer hands over for one page. */
export interface ImportedPageInput {
  title: string;
  slug: string;
  doc: StoryDocument;
  status: "draft" | "published";
  publishedAt: Date | null;
  createdAt: Date | null;
}

/** The name of an importer's save in History and the audit trail. */
const IMPORT_ACTOR: Actor = { id: null, name: "Import" };

/**
 * The first slug from `wanted` on that no route uses and no page has: `wanted` itself, else
 * `wanted-2`, `wanted-3`, … (one query for the taken ones).
 */
async function freeSlug(tx: Queryable, wanted: string): Promise<string> {
  const base = wanted.slice(0, 190).replace(/-+$/, "") || "page";
  const rows = await tx
    .select({ slug: pages.slug })
    .from(pages)
    .where(or(eq(pages.slug, base), like(pages.slug, `${base}-%`)));
  const taken = new Set(rows.map((r) => r.slug));
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(slug) && !isReservedSlug(slug)) return slug;
  }
}

/**
 * Inserts an imported page with its first revision inside the caller's transaction, at a free slug
 * (the asked one when no route uses it and no page has it, else with -2, -3, …; a title's slug, or
 * "page", when the asked one makes no slug). The document is checked by the editor's schema, save that
 * an image may lack alt text (importedStoryDocumentSchema; a refusal is an AppError naming the page); its images are the importer's to have brought through the upload
 * pipeline. A published page with no date is published now; the audit trail names "Import".
 */
export async function createImportedPage(tx: Queryable, input: ImportedPageInput): Promise<{ id: string; slug: string }> {
  const checked = importedStoryDocumentSchema.safeParse(input.doc);
  if (!checked.success) {
    throw new AppError("invalid_input", `The page “${input.title}” could not be imported: ${checked.error.issues[0]?.message ?? "its story is not valid"}.`);
  }
  const title = input.title.trim() || "Untitled page";
  const slug = await freeSlug(tx, slugify(input.slug) || slugify(title) || "page");
  const doc = checked.data as StoryDocument;
  const [row] = await tx
    .insert(pages)
    .values({
      title,
      slug,
      content: storyPlainText(doc),
      contentDoc: doc,
      status: input.status,
      publishedAt: input.status === "published" ? (input.publishedAt ?? sql`now()`) : input.publishedAt,
      ...(input.createdAt ? { createdAt: input.createdAt, updatedAt: input.createdAt } : {}),
    })
    .returning(revisionSourceColumns);
  await recordPageRevision(tx, row!, IMPORT_ACTOR);
  await recordActivity(tx, IMPORT_ACTOR, { kind: "page.create", objectType: "page", objectId: row!.id, objectLabel: title, details: { status: input.status, slug, imported: true } });
  return { id: row!.id, slug };
}

/**
 * The importer's later change to an imported page's story (issue 39: images a retry brought, put in
 * place), inside the caller's transaction: `revise` gets the stored document (the row locked) and
 * answers the new one, or null to leave the page as it is. A revision names `actor`. Answers whether
 * the page was changed.
 */
export async function reviseImportedPage(tx: Queryable, id: string, actor: Actor, revise: (doc: StoryDocument) => StoryDocument | null): Promise<boolean> {
  const [stored] = await tx.select({ contentDoc: pages.contentDoc }).from(pages).where(eq(pages.id, id)).for("update");
  // Stored documents were checked when they were saved.
  const doc = stored?.contentDoc ? revise(stored.contentDoc as StoryDocument) : null;
  if (!doc) return false;
  const [row] = await tx
    .update(pages)
    .set({ contentDoc: doc, content: storyPlainText(doc), updatedAt: sql`now()` })
    .where(eq(pages.id, id))
    .returning(revisionSourceColumns);
  await recordPageRevision(tx, row!, actor);
  return true;
}
