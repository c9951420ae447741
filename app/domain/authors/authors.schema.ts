import { z } from "zod";
import { slugSchema } from "~/lib/slugs";
import { formatQuantity } from "~/lib/numbers";

export { joinNames, type BylineAuthor } from "./byline";

export const AUTHOR_BIO_MAX = 2000;
export const AUTHOR_SLUG_TAKEN = "This slug is already used by another author.";
export const UNKNOWN_AUTHOR = "One of the chosen authors no longer exists: choose the authors again.";

/** An optional text field: blank (after trimming) becomes null. */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .transform((v) => (v === "" ? null : v));

/** An optional link: blank becomes null; otherwise an absolute http(s) URL. */
const optionalLink = (label: string) =>
  z
    .string()
    .trim()
    .max(500, `${label} must be at most 500 characters`)
    .refine((v) => v === "" || isHttpUrl(v), `${label} must be a web address starting with http:// or https://`)
    .transform((v) => (v === "" ? null : v));

/** True for an absolute http: or https: URL (no javascript:, data:, relative paths). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** The author form's fields, as the browser sends them and as the server checks them. */
export const authorInputSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(120, "Name must be at most 120 characters"),
  slug: slugSchema,
  roleTitle: optionalText(120, "Role title"),
  bio: optionalText(AUTHOR_BIO_MAX, "Bio"),
  photoUrl: z
    .string()
    .trim()
    .max(2000, "The photo URL is too long")
    .transform((v) => (v === "" ? null : v)),
  websiteUrl: optionalLink("Website"),
  xUrl: optionalLink("X profile"),
  linkedinUrl: optionalLink("LinkedIn profile"),
  /** The back-office account this author is (blank: none, a guest writer); the server checks it exists and is free. */
  userId: z
    .string()
    .trim()
    .max(200, "Choose an account from the list")
    .transform((v) => (v === "" ? null : v)),
});
export type AuthorInput = z.infer<typeof authorInputSchema>;
export type AuthorFieldName = keyof z.input<typeof authorInputSchema>;
export const AUTHOR_FIELDS: AuthorFieldName[] = ["name", "slug", "roleTitle", "bio", "photoUrl", "websiteUrl", "xUrl", "linkedinUrl", "userId"];
export const ACCOUNT_TAKEN = "This account already has an author record: an account can be one author only.";
export const UNKNOWN_ACCOUNT = "Choose an account from the list.";
export const REQUIRED_AUTHOR_FIELDS = ["name", "slug"] as const;

/** An author as the back office lists and edits them. */
export interface AdminAuthor {
  id: string;
  name: string;
  slug: string;
  roleTitle: string | null;
  bio: string | null;
  photoUrl: string | null;
  websiteUrl: string | null;
  xUrl: string | null;
  linkedinUrl: string | null;
  userId: string | null;
  articleCount: number;
}

/**
 * What deleting an author does (decision 0015), as the confirm dialog says it: they leave every
 * byline; an article left with no author keeps their name as its plain-text Author Name.
 */
export function deleteAuthorWarning(name: string, articleCount: number): string {
  if (articleCount === 0) return `Delete ${name}? They are not on any article.`;
  const articlesText = formatQuantity(articleCount, "article");
  return `Delete ${name}? They are removed from the byline of ${articlesText}; an article left with no author keeps “${name}” as its byline text, without a link. Their author page goes away.`;
}
