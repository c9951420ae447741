import { z } from "zod";

export const MISSING_FIELDS = { title: "Missing fields", description: "Please fill in all required fields." } as const;
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
  // A field left out altogether is missing too, not a type error.
  authorName: z.string({ error: MISSING_FIELDS.description }).trim().min(1, MISSING_FIELDS.description).max(100, "Name must be at most 100 characters."),
  authorEmail: z
    .string({ error: MISSING_FIELDS.description })
    .trim()
    .min(1, MISSING_FIELDS.description)
    .max(254, "E-mail must be at most 254 characters.")
    .pipe(z.email("Please enter a valid e-mail address.")),
  content: z.string({ error: MISSING_FIELDS.description }).trim().min(1, MISSING_FIELDS.description).max(5000, "Comments can be at most 5,000 characters."),
  parentCommentId: z
    .uuid("That comment does not exist.")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  imageUrl: mediaUrl("images"),
  videoUrl: mediaUrl("videos"),
});
export type CommentInput = z.infer<typeof commentInputSchema>;
