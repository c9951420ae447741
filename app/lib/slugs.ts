import { z } from "zod";

/** The URL names of articles and categories: lowercase letters, digits and single hyphens. */
const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SLUG_MAX_LENGTH = 200;

/**
 * Slug derivation: lowercase; every run of characters other than a–z and 0–9 becomes one hyphen; no
 * hyphen at either end; cut to the longest slug allowed (a long title still gives a slug that saves).
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, "");
}

export const slugSchema = z
  .string()
  .trim()
  .min(1, "Slug is required")
  .max(SLUG_MAX_LENGTH, `Slug must be at most ${SLUG_MAX_LENGTH} characters`)
  .regex(SLUG_PATTERN, "Use lowercase letters, digits and single hyphens only");

/** Whether a value from a URL can be a stored slug at all (anything else names nothing: a 404, no query). */
export function isSlug(value: string): boolean {
  return value.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(value);
}
