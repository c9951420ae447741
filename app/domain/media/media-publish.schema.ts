import { z } from "zod";
import { slugify } from "~/lib/slugs";
import { featuredImageTextFields } from "~/domain/articles/articles.schema";

/** The media library's buckets and the tab each one is shown under. */
export const MEDIA_TABS = [
  { bucket: "images", kind: "image", label: "Images", hint: "Select image (JPEG, PNG, GIF, WebP - Max 10MB)" },
  { bucket: "videos", kind: "video", label: "Videos", hint: "Select video (MP4, WebM, QuickTime - Max 100MB)" },
  { bucket: "files", kind: "file", label: "Files", hint: "Select file (PDF, Word, Excel - Max 50MB)" },
] as const;
export type MediaBucket = (typeof MEDIA_TABS)[number]["bucket"];

/** media.source of a reader's comment attachment (the newsroom's own are "library" and "branding"). */
export const READER_UPLOAD_SOURCE = "comment";

/** At most this many files are listed per tab, newest first. */
export const MEDIA_LIST_LIMIT = 200;

const mediaNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]{0,120}$/i, "Unknown media file")
  .refine((name) => !name.includes(".."), "Unknown media file");

export const mediaRefSchema = z.object({
  bucket: z.enum(["images", "videos", "files"], { error: "Unknown media bucket" }),
  name: mediaNameSchema,
});

/**
 * The "Publish Article with Media" form: title and content required; an empty category is null; an
 * image needs its alt text (checked by the service, which knows the file is an image: it becomes
 * the featured image).
 */
export const publishMediaSchema = mediaRefSchema.extend({
  title: z
    .string()
    .trim()
    .min(1, "Title is required")
    .max(300, "Title must be at most 300 characters")
    .refine((title) => slugify(title).length > 0, "The title needs at least one letter or digit to make a slug"),
  categoryId: z
    .string()
    .trim()
    .transform((v) => v || null)
    .pipe(z.uuid({ error: "Unknown category" }).nullable()),
  excerpt: z
    .string()
    .trim()
    .max(1000, "Excerpt must be at most 1000 characters")
    .transform((v) => v || null),
  content: z.string().trim().min(1, "Content is required").max(200_000, "Content is too long"),
  featuredImageAlt: featuredImageTextFields.featuredImageAlt,
});
export type PublishMediaInput = z.infer<typeof publishMediaSchema>;
