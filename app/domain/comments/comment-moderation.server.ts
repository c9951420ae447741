import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles, commentBlocks, comments } from "~/db/schema";
import { isUuid } from "~/lib/ids";
import { AppError } from "~/lib/app-error";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import type { CommentHoldReason } from "./comments.schema";

/** The moderation screen's tabs: published comments, and those held for moderation. */
export type ModerationTab = "published" | "pending";

export interface ModeratedComment {
  id: string;
  authorName: string;
  authorEmail: string;
  content: string;
  imageUrl: string | null;
  videoUrl: string | null;
  createdAt: Date;
  isReply: boolean;
  article: { title: string; slug: string };
  heldReason: CommentHoldReason | null;
  /** The client address it came from (null for comments from before addresses were kept). */
  authorAddress: string | null;
}

/**
 * One page of a tab's comments (replies too) with their article's title and slug, newest first, the
 * tab's total, and how many are pending (the Pending tab's count).
 */
export async function listCommentsForModeration(
  db: Db,
  page: number,
  pageSize: number,
  tab: ModerationTab = "published",
): Promise<{ rows: ModeratedComment[]; total: number; pending: number }> {
  const inTab = eq(comments.status, tab);
  const [rows, [{ total }], [{ pending }]] = await Promise.all([
    db
      .select({
        id: comments.id,
        authorName: comments.authorName,
        authorEmail: comments.authorEmail,
        content: comments.content,
        imageUrl: comments.imageUrl,
        videoUrl: comments.videoUrl,
        createdAt: comments.createdAt,
        parentCommentId: comments.parentCommentId,
        articleTitle: articles.title,
        articleSlug: articles.slug,
        heldReason: comments.heldReason,
        authorAddress: comments.authorAddress,
      })
      .from(comments)
      .innerJoin(articles, eq(comments.articleId, articles.id))
      .where(inTab)
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(comments).where(inTab),
    db.select({ pending: count() }).from(comments).where(eq(comments.status, "pending")),
  ]);
  return {
    rows: rows.map(({ parentCommentId, articleTitle, articleSlug, heldReason, ...row }) => ({
      ...row,
      heldReason: heldReason as CommentHoldReason | null,
      isReply: parentCommentId !== null,
      article: { title: articleTitle, slug: articleSlug },
    })),
    total,
    pending,
  };
}

/** The most comments one bulk action takes (a page of the list). */
export const MAX_BULK_COMMENTS = 100;

function checkedIds(ids: readonly string[]): string[] {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw new AppError("invalid_input", "Select at least one comment.");
  if (unique.length > MAX_BULK_COMMENTS) throw new AppError("invalid_input", `Select at most ${MAX_BULK_COMMENTS} comments at once.`);
  if (!unique.every(isUuid)) throw commentGone();
  return unique;
}

/** One audit entry per comment a moderator acted on. */
async function recordCommentActivity(
  tx: Parameters<Parameters<Db["transaction"]>[0]>[0],
  actor: Actor,
  kind: "comment.approve" | "comment.delete",
  acted: { id: string; authorName: string; articleId: string }[],
) {
  for (const comment of acted) {
    await recordActivity(tx, actor, { kind, objectType: "comment", objectId: comment.id, objectLabel: `Comment by ${comment.authorName}`, details: { articleId: comment.articleId } });
  }
}

/** Publishes held comments (they appear to readers at once). Answers how many were approved; none left pending is "gone". */
export async function approveComments(db: Db, ids: readonly string[], actor: Actor = SYSTEM_ACTOR): Promise<number> {
  const wanted = checkedIds(ids);
  return db.transaction(async (tx) => {
    const approved = await tx
      .update(comments)
      .set({ status: "published", heldReason: null })
      .where(and(inArray(comments.id, wanted), eq(comments.status, "pending")))
      .returning({ id: comments.id, authorName: comments.authorName, articleId: comments.articleId });
    if (approved.length === 0) throw new AppError("not_found", "These comments are no longer waiting for moderation.");
    await recordCommentActivity(tx, actor, "comment.approve", approved);
    return approved.length;
  });
}

/** Deletes several comments (and their replies) at once; answers how many were deleted. */
export async function deleteComments(db: Db, ids: readonly string[], actor: Actor = SYSTEM_ACTOR): Promise<number> {
  const wanted = checkedIds(ids);
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(comments)
      .where(inArray(comments.id, wanted))
      .returning({ id: comments.id, authorName: comments.authorName, articleId: comments.articleId });
    if (deleted.length === 0) throw commentGone();
    await recordCommentActivity(tx, actor, "comment.delete", deleted);
    return deleted.length;
  });
}

export interface CommentBlock {
  id: string;
  kind: "email" | "address";
  value: string;
  createdAt: Date;
}

/**
 * "Block this e-mail/address": later comments from the e-mail address (or client address) of this
 * comment are held for moderation. Answers the block (an existing one when it was blocked already).
 */
export async function blockCommenter(db: Db, commentId: string, kind: CommentBlock["kind"], actor: Actor = SYSTEM_ACTOR): Promise<CommentBlock> {
  if (!isUuid(commentId)) throw commentGone();
  return db.transaction(async (tx) => {
    const [comment] = await tx
      .select({ email: comments.authorEmail, address: comments.authorAddress })
      .from(comments)
      .where(eq(comments.id, commentId))
      .limit(1);
    if (!comment) throw commentGone();
    const value = kind === "email" ? comment.email.trim().toLowerCase() : comment.address;
    if (!value) throw new AppError("invalid_input", "This comment was posted before addresses were kept: block its e-mail instead.");
    await tx.insert(commentBlocks).values({ kind, value }).onConflictDoNothing();
    const [block] = await tx.select().from(commentBlocks).where(and(eq(commentBlocks.kind, kind), eq(commentBlocks.value, value)));
    await recordActivity(tx, actor, { kind: "comment.block", objectType: "comment", objectId: commentId, objectLabel: `Blocked ${kind === "email" ? "e-mail" : "address"} ${value}` });
    return block!;
  });
}

/** Every block, newest first. */
export async function listCommentBlocks(db: Db): Promise<CommentBlock[]> {
  return db.select().from(commentBlocks).orderBy(desc(commentBlocks.createdAt));
}

/** Lifts a block. */
export async function unblockCommenter(db: Db, blockId: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
  if (!isUuid(blockId)) throw new AppError("not_found", "This block no longer exists.");
  await db.transaction(async (tx) => {
    const [removed] = await tx.delete(commentBlocks).where(eq(commentBlocks.id, blockId)).returning();
    if (!removed) throw new AppError("not_found", "This block no longer exists.");
    await recordActivity(tx, actor, { kind: "comment.unblock", objectType: "comment", objectLabel: `Unblocked ${removed.kind === "email" ? "e-mail" : "address"} ${removed.value}` });
  });
}

const commentGone = () => new AppError("not_found", "This comment no longer exists.");

/** Deletes a comment by id; its replies go with it (foreign key ON DELETE CASCADE). */
export async function deleteComment(db: Db, id: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
  await deleteComments(db, [id], actor);
}
