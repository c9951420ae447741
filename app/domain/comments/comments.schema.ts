import type { Refusal } from "~/lib/forms";

// Browser-safe: no zod here, so the reader's article page does not load it (the checks are in comments.server.ts).

export const COMMENT_FAILED = "Failed to post comment. Please try again.";

/** Top-level comments an article page shows at first, and how many more "Show older comments" adds. */
export const COMMENT_THREADS_PER_PAGE = 100;

/** The comment form's field names (checked on the server by commentInputSchema in comments.server.ts). */
export type CommentFieldName = "authorName" | "authorEmail" | "content" | "parentCommentId" | "imageUrl" | "videoUrl";

/** The comment form's fields; a field left out altogether reads as blank, so it is missing too. */
export const COMMENT_FIELDS: CommentFieldName[] = ["authorName", "authorEmail", "content", "parentCommentId", "imageUrl", "videoUrl"];
export const REQUIRED_COMMENT_FIELDS = ["authorName", "authorEmail", "content"] as const;

/** What posting a comment answers the form: the spec's toasts are chosen from it. */
export type PostCommentResult = { ok: true } | Refusal<CommentFieldName>;

/** What a public page may show of a comment: never the author's e-mail. */
export interface PublicComment {
  id: string;
  parentCommentId: string | null;
  authorName: string;
  content: string;
  imageUrl: string | null;
  videoUrl: string | null;
  createdAt: Date;
}

export interface CommentThread extends PublicComment {
  replies: PublicComment[];
}
