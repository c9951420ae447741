import { z } from "zod";
import { slugSchema } from "~/lib/slugs";

// Pages (issue 29): standalone pages at /{slug}, written in the story editor. The rules both the page
// form and the server read. Browser-safe (the story document's own schema stays on the server).

/** The page form's fields, as the routes read them (formValues). */
export const PAGE_FIELDS = ["intent", "title", "slug", "content", "contentDoc", "showInFooter", "footerPosition"] as const;
export type PageFieldName = (typeof PAGE_FIELDS)[number];

/** What a page's buttons ask: "Save draft" (a draft stays a draft) or "Publish"/"Update page". */
export const PAGE_INTENTS = ["draft", "publish"] as const;
export type PageIntent = (typeof PAGE_INTENTS)[number];

export type PageStatusName = "draft" | "published";
export const PAGE_STATUS_LABELS: Record<PageStatusName, string> = { draft: "Draft", published: "Published" };

/** The highest footer position (the footer sorts by it, then by title). */
export const FOOTER_POSITION_MAX = 999;

export const PAGE_SLUG_TAKEN = "Another page already has this address. Choose another slug.";
/** The slug field's message for an address the site's own routes or files use. */
export const pageSlugReserved = (slug: string) => `The address /${slug} is used by the site itself. Choose another slug.`;
export const PAGE_LIVE_STAYS_LIVE = "This page is live: Save draft would take it off the site. Use Unpublish for that, or Update page to save it.";
export const PAGE_ALREADY_DRAFT = "This page is already a draft.";

/** The page form as submitted: the story's document is checked on the server (pages.server.ts). */
export const pageFormSchema = z.object({
  intent: z.enum(PAGE_INTENTS, "Choose Save draft or Publish."),
  title: z.string().trim().min(1, "Title is required").max(300, "Title must be at most 300 characters"),
  slug: slugSchema,
  content: z.string().trim().min(1, "Content is required").max(200_000, "Content must be at most 200,000 characters"),
  contentDoc: z.string().max(1_000_000, "The page is too long."),
  showInFooter: z.string().transform((value) => value === "on" || value === "true"),
  footerPosition: z
    .string()
    .trim()
    .regex(/^\d{0,3}$/, `Use a whole number from 0 to ${FOOTER_POSITION_MAX}.`)
    .transform((value) => (value === "" ? 0 : Number(value))),
});

export const REQUIRED_PAGE_FIELDS = ["title", "slug", "content"] as const;

export { pagePath, type FooterPage } from "./page-path";

/** A page's fields as the form holds them (what "Restore this version" loads into the form). */
export interface PageFormFields {
  title: string;
  slug: string;
  content: string;
  contentDoc: unknown;
  showInFooter: boolean;
  footerPosition: number;
}
