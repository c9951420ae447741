import { z } from "zod";
import { slugSchema } from "~/lib/slugs";

/** The spec's notice for a blank required field (article and category forms). */
export const MISSING_FIELDS = { title: "Missing fields", description: "Please fill in all required fields" } as const;

export const ARTICLE_SLUG_TAKEN = "This slug is already used by another article.";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when the text is a UUID (anything else can never name a row, so it is refused before the database sees it). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** An optional text field: blank (after trimming) becomes null. */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .transform((v) => (v === "" ? null : v));

/** An optional media URL: blank becomes null; the server also checks that it names a file of our own store. */
const optionalMediaUrl = z
  .string()
  .trim()
  .max(2000, "The media URL is too long")
  .transform((v) => (v === "" ? null : v));

/**
 * The article form's fields, as the browser sends them and as the server checks them.
 * Server-only rules (slug taken, media URL really ours) are added in article-admin.server.ts.
 */
export const articleInputSchema = z.object({
  title: z.string().trim().min(1, "Title is required").max(300, "Title must be at most 300 characters"),
  slug: slugSchema,
  categoryId: z
    .string()
    .trim()
    .refine((v) => v === "" || isUuid(v), "Choose a category from the list")
    .transform((v) => (v === "" ? null : v)),
  authorName: optionalText(120, "Author name"),
  excerpt: optionalText(1000, "Excerpt"),
  content: z.string().trim().min(1, "Content is required").max(200_000, "Content must be at most 200,000 characters"),
  featuredImage: optionalMediaUrl,
  videoUrl: optionalMediaUrl,
});

export type ArticleInput = z.infer<typeof articleInputSchema>;
export type ArticleFieldName = keyof z.input<typeof articleInputSchema>;
export type ArticleFieldErrors = Partial<Record<ArticleFieldName, string>>;

export const ARTICLE_FIELDS: ArticleFieldName[] = [
  "title",
  "slug",
  "categoryId",
  "authorName",
  "excerpt",
  "content",
  "featuredImage",
  "videoUrl",
];

/** The required fields: when any is blank the spec's "Missing fields" notice is shown. */
export const REQUIRED_ARTICLE_FIELDS = ["title", "slug", "content"] as const;

/** Reads the article fields out of a submitted form (absent fields count as blank). */
export function articleFormValues(formData: FormData): Record<ArticleFieldName, string> {
  const values = {} as Record<ArticleFieldName, string>;
  for (const name of ARTICLE_FIELDS) {
    const value = formData.get(name);
    values[name] = typeof value === "string" ? value : "";
  }
  return values;
}

export type ArticleParseResult =
  | { ok: true; input: ArticleInput }
  | { ok: false; missingFields: boolean; fieldErrors: ArticleFieldErrors };

/** Validates submitted article fields; `missingFields` says a required field was blank (the spec's toast). */
export function parseArticleInput(values: Record<ArticleFieldName, string>): ArticleParseResult {
  const result = articleInputSchema.safeParse(values);
  if (result.success) return { ok: true, input: result.data };
  const fieldErrors: ArticleFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ArticleFieldName;
    fieldErrors[field] ??= issue.message;
  }
  const missingFields = REQUIRED_ARTICLE_FIELDS.some((f) => values[f].trim() === "");
  return { ok: false, missingFields, fieldErrors };
}

/** What the article form's action answers when it does not redirect (status 400/404). */
export interface ArticleFormFailure {
  /** A required field was blank: the spec's "Missing fields" notice. */
  missingFields: boolean;
  fieldErrors: ArticleFieldErrors;
  /** A message for the "Error" notice (slug taken, unknown category, foreign media, gone article). */
  formError: string | null;
  /** The submitted values, so the form shows them again (also without JavaScript). */
  values: Record<ArticleFieldName, string>;
}

