import { count, desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles, comments } from "~/db/schema";
import { isUuid } from "~/lib/ids";
import { AppError } from "~/lib/app-error";
import { SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";

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
}

/** One page of all comments (replies too) with their article's title and slug, newest first, and the total. */
export async function listCommentsForModeration(db: Db, page: number, pageSize: number): Promise<{ rows: ModeratedComment[]; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
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
      })
      .from(comments)
      .innerJoin(articles, eq(comments.articleId, articles.id))
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(comments),
  ]);
  return {
    rows: rows.map(({ parentCommentId, articleTitle, articleSlug, ...row }) => ({
      ...row,
      isReply: parentCommentId !== null,
      article: { title: articleTitle, slug: articleSlug },
    })),
    total,
  };
}

const commentGone = () => new AppError("not_found", "This comment no longer exists.");

/** Deletes a comment by id; its replies go with it (foreign key ON DELETE CASCADE). */
export async function deleteComment(db: Db, id: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
  if (!isUuid(id)) throw commentGone();
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(comments)
      .where(eq(comments.id, id))
      .returning({ authorName: comments.authorName, articleId: comments.articleId });
    if (!deleted) throw commentGone();
    await recordActivity(tx, actor, {
      kind: "comment.delete",
      objectType: "comment",
      objectId: id,
      objectLabel: `Comment by ${deleted.authorName}`,
      details: { articleId: deleted.articleId },
    });
  });
}
