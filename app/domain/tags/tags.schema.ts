import { z } from "zod";
import { slugify } from "~/lib/slugs";

// Tags (issue 29): the rules both the article form's picker and the server read. Browser-safe.

/** The longest tag name. */
export const TAG_NAME_MAX = 50;
/** The most tags one story carries. */
export const MAX_TAGS_PER_ARTICLE = 20;

export const TAG_NAME_REQUIRED = "Name is required";
export const TAG_NAME_TOO_LONG = `A tag name must be at most ${TAG_NAME_MAX} characters.`;
export const TAG_NAME_NO_COMMA = "A tag name cannot contain a comma (commas separate tags).";
export const TAG_NAME_NO_LETTERS = "A tag name needs at least one letter or digit (a–z, 0–9) to make its address.";
export const TOO_MANY_TAGS = `A story can carry at most ${MAX_TAGS_PER_ARTICLE} tags.`;

/** One tag's name as typed: trimmed, inner spaces collapsed. */
export function normalizeTagName(name: string): string {
  return name.trim().replace(/\s+/g, " ");
}

/** What is wrong with a tag name, or null when it makes a tag. */
export function tagNameProblem(name: string): string | null {
  const n = normalizeTagName(name);
  if (n === "") return TAG_NAME_REQUIRED;
  if (n.includes(",")) return TAG_NAME_NO_COMMA;
  if (n.length > TAG_NAME_MAX) return TAG_NAME_TOO_LONG;
  if (slugify(n) === "") return TAG_NAME_NO_LETTERS;
  return null;
}

/**
 * The article form's tags: names separated by commas (the picker's hidden field, or the plain text
 * input without JavaScript). Blanks are dropped; names with the same address count once, the first kept.
 */
export function parseTagNames(text: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const raw of text.split(",")) {
    const name = normalizeTagName(raw);
    if (name === "") continue;
    const slug = slugify(name);
    const key = slug === "" ? `\0${name}` : slug;
    if (seen.has(key)) continue;
    seen.add(key);
    names.push(name);
  }
  return names;
}

/** The article form's `tags` field: comma-separated names, each checked, at most MAX_TAGS_PER_ARTICLE. */
export const tagNamesField = z
  .string()
  .max(4000, TOO_MANY_TAGS)
  .transform((text, ctx) => {
    const names = parseTagNames(text);
    if (names.length > MAX_TAGS_PER_ARTICLE) {
      ctx.addIssue({ code: "custom", message: TOO_MANY_TAGS });
      return z.NEVER;
    }
    for (const name of names) {
      const problem = tagNameProblem(name);
      if (problem) {
        ctx.addIssue({ code: "custom", message: `“${name}”: ${problem}` });
        return z.NEVER;
      }
    }
    return names;
  });

/** /admin/tags: a new name for a tag. */
export const tagRenameSchema = z.object({
  name: z.string().superRefine((value, ctx) => {
    const problem = tagNameProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }).transform(normalizeTagName),
});
export type TagRenameFieldName = keyof z.input<typeof tagRenameSchema>;

/** /admin/tags: merge one tag into another. */
export const tagMergeSchema = z.object({
  into: z.string().trim().min(1, "Choose the tag to merge into"),
});

/** A tag as readers and the picker see it. */
export interface TagSummary {
  id: string;
  name: string;
  slug: string;
}

/** The public address of a tag's page. */
export const tagPath = (slug: string) => `/tag/${slug}`;
