import { z } from "zod";

/** The six categories every new site starts with (slug, name), in navigation order. */
export const DEFAULT_CATEGORIES = [
  { slug: "news", name: "News" },
  { slug: "entertainment", name: "Entertainment" },
  { slug: "sport", name: "Sports" },
  { slug: "worldnews", name: "World News" },
  { slug: "technology", name: "Technology" },
  { slug: "schools", name: "Schools" },
] as const;

/** Slug derivation: lowercase; every run of characters other than a–z and 0–9 becomes one hyphen; no hyphen at either end. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export const slugSchema = z
  .string()
  .trim()
  .min(1, "Slug is required")
  .max(200, "Slug must be at most 200 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and single hyphens only");

export const categoryInputSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
  slug: slugSchema,
});
export type CategoryInput = z.infer<typeof categoryInputSchema>;
