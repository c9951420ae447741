import { queueEmbedPosters } from "./embed-posters.server";
import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "~/db/client.server";
import { isForeignKeyViolation, isUniqueViolation, pgConstraint } from "~/db/pg-errors";
import { articlePendingVersions, articles, categories, DEFAULT_AUTHOR_NAME, memberTiers, type ArticleStatus } from "~/db/schema";
import type { StoryAccessLevel } from "~/domain/members/access";
import { getSettings } from "~/domain/settings/settings.server";
import { AppError, isAppError } from "~/lib/app-error";
import { fromDateTimeLocal } from "~/lib/dates";
import { formValues, parseForm } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import { slugify } from "~/lib/slugs";
import { isOwnMediaUrl } from "~/lib/own-media.server";
import type { Bucket, Storage } from "~/lib/storage.server";
import { UPLOAD_RULES } from "~/lib/upload-rules";
import {
  ACCESS_TIER_UNKNOWN,
  ARTICLE_FIELDS,
  ARTICLE_SLUG_TAKEN,
  articleFormSchema,
  FEATURED_IMAGE_ALT_REQUIRED,
  isFeaturedImageAltMissing,
  PUBLISH_AT_INVALID,
  publishBlockers,
  REQUIRED_ARTICLE_FIELDS,
  SAVE_FOR_LATER_PUBLISHED_ONLY,
  SCHEDULE_NEEDS_FUTURE,
  LIVE_STAYS_LIVE,
  STAYS_PUBLIC,
  slugRedirectsMessage,
  wasPublished,
  type ArticleFieldName,
  type ArticleInput,
  type ArticleIntent,
} from "./articles.schema";
import { checkAuthorIds, getArticleAuthorIds, setArticleAuthors } from "~/domain/authors/authors.server";
import { getArticleTagNames, setArticleTags } from "~/domain/tags/tags.server";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { checkCapability, checkMayDelete, checkMayEdit, holdsCapability, readOwnership } from "./article-access.server";
import { CLEARED_REVIEW, submitForReview } from "./review.server";
import type { ActivityKind } from "~/domain/activity/activity.schema";
import { recordActivity } from "~/domain/activity/activity.server";
import { queueStorySends } from "~/domain/newsletters/newsletter-sends.server";
import { notifyPublished } from "~/domain/notifications/notifications.server";
import { recordAutosave, recordPendingRevision, recordRevision, revisionSourceColumns, type RevisionSource } from "./article-revisions.server";
import { type PendingFields } from "./pending-versions.server";
import { recordSlugRedirect, removeSlugRedirect, slugRedirectOwner } from "./slug-redirects.server";
import { storyPlainText } from "./story-document";
import { freeContentOf } from "./story-paywall";
import { storyDocumentField, type StoryBlock, type StoryDocument } from "./story-document.schema";
import { storyImageNotOwn } from "./story-urls";
import { SEND_BY_EMAIL_FORBIDDEN, setArticleNewsletters } from "~/domain/newsletters/newsletter-admin.server";
import { featuredImageFocusColumns } from "~/domain/media/media.server";
import type { FocalPoint } from "~/lib/image-variants";

/**
 * The form's input as saved: the story's document is parsed and checked (story-document.schema),
 * and with one, the stored plain text (`content`) is derived from it here, never taken from what
 * the browser sent beside it. (Kept on the server so the document rules stay out of shared chunks.)
 */
export const articleSaveSchema = articleFormSchema.extend({ contentDoc: storyDocumentField }).transform((input, ctx) => {
  if (!input.contentDoc) return input;
  const content = storyPlainText(input.contentDoc);
  if (content === "") {
    ctx.addIssue({ code: "custom", path: ["content"], message: "Content is required: write some text in the story." });
    return z.NEVER;
  }
  return { ...input, content };
});

// ---------------------------------------------------------------- reads

export interface EditableArticle {
  id: string;
  title: string;
  slug: string;
  categoryId: string | null;
  authorName: string;
  excerpt: string | null;
  content: string;
  /** The story editor's document; null for a plain-text story (the editor converts its text). */
  contentDoc: StoryDocument | null;
  featuredImage: string | null;
  /** Null for an article saved before alt text existed (the form asks for it when it is edited). */
  featuredImageAlt: string | null;
  featuredImageCaption: string | null;
  featuredImageCredit: string | null;
  videoUrl: string | null;
  /** The search and social overrides (issue 41): null, derived from the story. */
  seoTitle: string | null;
  seoDescription: string | null;
  socialImage: string | null;
  /** The featured image's focal point as saved with it (issue 41); null: the centre. */
  featuredImageFocus: FocalPoint | null;
  status: ArticleStatus;
  publishedAt: Date | null;
  /** When readers are told it was last updated ("Show as updated", a note), or null. */
  modifiedAt: Date | null;
  /** The article's authors' ids in byline order (none: the Author Name is the byline). */
  authorIds: string[];
  /** The article's tags' names in order (issue 29). */
  tags: string[];
  /** Who may read the whole story (issue 40), and a paid story's tier (null: any paid tier). */
  access: StoryAccessLevel;
  accessTierId: string | null;
}

/** The stored fields of one article for the edit form, or null (an id that is not a UUID names nothing). */
export async function getArticleForEdit(db: Pick<Db, "select">, id: string): Promise<EditableArticle | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      id: articles.id,
      title: articles.title,
      slug: articles.slug,
      categoryId: articles.categoryId,
      authorName: articles.authorName,
      excerpt: articles.excerpt,
      content: articles.content,
      contentDoc: articles.contentDoc,
      featuredImage: articles.featuredImage,
      featuredImageAlt: articles.featuredImageAlt,
      featuredImageCaption: articles.featuredImageCaption,
      featuredImageCredit: articles.featuredImageCredit,
      videoUrl: articles.videoUrl,
      seoTitle: articles.seoTitle,
      seoDescription: articles.seoDescription,
      socialImage: articles.socialImage,
      focalX: articles.featuredImageFocalX,
      focalY: articles.featuredImageFocalY,
      status: articles.status,
      publishedAt: articles.publishedAt,
      modifiedAt: articles.modifiedAt,
      access: articles.access,
      accessTierId: articles.accessTierId,
    })
    .from(articles)
    .where(eq(articles.id, id))
    .limit(1);
  if (!row) return null;
  const { focalX, focalY, ...fields } = row;
  // Stored documents were checked by storyDocumentSchema when they were saved.
  return {
    ...fields,
    featuredImageFocus: focalX === null || focalY === null ? null : { x: focalX, y: focalY },
    contentDoc: (row.contentDoc as StoryDocument | null) ?? null,
    authorIds: await getArticleAuthorIds(db, id),
    tags: await getArticleTagNames(db, id),
  };
}

export { isOwnMediaUrl };

// ---------------------------------------------------------------- writes

const MEDIA_FIELDS = {
  featuredImage: { bucket: "images", extensions: UPLOAD_RULES.image.types.flatMap((t) => t.extensions), what: "featured image" },
  videoUrl: { bucket: "videos", extensions: UPLOAD_RULES.video.types.flatMap((t) => t.extensions), what: "video" },
  socialImage: { bucket: "images", extensions: UPLOAD_RULES.image.types.flatMap((t) => t.extensions), what: "social image" },
} as const satisfies Record<string, { bucket: Bucket; extensions: string[]; what: string }>;

async function checkMedia(storage: Storage, input: ArticleInput, previous?: EditableArticle) {
  for (const field of ["featuredImage", "videoUrl", "socialImage"] as const) {
    const url = input[field];
    // An unchanged value was accepted when it was saved; only a new URL is checked.
    if (!url || url === previous?.[field]) continue;
    const rule = MEDIA_FIELDS[field];
    if (!(await isOwnMediaUrl(storage, rule.bucket, url, rule.extensions))) {
      throw new AppError<ArticleFieldName>("invalid_media", `The ${rule.what} must be a file uploaded to this site's media library.`, { field });
    }
  }
}

/** A featured image needs its alt text (whoever saves: the form, the media library, a script). */
function checkFeaturedImageText(input: ArticleInput) {
  if (isFeaturedImageAltMissing(input.featuredImage, input.featuredImageAlt)) {
    throw new AppError<ArticleFieldName>("invalid_input", FEATURED_IMAGE_ALT_REQUIRED, { field: "featuredImageAlt" });
  }
}

/** The images of a document (their addresses), each once. */
function storyImagesOf(doc: StoryDocument | null): Set<string> {
  const found = new Set<string>();
  const visit = (nodes: readonly StoryBlock[] | undefined) => {
    for (const node of nodes ?? []) {
      if (node.type === "storyImage") found.add(node.attrs.src);
      else if (node.type === "gallery") for (const image of node.attrs.images) found.add(image.src);
      else if ("content" in node && node.type !== "paragraph" && node.type !== "heading") visit(node.content as StoryBlock[]);
    }
  };
  visit(doc?.content);
  return found;
}

/**
 * Every image of the story must be a stored image file of our own media (issue 28): an image from
 * another host is blocked by the reader pages' Content-Security-Policy (a broken image), and feeds
 * and newsletters would have readers load it from a stranger. An image already in the saved story was
 * checked when it was added (a story saved before this rule keeps its images until they are replaced).
 * Pages (issue 29) are held to the same rule through this function.
 */
export async function checkStoryImages(storage: Storage, doc: StoryDocument | null, previous?: { contentDoc: StoryDocument | null }) {
  const known = storyImagesOf(previous?.contentDoc ?? null);
  for (const src of storyImagesOf(doc)) {
    if (known.has(src)) continue;
    if (!(await isOwnMediaUrl(storage, "images", src, MEDIA_FIELDS.featuredImage.extensions))) {
      throw new AppError<ArticleFieldName>("invalid_media", storyImageNotOwn(src), { field: "contentDoc" });
    }
  }
}

async function checkSlugFree(db: Db, slug: string, exceptId?: string) {
  const [taken] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(exceptId ? and(eq(articles.slug, slug), ne(articles.id, exceptId)) : eq(articles.slug, slug))
    .limit(1);
  if (taken) throw slugTaken();
}

/**
 * Inside the save's transaction: the slug may be an old address that redirects to an article
 * (decision 0012). The article's own old address is taken back (its redirect goes); another
 * article's is refused unless `takeOver` (then its redirect goes). The row is locked, so a
 * concurrent save of the same slug waits for this one.
 */
async function claimRedirectedSlug(tx: Parameters<Parameters<Db["transaction"]>[0]>[0], slug: string, articleId: string | null, takeOver: boolean) {
  const owner = await slugRedirectOwner(tx, slug, { lock: true });
  if (!owner) return;
  if (owner.articleId !== articleId && !takeOver) {
    throw new AppError<ArticleFieldName>("slug_redirects", slugRedirectsMessage(slug, owner.title), { field: "slug" });
  }
  await removeSlugRedirect(tx, slug);
}

async function checkCategory(db: Db, categoryId: string | null) {
  if (!categoryId) return;
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId)).limit(1);
  if (!row) throw unknownCategory();
}

/**
 * "Access" (issue 40): a paid story's tier must be one of the paid tiers, not archived (a story that
 * already names an archived tier may keep it: its members keep their plan). Whoever may edit the story
 * may set its access, as its other settings (docs/members.md).
 */
async function checkAccessTier(db: Pick<Db, "select">, input: ArticleInput, previous?: { accessTierId: string | null }) {
  if (input.access !== "paid" || !input.accessTierId || input.accessTierId === previous?.accessTierId) return;
  const [tier] = await db
    .select({ id: memberTiers.id })
    .from(memberTiers)
    .where(and(eq(memberTiers.id, input.accessTierId), isNull(memberTiers.archivedAt)))
    .limit(1);
  if (!tier) throw new AppError<ArticleFieldName>("invalid_input", ACCESS_TIER_UNKNOWN, { field: "accessTierId" });
}

/**
 * The access columns a save writes: the story's access as asked (or as stored, when the caller does
 * not say), its tier (paid stories only), and `free_content`, the plain text of its free part under
 * the paywall setting now in force (null for a public story), so search never reads the gated part.
 */
async function accessColumns(tx: Pick<Db, "select">, input: ArticleInput, stored?: { access: StoryAccessLevel; accessTierId: string | null }) {
  const access = input.access ?? stored?.access ?? "public";
  const accessTierId = access === "paid" ? (input.access ? (input.accessTierId ?? null) : (stored?.accessTierId ?? null)) : null;
  const paragraphs = access === "public" ? 0 : (await getSettings(tx)).paywallParagraphs;
  return { access, accessTierId, freeContent: freeContentOf(access, input, paragraphs) };
}

/** The audit entry's note of an access change (issue 40), or nothing. */
function accessChange(before: { access: StoryAccessLevel; accessTierId: string | null } | null, after: { access: StoryAccessLevel; accessTierId: string | null }) {
  if (before && before.access === after.access && before.accessTierId === after.accessTierId) return {};
  if (!before && after.access === "public") return {};
  return { access: after.access, ...(after.accessTierId ? { accessTierId: after.accessTierId } : {}), ...(before ? { accessBefore: before.access } : {}) };
}

const unknownCategory = () =>
  new AppError<ArticleFieldName>("unknown_category", "The chosen category no longer exists. Choose another one.", { field: "categoryId" });
const slugTaken = () => new AppError<ArticleFieldName>("slug_taken", ARTICLE_SLUG_TAKEN, { field: "slug" });
const articleGone = () => new AppError("not_found", "This article no longer exists.");

/** Whether two lists of tag names are the same tags in the same order (names compared by their address). */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => slugify(name) === slugify(b[i]!));
}

/** Turns the database's refusals that a concurrent write can still cause into the same clear errors. */
function translateWriteError(error: unknown): never {
  if (isUniqueViolation(error)) throw slugTaken();
  // The revision names its saver: an account deleted while the request ran.
  const accountGone = ["article_revisions_saved_by_id_user_id_fk", "articles_created_by_id_user_id_fk"];
  if (isForeignKeyViolation(error) && accountGone.includes(pgConstraint(error) ?? "")) {
    throw new AppError("forbidden", "Your account no longer exists. Sign in again to save.");
  }
  if (isForeignKeyViolation(error)) throw unknownCategory();
  throw error;
}

/** What a save asks beside the article's fields: "Show as updated" and "Take over this address". */
export interface SaveOptions {
  showAsUpdated?: boolean;
  takeOverSlug?: boolean;
  /** Who saves (the revision names them); the system when no one signed in does (the seed, scripts). */
  actor?: Actor;
  /**
   * "Send by e-mail" (issue 30): the newsletters the story goes to when it becomes public, written in the
   * save's transaction (before its publish hook reads them). Undefined: the choice stays as it is.
   * Only a role with newsletters.send may give it (403 otherwise, before anything is written).
   */
  newsletterIds?: readonly string[];
  /**
   * "Live coverage" (issue 31): the story becomes live with this save (live_started_at, once; a story
   * that was ever live keeps its start, and its end or restart is the live panel's). Whoever may save the
   * story may tick it: an author's own draft too (the draft is theirs; posting updates keeps its own rule).
   */
  startLive?: boolean;
}

/**
 * The start of live coverage, in the save's transaction: live_started_at set (only when it was never
 * set) and its activity entry. The articles trigger announces it (the cards' LIVE badge).
 */
async function startLiveInSave(tx: Tx, actor: Actor, row: { id: string; title: string }): Promise<void> {
  const [started] = await tx
    .update(articles)
    .set({ liveStartedAt: sql`now()` })
    .where(and(eq(articles.id, row.id), isNull(articles.liveStartedAt)))
    .returning({ id: articles.id });
  if (started) await recordActivity(tx, actor, { kind: "live.start", objectType: "article", objectId: row.id, objectLabel: row.title });
}

function columns(input: ArticleInput) {
  return {
    title: input.title,
    slug: input.slug,
    categoryId: input.categoryId,
    authorName: input.authorName ?? DEFAULT_AUTHOR_NAME,
    excerpt: input.excerpt,
    content: input.content,
    contentDoc: input.contentDoc,
    featuredImage: input.featuredImage,
    // Without an image its texts describe nothing: they go with it.
    featuredImageAlt: input.featuredImage ? input.featuredImageAlt : null,
    featuredImageCaption: input.featuredImage ? input.featuredImageCaption : null,
    featuredImageCredit: input.featuredImage ? input.featuredImageCredit : null,
    videoUrl: input.videoUrl,
    // The search and social overrides (issue 41): kept as they are by a caller that does not offer them.
    ...(input.seoTitle !== undefined ? { seoTitle: input.seoTitle } : {}),
    ...(input.seoDescription !== undefined ? { seoDescription: input.seoDescription } : {}),
    ...(input.socialImage !== undefined ? { socialImage: input.socialImage } : {}),
  };
}

// ---------------------------------------------------------------- publication

/** Where an article stands after a save: its status and its (planned) publication time. */
export interface Publication {
  status: ArticleStatus;
  /** A draft's planned time (or null); a published article's null means "now" by the database's clock. */
  publishedAt: Date | null;
}

/** What a save answers: the article and where it now stands. */
export interface SavedArticle extends Publication {
  id: string;
  slug: string;
  /** This save made the story public (it was not published before): the form shows "Your story is live". */
  justPublished?: boolean;
}

/** Published now: "Publish now" and the media library's "Publish Article". */
const PUBLISH_NOW: Publication = { status: "published", publishedAt: null };

/**
 * The transition a save asks for, checked on the server (decision 0033):
 * - "draft"/"submit" (Save Draft, Submit for review): a draft, keeping "Publish at" (or nothing) as its
 *   planned time; refused (409) for a published or scheduled story: only "Unpublish…" takes one off;
 * - "schedule": scheduled for "Publish at", which must be ahead;
 * - "publish" (Publish now, Update Article) with "Publish at" in the future: scheduled for then (a
 *   scheduled story's Update Article sends its time back and keeps it);
 * - "publish" otherwise: published, at "Publish at" when given (a past time), else at the time it
 *   was already published, else now (the database's now(), so readers' `published_at <= now()`
 *   holds at once whatever this process's clock says).
 */
export function decidePublication(intent: ArticleIntent, publishAt: Date | null, previous: Publication | null, now = new Date()): Publication {
  // The form shows the stored time to the minute: sent back unchanged, it means the stored time
  // (an Update Article must not move a published article's date back to the start of its minute).
  if (publishAt && previous?.publishedAt && Math.floor(publishAt.getTime() / 60_000) === Math.floor(previous.publishedAt.getTime() / 60_000)) {
    publishAt = previous.publishedAt;
  }
  if (intent === "save-for-later" || intent === "discard-pending") {
    throw new AppError("invalid_input", "This action does not publish or save the story itself.");
  }
  if (intent === "draft" || intent === "submit") {
    if (previous && previous.status !== "draft") throw staysPublic();
    return { status: "draft", publishedAt: publishAt };
  }
  // A live story stays live: nothing but "Unpublish…" takes it off the site, not even for a while.
  if (previous?.status === "published" && (intent === "schedule" || (publishAt && publishAt.getTime() > now.getTime()))) throw liveStaysLive();
  if (intent === "schedule") {
    if (!publishAt || publishAt.getTime() <= now.getTime()) throw new AppError<ArticleFieldName>("invalid_input", SCHEDULE_NEEDS_FUTURE, { field: "publishAt" });
    return { status: "scheduled", publishedAt: publishAt };
  }
  if (publishAt && publishAt.getTime() > now.getTime()) return { status: "scheduled", publishedAt: publishAt };
  if (publishAt) return { status: "published", publishedAt: publishAt };
  if (previous?.status === "published" && previous.publishedAt) return { status: "published", publishedAt: previous.publishedAt };
  return PUBLISH_NOW;
}

/** A schedule for a published story (a conflict with its state: 409, on the field that asked for it). */
const liveStaysLive = () => new AppError<ArticleFieldName>("invalid_input", LIVE_STAYS_LIVE, { status: 409, field: "publishAt" });

/** A draft intent for a published or scheduled story (a conflict with its state: 409). */
const staysPublic = () => new AppError("invalid_input", STAYS_PUBLIC, { status: 409 });

/** What the audit trail calls a save that took the article from `before` to `after`. */
function saveKind(before: ArticleStatus, after: ArticleStatus): ActivityKind {
  if (after === "published" && before !== "published") return "article.publish";
  if (after === "scheduled" && before !== "scheduled") return "article.schedule";
  return "article.update";
}

/** The stored form of a publication: "published now" is the database's now(), so readers' `<= now()` holds at once. */
function publicationColumns(publication: Publication) {
  return { status: publication.status, publishedAt: publication.publishedAt ?? (publication.status === "draft" ? null : sql`now()`) };
}

/** What a save answers, out of the row it wrote (which also makes its revision). */
const savedOf = (row: RevisionSource): SavedArticle => ({ id: row.id, slug: row.slug, status: row.status, publishedAt: row.publishedAt });

/**
 * Creates an article from checked form input (published now unless `publication` says otherwise);
 * refuses a featured image without alt text, a taken slug, an unknown category and foreign media.
 * The article and its first revision (saved by `actor`) are written in one transaction.
 */
export async function createArticle(
  db: Db,
  storage: Storage,
  input: ArticleInput,
  publication: Publication = PUBLISH_NOW,
  options: SaveOptions = {},
): Promise<SavedArticle> {
  const actor = options.actor ?? SYSTEM_ACTOR;
  if (publication.status !== "draft") checkCapability(actor, "articles.publish");
  if (options.newsletterIds !== undefined) checkCapability(actor, "newsletters.send", SEND_BY_EMAIL_FORBIDDEN);
  checkFeaturedImageText(input);
  await checkSlugFree(db, input.slug);
  await checkCategory(db, input.categoryId);
  const authorIds = await checkAuthorIds(db, input.authorIds ?? []);
  await checkMedia(storage, input);
  await checkStoryImages(storage, input.contentDoc);
  await checkAccessTier(db, input);
  try {
    return await db.transaction(async (tx) => {
      await claimRedirectedSlug(tx, input.slug, null, options.takeOverSlug ?? false);
      const access = await accessColumns(tx, input);
      const [row] = await tx
        .insert(articles)
        .values({
          ...columns(input),
          // The chosen image's focal point, from its media record (issue 41).
          ...featuredImageFocusColumns(storage, input.featuredImage),
          ...access,
          ...publicationColumns(publication),
          ...(options.showAsUpdated ? { modifiedAt: sql`now()` } : {}),
          createdById: actor.id,
        })
        .returning(revisionSourceColumns);
      await setArticleAuthors(tx, row!.id, authorIds);
      const tagged = input.tags?.length ? await setArticleTags(tx, row!.id, input.tags, actor) : [];
      if (options.newsletterIds !== undefined) await setArticleNewsletters(tx, row!.id, options.newsletterIds, actor);
      await recordRevision(tx, row!, actor);
      // Its videos' and posts' posters (issue 41): fetched once, in the background.
      await queueEmbedPosters(tx, row!.id, input.contentDoc);
      await recordActivity(tx, actor, {
        kind: "article.create",
        objectType: "article",
        objectId: row!.id,
        objectLabel: row!.title,
        details: { status: row!.status, ...(tagged.length ? { tags: tagged.map((t) => t.name) } : {}), ...accessChange(null, access) },
      });
      // "Live coverage" ticked in the new story's form (issue 31).
      if (options.startLive) await startLiveInSave(tx, actor, row!);
      // Published at once with someone else's byline: they hear of it as of any other publication.
      if (row!.status === "published") {
        await notifyPublished(tx, { id: row!.id, title: row!.title, slug: row!.slug }, actor.id);
        // "Send by e-mail" (issue 30): once per newsletter, in the transaction that makes it public.
        await queueStorySends(tx, { id: row!.id }, actor.id);
      }
      return { ...savedOf(row!), justPublished: row!.status === "published" };
    });
  } catch (error) {
    if (isAppError(error)) throw error;
    translateWriteError(error);
  }
}

/**
 * Updates an article by id with the same rules as create; an unknown id is "not_found". Without
 * `publication` its status and publication time stay as they are. The article and a revision (saved
 * by `actor`) are written in one transaction.
 */
export async function updateArticle(
  db: Db,
  storage: Storage,
  id: string,
  input: ArticleInput,
  publication?: Publication | ((previous: EditableArticle) => Publication),
  options: SaveOptions = {},
): Promise<SavedArticle> {
  return writeUpdate(db, storage, id, input, publication, options, (tx, row) => recordRevision(tx, row, options.actor ?? SYSTEM_ACTOR));
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The checks and the write of an update, with `record` (the revision) in the article's transaction;
 * `onlyIf` narrows which stored article may be written (an autosave: drafts only). A published (or
 * once published) article's old address is kept as a redirect to the new one (decision 0012).
 */
async function writeUpdate(
  db: Db,
  storage: Storage,
  id: string,
  input: ArticleInput,
  publication: Publication | ((previous: EditableArticle) => Publication) | undefined,
  options: SaveOptions,
  record: (tx: Tx, row: RevisionSource) => Promise<unknown>,
  onlyIf?: { check: (previous: EditableArticle) => void; status: ArticleStatus },
): Promise<SavedArticle> {
  const actor = options.actor ?? SYSTEM_ACTOR;
  if (options.newsletterIds !== undefined) checkCapability(actor, "newsletters.send", SEND_BY_EMAIL_FORBIDDEN);
  checkFeaturedImageText(input);
  const previous = await getArticleForEdit(db, id);
  if (!previous) throw articleGone();
  const ownership = await readOwnership(db, id, actor);
  if (ownership) checkMayEdit(actor, ownership);
  onlyIf?.check(previous);
  const next = typeof publication === "function" ? publication(previous) : publication;
  if (next && next.status !== "draft") checkCapability(actor, "articles.publish");
  await checkSlugFree(db, input.slug, id);
  await checkCategory(db, input.categoryId);
  const authorIds = input.authorIds === undefined ? undefined : await checkAuthorIds(db, input.authorIds);
  await checkMedia(storage, input, previous);
  await checkStoryImages(storage, input.contentDoc, previous);
  await checkAccessTier(db, input, previous);
  try {
    return await db.transaction(async (tx) => {
      // The stored row, locked: the slug it had and whether it was public are read in this transaction.
      const [stored] = await tx
        .select({ slug: articles.slug, status: articles.status, publishedAt: articles.publishedAt, access: articles.access, accessTierId: articles.accessTierId })
        .from(articles)
        .where(eq(articles.id, id))
        .for("update");
      if (!stored) throw articleGone();
      // Read again under the lock: published or handed to someone else since the checks above.
      const locked = await readOwnership(tx, id, actor);
      if (!locked) throw articleGone();
      checkMayEdit(actor, locked);
      // Changed since it was read (an autosave): no longer a draft.
      if (onlyIf && stored.status !== onlyIf.status) {
        const now = await getArticleForEdit(tx, id);
        if (!now) throw articleGone();
        onlyIf.check(now);
      }
      // Only "Unpublish…" takes a published or scheduled story off the site (decision 0033): a save
      // that would leave it a draft is refused whatever the request said.
      if (next?.status === "draft" && stored.status !== "draft") throw staysPublic();
      // Nor does a schedule (published since the checks above, by the scheduler or another tab).
      if (next?.status === "scheduled" && stored.status === "published") throw liveStaysLive();
      if (stored.slug !== input.slug) await claimRedirectedSlug(tx, input.slug, id, options.takeOverSlug ?? false);
      const access = await accessColumns(tx, input, stored);
      const [row] = await tx
        .update(articles)
        .set({
          ...columns(input),
          ...featuredImageFocusColumns(storage, input.featuredImage),
          ...access,
          ...(next ? publicationColumns(next) : {}),
          // Published or scheduled: it has left the review queue (decision 0017).
          ...(next && next.status !== "draft" ? CLEARED_REVIEW : {}),
          ...(options.showAsUpdated ? { modifiedAt: sql`now()` } : {}),
          updatedAt: new Date(),
        })
        .where(onlyIf ? and(eq(articles.id, id), eq(articles.status, onlyIf.status)) : eq(articles.id, id))
        .returning(revisionSourceColumns);
      if (!row) throw articleGone();
      // A published (or once published) article's old address keeps working: it redirects here.
      if (stored.slug !== row.slug && wasPublished(stored)) await recordSlugRedirect(tx, stored.slug, id);
      if (authorIds) await setArticleAuthors(tx, id, authorIds);
      // The tags as chosen (issue 29); the audit entry names them when they changed.
      const tagsChanged = input.tags !== undefined && !sameNames(input.tags, previous.tags);
      if (input.tags !== undefined) await setArticleTags(tx, id, input.tags, actor);
      // "Send by e-mail" (issue 30): never by an autosave, which saves the story's text only.
      if (options.newsletterIds !== undefined && !onlyIf) await setArticleNewsletters(tx, id, options.newsletterIds, actor);
      // The story itself now holds what was typed: its pending version ("Save for later") is applied.
      await tx.delete(articlePendingVersions).where(eq(articlePendingVersions.articleId, id));
      await record(tx, row);
      // Posters for embeds new to the story (issue 41): fetched once, in the background.
      await queueEmbedPosters(tx, id, input.contentDoc);
      // The audit trail (decision 0017): what the save did. A draft's autosave is left out: History
      // keeps it, and the log would fill with one entry per pause in typing.
      if (!onlyIf) {
        await recordActivity(tx, actor, {
          kind: saveKind(stored.status, row.status),
          objectType: "article",
          objectId: id,
          objectLabel: row.title,
          details: { status: row.status, ...(tagsChanged ? { tags: input.tags, tagsBefore: previous.tags } : {}), ...accessChange(stored, access) },
        });
        // "Live coverage" ticked (issue 31): never by an autosave either.
        if (options.startLive) await startLiveInSave(tx, actor, row);
      }
      if (saveKind(stored.status, row.status) === "article.publish") {
        await notifyPublished(tx, { id, title: row.title, slug: row.slug }, actor.id);
        // "Send by e-mail" (issue 30): once per newsletter ever; a republish finds it sent and adds nothing.
        await queueStorySends(tx, { id }, actor.id);
      }
      return { ...savedOf(row), justPublished: saveKind(stored.status, row.status) === "article.publish" };
    });
  } catch (error) {
    if (isAppError(error)) throw error;
    translateWriteError(error);
  }
}

/**
 * "Unpublish": a published or scheduled article goes back to draft (it leaves every public page at
 * once: the change trigger clears the page caches). A draft, or an unknown id, is refused.
 */
export async function unpublishArticle(db: Db, id: string, actor: Actor = SYSTEM_ACTOR): Promise<SavedArticle> {
  if (!isUuid(id)) throw articleGone();
  checkCapability(actor, "articles.publish");
  const saved = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(articles)
      .set({ status: "draft", updatedAt: new Date() })
      .where(and(eq(articles.id, id), inArray(articles.status, ["published", "scheduled"])))
      .returning(revisionSourceColumns);
    if (!row) return null;
    // Changes saved for later belonged to the live story: a draft is edited as itself (decision 0033).
    await tx.delete(articlePendingVersions).where(eq(articlePendingVersions.articleId, id));
    await recordRevision(tx, row, actor);
    await recordActivity(tx, actor, { kind: "article.unpublish", objectType: "article", objectId: id, objectLabel: row.title });
    return savedOf(row);
  });
  if (saved) return saved;
  if (!(await getArticleForEdit(db, id))) throw articleGone();
  throw new AppError("invalid_input", "This article is already a draft.");
}

/**
 * Deletes an article by id; its comments go with it (foreign key ON DELETE CASCADE). An author may
 * delete only their own drafts (checked under the row's lock).
 */
export async function deleteArticle(db: Db, id: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
  if (!isUuid(id)) throw articleGone();
  await db.transaction(async (tx) => {
    const ownership = await readOwnership(tx, id, actor, { lock: true });
    if (!ownership) throw articleGone();
    checkMayDelete(actor, ownership);
    const [deleted] = await tx.delete(articles).where(eq(articles.id, id)).returning({ title: articles.title, status: articles.status });
    await recordActivity(tx, actor, { kind: "article.delete", objectType: "article", objectId: id, objectLabel: deleted!.title, details: { status: deleted!.status } });
  });
}

// ---------------------------------------------------------------- the form's action

/**
 * Reads and validates a submitted article form and creates (no id) or updates (id) the article,
 * published, scheduled or as a draft as its button and "Publish at" (read in `timeZone`) ask (see
 * decidePublication), or keeps it as a published story's pending version ("Save for later"). Publishing
 * and scheduling are refused while a publish blocker remains (publishBlockers: the publish panel's
 * list). Throws an AppError for the route to answer with (see refuse in lib/forms); nothing is saved then.
 */
export async function saveArticleFromForm(
  db: Db,
  storage: Storage,
  values: Record<ArticleFieldName, string>,
  options: { id?: string; timeZone: string; now?: Date; actor?: Actor; newsletterIds?: readonly string[]; startLive?: boolean },
): Promise<SavedArticle> {
  const actor = options.actor ?? SYSTEM_ACTOR;
  // "Send by e-mail" from a role that may not send: refused before anything is read or written.
  if (options.newsletterIds !== undefined) checkCapability(actor, "newsletters.send", SEND_BY_EMAIL_FORBIDDEN);
  if (values.intent === "discard-pending") {
    if (!options.id) throw new AppError("invalid_input", "There are no changes to discard: this story is not saved yet.");
    return discardPendingVersion(db, options.id, actor);
  }
  const { publishAt, intent, input, showAsUpdated, takeOverSlug } = readArticleForm(values, options.timeZone);
  if (intent === "save-for-later") {
    if (!options.id) throw new AppError("invalid_input", SAVE_FOR_LATER_PUBLISHED_ONLY, { status: 409 });
    return savePendingVersion(db, storage, options.id, input, values.publishAt, { actor, autosave: false });
  }
  if (intent === "publish" || intent === "schedule") {
    // Who may publish first (a 403 says more than a missing category), then the publish panel's
    // blockers, enforced here whatever the browser showed.
    checkCapability(actor, "articles.publish");
    const [blocker] = publishBlockers(input);
    if (blocker) throw new AppError<ArticleFieldName>("invalid_input", blocker.message, { field: blocker.field });
  }
  const decide = (previous: Publication | null) => decidePublication(intent, publishAtOf(actor, publishAt, previous), previous, options.now);
  // Taking over another story's old address breaks that story's link, and "Show as updated" changes a
  // public story's date: publishing decisions, which a role that cannot publish does not make.
  const mayPublish = holdsCapability(actor, "articles.publish");
  const saveOptions: SaveOptions = {
    showAsUpdated: showAsUpdated && mayPublish,
    takeOverSlug: takeOverSlug && mayPublish,
    actor,
    ...(options.newsletterIds !== undefined ? { newsletterIds: options.newsletterIds } : {}),
    ...(options.startLive ? { startLive: true } : {}),
  };
  const saved = options.id
    ? await updateArticle(db, storage, options.id, input, decide, saveOptions)
    : await createArticle(db, storage, input, decide(null), saveOptions);
  // "Submit for review": saved as a draft, then queued for an editor.
  if (intent === "submit") await submitForReview(db, saved.id, actor);
  return saved;
}

/**
 * "Publish at" is a publishing decision: a role that cannot publish (an author) neither sets nor moves
 * it, whatever a crafted form sends; the stored time stays (an editor's planned time on a draft sent
 * back to its author, or none). The form does not offer it to them.
 */
function publishAtOf(actor: Actor, asked: Date | null, previous: { publishedAt: Date | null } | null): Date | null {
  return holdsCapability(actor, "articles.publish") ? asked : (previous?.publishedAt ?? null);
}

/** The submitted form parsed by the save schema, with "Publish at" read in `timeZone` (an AppError when it breaks a rule). */
export function readArticleForm(values: Record<ArticleFieldName, string>, timeZone: string) {
  const { publishAt: publishAtText, intent, showAsUpdated, takeOverSlug, ...input } = parseForm(articleSaveSchema, values, {
    required: REQUIRED_ARTICLE_FIELDS,
  });
  const publishAt = publishAtText === "" ? null : fromDateTimeLocal(publishAtText, timeZone);
  if (publishAtText !== "" && !publishAt) {
    throw new AppError<ArticleFieldName>("invalid_input", PUBLISH_AT_INVALID, { field: "publishAt" });
  }
  return { publishAt, intent, input, showAsUpdated, takeOverSlug };
}

// ---------------------------------------------------------------- pending versions ("Save for later")

/**
 * "Save for later" (and the autosave) of a published story: the form's checked fields become its
 * pending version (article_pending_versions), which readers never see; the story's own row is not
 * written (no cache is cleared, nothing reaches the feeds). The same checks as a save apply, so that
 * "Update Article" can publish it; a story that is not published is refused (409). History records it
 * as a pending revision, coalesced like a draft's autosaves.
 */
export async function savePendingVersion(
  db: Db,
  storage: Storage,
  id: string,
  input: ArticleInput,
  publishAtText: string,
  options: { actor: Actor; autosave: boolean },
): Promise<SavedArticle> {
  const { actor } = options;
  checkFeaturedImageText(input);
  const previous = await getArticleForEdit(db, id);
  if (!previous) throw articleGone();
  const ownership = await readOwnership(db, id, actor);
  if (ownership) checkMayEdit(actor, ownership);
  if (previous.status !== "published") throw new AppError("invalid_input", SAVE_FOR_LATER_PUBLISHED_ONLY, { status: 409 });
  // Only editors edit a published story (checkMayEdit); said once more for the pending version.
  checkCapability(actor, "articles.publish");
  await checkSlugFree(db, input.slug, id);
  await checkCategory(db, input.categoryId);
  const authorIds = input.authorIds === undefined ? previous.authorIds : await checkAuthorIds(db, input.authorIds);
  await checkMedia(storage, input, previous);
  await checkStoryImages(storage, input.contentDoc, previous);
  // The row's columns as a save would write them (the byline's text as typed: blank stays blank in the form).
  await checkAccessTier(db, input, previous);
  const fields: PendingFields = {
    ...columns(input),
    authorName: input.authorName ?? "",
    publishAt: publishAtText,
    authorIds,
    tags: input.tags ?? previous.tags,
    // Access (issue 40) waits with the rest: "Update Article" applies it with the story's text.
    access: input.access ?? previous.access,
    accessTierId: (input.access ?? previous.access) === "paid" ? (input.access ? (input.accessTierId ?? null) : previous.accessTierId) : null,
  };
  try {
    return await db.transaction(async (tx) => {
      // The story's row, locked (not written): still published, still theirs to edit.
      const [stored] = await tx
        .select({ status: articles.status, publishedAt: articles.publishedAt })
        .from(articles)
        .where(eq(articles.id, id))
        .for("update");
      if (!stored) throw articleGone();
      if (stored.status !== "published") throw new AppError("invalid_input", SAVE_FOR_LATER_PUBLISHED_ONLY, { status: 409 });
      const locked = await readOwnership(tx, id, actor);
      if (!locked) throw articleGone();
      checkMayEdit(actor, locked);
      const saved = { fields, savedAt: sql`now()`, savedById: actor.id, savedByName: actor.name };
      await tx
        .insert(articlePendingVersions)
        .values({ articleId: id, ...saved })
        .onConflictDoUpdate({ target: articlePendingVersions.articleId, set: saved });
      // Revisions keep neither access nor the search and social overrides (the pending version does).
      const {
        publishAt: _publishAt,
        authorName,
        tags: tagNames,
        access: _access,
        accessTierId: _accessTierId,
        seoTitle: _seoTitle,
        seoDescription: _seoDescription,
        socialImage: _socialImage,
        ...revision
      } = fields;
      await recordPendingRevision(
        tx,
        { id, ...revision, tagNames, authorName: authorName || DEFAULT_AUTHOR_NAME, status: stored.status, publishedAt: stored.publishedAt },
        actor,
        options.autosave,
      );
      return { id, slug: previous.slug, status: stored.status, publishedAt: stored.publishedAt };
    });
  } catch (error) {
    if (isAppError(error)) throw error;
    translateWriteError(error);
  }
}

/**
 * "Discard changes": drops a story's pending version (the live story stays as it is), under the
 * story's lock and with an entry in the audit trail: who threw away whose unpublished work is worth
 * knowing on a busy night. None to drop is "not_found".
 */
export async function discardPendingVersion(db: Db, id: string, actor: Actor): Promise<SavedArticle> {
  if (!isUuid(id)) throw articleGone();
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .select({ title: articles.title, slug: articles.slug, status: articles.status, publishedAt: articles.publishedAt })
      .from(articles)
      .where(eq(articles.id, id))
      .for("update");
    if (!stored) throw articleGone();
    const ownership = await readOwnership(tx, id, actor);
    if (ownership) checkMayEdit(actor, ownership);
    const [dropped] = await tx
      .delete(articlePendingVersions)
      .where(eq(articlePendingVersions.articleId, id))
      .returning({ savedByName: articlePendingVersions.savedByName, savedAt: articlePendingVersions.savedAt });
    if (!dropped) throw new AppError("not_found", "There are no saved changes to discard: the story is as readers see it.");
    await recordActivity(tx, actor, {
      kind: "article.discard_changes",
      objectType: "article",
      objectId: id,
      objectLabel: stored.title,
      details: { savedBy: dropped.savedByName, savedAt: dropped.savedAt.toISOString() },
    });
    return { id, slug: stored.slug, status: stored.status, publishedAt: stored.publishedAt };
  });
}

export const AUTOSAVE_DRAFTS_ONLY =
  "Autosave keeps drafts and changes to published stories only: this story is scheduled. Use Update Article to save it.";

/**
 * Autosave from the edit form: the same checks as a save (refused input saves nothing), never
 * publishing. A draft is saved as a draft (its "Publish at" kept as the planned time); a published
 * story's changes go to its pending version, never to the live story; a scheduled story is refused
 * (409). A draft's revision is coalesced (recordAutosave): one per editing session, not one per
 * keystroke. (Never "Show as updated" nor taking over another article's address.)
 */
export async function autosaveArticleFromForm(
  db: Db,
  storage: Storage,
  values: Record<ArticleFieldName, string>,
  options: { id: string; timeZone: string; actor: Actor },
): Promise<SavedArticle> {
  const { publishAt, input } = readArticleForm({ ...values, intent: "draft", showAsUpdated: "", takeOverSlug: "" }, options.timeZone);
  const stored = await getArticleForEdit(db, options.id);
  if (stored?.status === "published") {
    return savePendingVersion(db, storage, options.id, input, values.publishAt, { actor: options.actor, autosave: true });
  }
  const onlyDrafts = {
    status: "draft" as const,
    check: (previous: EditableArticle) => {
      if (previous.status !== "draft") throw new AppError("invalid_input", AUTOSAVE_DRAFTS_ONLY, { status: 409 });
    },
  };
  return writeUpdate(
    db,
    storage,
    options.id,
    input,
    (previous) => ({ status: "draft", publishedAt: publishAtOf(options.actor, publishAt, previous) }),
    // The actor's role rules apply to an autosave as to any save (an author: their own drafts only).
    { actor: options.actor },
    (tx, row) => recordAutosave(tx, row, options.actor),
    onlyDrafts,
  );
}

/** The article form's fields out of a submitted form. */
export const articleFormValues = (formData: FormData) => formValues(formData, ARTICLE_FIELDS);
