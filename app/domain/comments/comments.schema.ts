import { z } from "zod";
import { MISSING_FIELDS, type Refusal } from "~/lib/forms";

export const COMMENT_FAILED = "Failed to post comment. Please try again.";

/** Top-level comments an article page shows at first, and how many more "Show older comments" adds. */
export const COMMENT_THREADS_PER_PAGE = 100;

const mediaUrl = (bucket: "images" | "videos") =>
  z
    .string()
    .trim()
    .max(300)
    .regex(new RegExp(`^/media/${bucket}/[A-Za-z0-9][A-Za-z0-9.-]*$`), "Attachments must be uploaded through the comment form.")
    .optional()
    .or(z.literal("").transform(() => undefined));

/** A new comment or reply, as the form sends it. */
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
export type CommentFieldName = keyof z.input<typeof commentInputSchema>;

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
