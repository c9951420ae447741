import { and, count, eq, isNull, sql, type Placeholder, type SQL } from "drizzle-orm";
import { z } from "zod";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared-queries.server";
import { articles, comments, media } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { expectedOr, MISSING_FIELDS, parseForm } from "~/lib/forms";
import type { Logger } from "~/lib/logger.server";
import { takeAllowance, type LimitRule } from "~/lib/rate-limit.server";
import { isSlug } from "~/lib/slugs";
import { notifyCommentsPending } from "~/domain/notifications/notifications.server";
import { screenComment, type CommentSpamRules } from "./comment-spam.server";
import { COMMENT_FAILED, COMMENT_THREADS_PER_PAGE, REQUIRED_COMMENT_FIELDS, type CommentFieldName, type CommentHoldReason } from "./comments.schema";
import type { CommentThread, PublicComment } from "./comments.schema";
import { commentCountsKey, readEveryTime, type StoryMemo } from "~/domain/articles/story-memo.server";

/** A new comment or reply, as the form sends it: the server's checks (kept out of the browser-safe comments.schema). */
const mediaUrl = (bucket: "images" | "videos") =>
  z
    .string()
    .trim()
    .max(300)
    .regex(new RegExp(`^/media/${bucket}/[A-Za-z0-9][A-Za-z0-9.-]*$`), "Attachments must be uploaded through the comment form.")
    .optional()
    .or(z.literal("").transform(() => undefined));

export const commentInputSchema = z.object({
  authorName: z.string().trim().min(1, MISSING_FIELDS.commentDescription).max(100, "Name must be at most 100 characters."),
  authorEmail: z
    .string()
    .trim()
    .min(1, MISSING_FIELDS.commentDescription)
    .max(254, "E-mail must be at most 254 characters.")
    .pipe(z.email("Please enter a valid e-mail address.")),
  content: z.string().trim().min(1, MISSING_FIELDS.commentDescription).max(5000, "Comments can be at most 5,000 characters."),
  parentCommentId: z
    .uuid("That comment does not exist.")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  imageUrl: mediaUrl("images"),
  videoUrl: mediaUrl("videos"),
});
export type CommentInput = z.infer<typeof commentInputSchema>;

// The schema's fields are exactly the form's field names (a type check: it fails to compile otherwise).
type SchemaFields = keyof z.input<typeof commentInputSchema>;
const _sameFields: [SchemaFields] extends [CommentFieldName] ? ([CommentFieldName] extends [SchemaFields] ? true : never) : never = true;

/** Only published comments are ever shown to readers (a pending one awaits moderation). */
const published = eq(comments.status, "published");

const articleGone = () => new AppError("not_found", "That article no longer exists.");

const publicColumns = {
  id: comments.id,
  parentCommentId: comments.parentCommentId,
  authorName: comments.authorName,
  content: comments.content,
  imageUrl: comments.imageUrl,
  videoUrl: comments.videoUrl,
  createdAt: comments.createdAt,
};

/** Newest first, as the index of an article's threads (migration 0020) holds them: both columns are never null. */
const newestThreadsFirst = [sql`${comments.createdAt} desc nulls last`, sql`${comments.id} desc nulls last`];

/**
 * A thread's published replies, oldest first, read with the thread's row: a page of threads and their
 * replies is one query (issue 13). Their times come as JSON text and are made dates again. Written
 * by hand: drizzle leaves a lone table's columns unqualified, and this subquery reads the same table.
 */
const repliesColumn = sql<PublicComment[]>`coalesce((
  select json_agg(json_build_object('id', reply.id, 'parentCommentId', reply.parent_comment_id, 'authorName', reply.author_name,
    'content', reply.content, 'imageUrl', reply.image_url, 'videoUrl', reply.video_url, 'createdAt', reply.created_at)
    order by reply.created_at, reply.id)
  from ${comments} reply
  where reply.parent_comment_id = "comments"."id" and reply.article_id = "comments"."article_id" and reply.status = 'published'), '[]'::json)`.mapWith(
  (replies: (Omit<PublicComment, "createdAt"> & { createdAt: string })[]) => replies.map((r) => ({ ...r, createdAt: new Date(r.createdAt) })),
);

/**
 * One page of an article's top-level comments, newest first, each with its replies underneath
 * (oldest first): the newest ones, or with `olderThan` (a top-level comment's id) those after it.
 * `olderThreads` counts the top-level comments past this page; `total` counts every published comment,
 * replies included. An `olderThan` that names no top-level comment of this article gives the newest
 * page. The page is read from the article's index of threads in page order, 20 entries however many
 * threads it has (issue 39), and the counts from its index alone (issue 13), kept in `kept.memo` (a
 * process's story memo) until a comment of the article changes: a story with 5,000 comments counted
 * them at every render.
 */
export async function listArticleComments(
  db: Db,
  articleId: string,
  options: { olderThan?: string; limit?: number; kept?: { memo: StoryMemo; slug: string } } = {},
): Promise<{ threads: CommentThread[]; olderThreads: number; total: number }> {
  const limit = options.limit ?? COMMENT_THREADS_PER_PAGE;
  const [cursor] =
    options.olderThan && /^[0-9a-f-]{36}$/i.test(options.olderThan)
      ? await db.select({ id: comments.id }).from(comments).where(and(threadsOf(articleId), eq(comments.id, options.olderThan)))
      : [];
  const memo = options.kept?.memo ?? readEveryTime;
  const countsKey = commentCountsKey(options.kept?.slug ?? articleId, cursor?.id ?? "");
  let threads: CommentThread[];
  let counts: ThreadCounts;
  if (cursor) {
    // Those after the cursor, ordered as the page lists them; compared in the database (microseconds),
    // so no comment is skipped or shown twice between pages. Two conditions, not a row comparison: the
    // scan of the descending index starts at the cursor (from a row comparison it starts at the newest).
    const at = sql`(select c.created_at from comments c where c.id = ${cursor.id})`;
    const afterCursor = sql`(${comments.createdAt} <= ${at} and (${comments.createdAt} < ${at} or ${comments.id} < ${cursor.id}))`;
    [threads, [counts]] = await Promise.all([threadsQuery(db, articleId, limit, afterCursor), memo(countsKey, () => countsQuery(db, articleId, afterCursor))]);
  } else {
    [threads, [counts]] = await Promise.all([firstThreads(db, { articleId, limit }), memo(countsKey, () => allCounts(db, { articleId }))]);
  }
  return {
    threads,
    olderThreads: Math.max(0, (counts?.threadsFromHere ?? 0) - threads.length),
    total: counts?.total ?? 0,
  };
}

type ThreadCounts = { total: number; threadsFromHere: number } | undefined;

/** An article's published comments (its id, or the placeholder a query built once is given it by). */
const publishedOf = (articleId: string | Placeholder) => and(eq(comments.articleId, articleId), published);
/** Its threads: the published top-level comments. */
const threadsOf = (articleId: string | Placeholder) => and(publishedOf(articleId), isNull(comments.parentCommentId));

/** A page of an article's top-level comments, newest first (after `afterCursor` when given), with their replies. */
const threadsQuery = (db: Db, articleId: string | Placeholder, limit: number | Placeholder, afterCursor?: SQL) =>
  db
    .select({ ...publicColumns, replies: repliesColumn })
    .from(comments)
    .where(and(threadsOf(articleId), afterCursor))
    .orderBy(...newestThreadsFirst)
    .limit(limit);

/** An article's published comments, and its threads from `afterCursor` on (all of them without one). */
const countsQuery = (db: Db, articleId: string | Placeholder, afterCursor?: SQL) =>
  db
    .select({
      total: count(),
      // The threads from this page on: those past it are the older ones.
      threadsFromHere: sql<number>`count(*) filter (where ${comments.parentCommentId} is null and ${afterCursor ?? sql`true`})`.mapWith(Number),
    })
    .from(comments)
    .where(publishedOf(articleId));

/** An article's first page (nearly every read), in a statement built once. */
const firstThreads = preparedQuery("first_comment_threads", (db, name) => threadsQuery(db, sql.placeholder("articleId"), sql.placeholder("limit")).prepare(name));
const allCounts = preparedQuery("comment_counts", (db, name) => countsQuery(db, sql.placeholder("articleId")).prepare(name));

async function assertStoredMedia(db: Db, url: string | undefined, bucket: "images" | "videos") {
  if (!url) return;
  const name = decodeURIComponent(url.slice(`/media/${bucket}/`.length));
  const [row] = await db
    .select({ contentType: media.contentType })
    .from(media)
    .where(and(eq(media.bucket, bucket), eq(media.name, name)))
    .limit(1);
  const kind = bucket === "images" ? "image/" : "video/";
  if (!row || !row.contentType.startsWith(kind)) {
    throw new AppError("invalid_media", "The attachment was not found. Please upload it again.");
  }
}

/**
 * Adds a comment or a reply to an article. A reply must answer a top-level comment of the same
 * article (replies are one level deep); attachments must be files uploaded to our store.
 */
export async function createComment(
  db: Db,
  articleId: string,
  input: CommentInput,
  options: { heldReason?: CommentHoldReason | null; authorAddress?: string } = {},
): Promise<PublicComment> {
  // Readers comment on public articles only: a draft or a scheduled article is "gone" to them.
  const [article] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(and(eq(articles.id, articleId), publiclyVisible()))
    .limit(1);
  if (!article) throw articleGone();
  if (input.parentCommentId) {
    const [parent] = await db
      .select({ articleId: comments.articleId, parentCommentId: comments.parentCommentId })
      .from(comments)
      .where(and(eq(comments.id, input.parentCommentId), published))
      .limit(1);
    if (!parent || parent.articleId !== articleId) throw new AppError("invalid_input", "The comment you are replying to no longer exists.");
    if (parent.parentCommentId) throw new AppError("invalid_input", "Replies can only be one level deep: reply to the original comment instead.");
  }
  await assertStoredMedia(db, input.imageUrl, "images");
  await assertStoredMedia(db, input.videoUrl, "videos");
  const insert = (writer: Pick<Db, "insert">) =>
    writer
      .insert(comments)
      .values({
        articleId,
        parentCommentId: input.parentCommentId ?? null,
        authorName: input.authorName,
        authorEmail: input.authorEmail,
        content: input.content,
        imageUrl: input.imageUrl ?? null,
        videoUrl: input.videoUrl ?? null,
        status: options.heldReason ? "pending" : "published",
        heldReason: options.heldReason ?? null,
        authorAddress: options.authorAddress ?? null,
      })
      .returning(publicColumns);
  if (!options.heldReason) return (await insert(db))[0]!;
  // A comment held for moderation tells editors and admins, in its own transaction (issue 27).
  return db.transaction(async (tx) => {
    const [row] = await insert(tx);
    await notifyCommentsPending(tx);
    return row!;
  });
}

/** Anyone may comment: an address may post this many comments and replies an hour. */
export const COMMENT_POST_LIMIT: LimitRule = {
  bucket: "comment",
  max: 30,
  windowMs: 60 * 60 * 1000,
  refusal: "You have posted many comments in a short time.",
};

/**
 * Posts a comment from the fields a form sent to the article with this slug: the per-address limit
 * (when `clientIp` is given), validation, the spam rules (when `spam` is given: the routes always give
 * them), the one-level reply rule and attachment checks. Throws an AppError for every refusal (the
 * routes answer it with refuse); an unexpected failure is logged and refused as the spec's "Failed to
 * post comment". Answers whether the comment was held for moderation, and its id.
 */
export async function postComment(
  db: Db,
  log: Logger,
  articleSlug: string,
  values: Record<CommentFieldName, string> & { website?: string; formStarted?: string },
  clientIp?: string,
  spam?: CommentSpamRules,
): Promise<{ held: boolean; id: string }> {
  const [article] = isSlug(articleSlug)
    ? await db
        .select({ id: articles.id })
        .from(articles)
        .where(and(eq(articles.slug, articleSlug), publiclyVisible()))
        .limit(1)
    : [];
  if (!article) throw articleGone();
  if (clientIp !== undefined) {
    const allowance = await takeAllowance(db, COMMENT_POST_LIMIT, clientIp);
    if (allowance.limited) throw new AppError("rate_limited", allowance.message);
  }
  const input = parseForm(commentInputSchema, values, { required: REQUIRED_COMMENT_FIELDS, missingMessage: MISSING_FIELDS.commentDescription });
  const heldReason = spam
    ? await screenComment(db, spam, {
        articleId: article.id,
        email: input.authorEmail,
        content: input.content,
        honeypot: values.website ?? "",
        formStarted: values.formStarted ?? "",
        clientIp,
      })
    : null;
  let comment: PublicComment;
  try {
    comment = await createComment(db, article.id, input, { heldReason, authorAddress: clientIp });
  } catch (error) {
    throw expectedOr(error, COMMENT_FAILED, (err) => log.error({ err }, "could not save a comment"));
  }
  if (heldReason) log.info({ articleId: article.id, reason: heldReason }, "comment held for moderation");
  return { held: heldReason !== null, id: comment.id };
}
