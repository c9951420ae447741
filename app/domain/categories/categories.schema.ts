import { z } from "zod";
import { slugSchema } from "~/lib/slugs";

/** The six categories every new site starts with (slug, name), in navigation order. */
export const DEFAULT_CATEGORIES = [
  { slug: "news", name: "News" },
  { slug: "entertainment", name: "Entertainment" },
  { slug: "sport", name: "Sports" },
  { slug: "worldnews", name: "World News" },
  { slug: "technology", name: "Technology" },
  { slug: "schools", name: "Schools" },
] as const;

export const categoryInputSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
  slug: slugSchema,
});
export type CategoryInput = z.infer<typeof categoryInputSchema>;
export type CategoryFieldName = keyof CategoryInput;
export const CATEGORY_FIELDS: CategoryFieldName[] = ["name", "slug"];

export interface CategorySummary {
  id: string;
  name: string;
  slug: string;
}
