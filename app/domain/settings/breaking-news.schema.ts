import { z } from "zod";
import type { WebsiteSettings } from "~/db/schema";

/** The dashboard's "Breaking news" form. */
export const BREAKING_NEWS_FIELDS = ["text", "url", "expiresAt"] as const;
export type BreakingNewsField = (typeof BREAKING_NEWS_FIELDS)[number];

/** How long a new banner stays up unless the editor says otherwise (the form's starting value). */
export const DEFAULT_BANNER_HOURS = 6;

export const breakingNewsSchema = z.object({
  text: z.string().trim().min(1, "Write the banner's text").max(200, "The banner's text must be at most 200 characters"),
  url: z
    .string()
    .trim()
    .max(2000, "The link must be at most 2,000 characters")
    .refine(
      (v) => v === "" || (/^https?:\/\//i.test(v) && URL.canParse(v)) || /^\/(?![/\\])\S*$/.test(v),
      "The link must be a web address (https://…) or a path on this site (/…)",
    )
    .transform((v) => v || null),
  /** A datetime-local value on the site's clock; read in the site's time zone by the service. */
  expiresAt: z.string().trim().min(1, "Choose when the banner goes away"),
});
export type BreakingNewsInput = z.output<typeof breakingNewsSchema>;

/** The banner readers see. */
export interface BreakingNews {
  text: string;
  url: string | null;
  expiresAt: Date;
}

/** The banner in force at `now`: none when there is no text or it has expired. */
export function activeBreakingNews(
  settings: Pick<WebsiteSettings, "breakingNewsText" | "breakingNewsUrl" | "breakingNewsExpiresAt">,
  now = new Date(),
): BreakingNews | null {
  const { breakingNewsText: text, breakingNewsUrl: url, breakingNewsExpiresAt: expiresAt } = settings;
  if (!text || !expiresAt || expiresAt.getTime() <= now.getTime()) return null;
  return { text, url, expiresAt };
}
