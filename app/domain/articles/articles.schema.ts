import type { FocalPoint } from "~/lib/image-variants";
import { z } from "zod";
import type { Refusal } from "~/lib/forms";
import { fromDateTimeLocal } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { slugSchema } from "~/lib/slugs";
import type { BylineAuthor } from "~/domain/authors/byline";
import type { StoryDocument } from "./story-document.schema";
import type { StoryAccessLevel, Variant } from "~/domain/members/access";
import { tagNamesField } from "~/domain/tags/tags.schema";

export const ARTICLE_SLUG_TAKEN = "This slug is already used by another article.";

/** The label of the article form's checkbox that lets a save take a slug that still redirects to another article. */
export const TAKE_OVER_SLUG_LABEL = "Take over this address";

/** The refusal of a slug that is an old address of another article (decision 0012). */
export const slugRedirectsMessage = (slug: string, title: string) =>
  `The address /article/${slug} still redirects to “${title}”. Choose another slug, or tick “${TAKE_OVER_SLUG_LABEL}”.`;

/** A ticked checkbox of the form (any value sent); an unticked one sends nothing. */
const checkbox = z.string().transform((v) => v !== "");

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

/** The featured image's texts: their limits, the alt text's rule and what the form says about it. */
export const FEATURED_IMAGE_TEXT_MAX = { alt: 250, caption: 500, credit: 200 } as const;
export const FEATURED_IMAGE_ALT_HINT =
  "Describes the image for readers who cannot see it (screen readers, slow connections). Required with an image.";
export const FEATURED_IMAGE_ALT_REQUIRED = "Alt text is required with an image: describe the image for readers who cannot see it.";

/**
 * True when an image is set and its alt text is blank: the one rule the article form's browser
 * check, the article service and the media library's "Publish Article" share (refused on the server
 * with FEATURED_IMAGE_ALT_REQUIRED on the alt field).
 */
export const isFeaturedImageAltMissing = (image: string | null | undefined, alt: string | null | undefined) =>
  Boolean(image?.trim()) && !alt?.trim();

/** The alt text, caption and credit fields (blank becomes null), shared with the media library's publish form. */
export const featuredImageTextFields = {
  featuredImageAlt: optionalText(FEATURED_IMAGE_TEXT_MAX.alt, "Alt text"),
  featuredImageCaption: optionalText(FEATURED_IMAGE_TEXT_MAX.caption, "Caption"),
  featuredImageCredit: optionalText(FEATURED_IMAGE_TEXT_MAX.credit, "Credit"),
};

// ---------------------------------------------------------------- search and social overrides (issue 41)

/** The longest SEO title and description the form takes (Google shows about 60 and 155 characters of them). */
export const SEO_TITLE_MAX = 70;
export const SEO_DESCRIPTION_MAX = 160;

/** The optional overrides of what search engines and social posts show, blank meaning "derived from the story". */
export const seoOverrideFields = {
  seoTitle: optionalText(SEO_TITLE_MAX, "SEO title"),
  seoDescription: optionalText(SEO_DESCRIPTION_MAX, "SEO description"),
  /** Its own image for social posts; the server checks that it is an image of our media library. */
  socialImage: optionalMediaUrl,
};

// ---------------------------------------------------------------- access (issue 40, decision 0054)

/** Who may read a story whole: everyone, signed-in members, or paying members. */
export const STORY_ACCESS_LEVELS = ["public", "members", "paid"] as const satisfies readonly StoryAccessLevel[];
export const STORY_ACCESS_LABELS: Record<StoryAccessLevel, string> = { public: "Public", members: "Members", paid: "Paid" };
export const STORY_ACCESS_HINTS: Record<StoryAccessLevel, string> = {
  public: "Everyone reads the whole story.",
  members: "Readers sign in (free) to read past the paywall point.",
  paid: "Paying subscribers read past the paywall point.",
};
export const ACCESS_INVALID = "Choose who may read the story: Public, Members or Paid.";
export const ACCESS_TIER_UNKNOWN = "The chosen tier does not exist or is archived. Choose another one, or Any paid tier.";
export const isStoryAccessLevel = (v: unknown): v is StoryAccessLevel => typeof v === "string" && (STORY_ACCESS_LEVELS as readonly string[]).includes(v);

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
  /** The editor's document as JSON; blank for a plain-text story (parsed by the server: story-document.schema). */
  contentDoc: z.string().max(1_000_000, "The story is too long."),
  featuredImage: optionalMediaUrl,
  // Required with an image: checked with the whole input on the server (articleSaveSchema) and by the form.
  ...featuredImageTextFields,
  videoUrl: optionalMediaUrl,
  ...seoOverrideFields,
  /**
   * The chosen authors in byline order: their ids, comma-separated (blank: none, the Author Name is
   * the byline). The server checks that each names an author (decision 0015).
   */
  authorIds: z
    .string()
    .max(2000, "Too many authors")
    .transform((v) =>
      v
        .split(",")
        .map((id) => id.trim())
        .filter((id) => id !== ""),
    ),
  /**
   * The story's tags (issue 29): names, comma-separated, in order (the picker's hidden field, or the
   * plain text input without JavaScript). Unknown names become new tags when the story is saved.
   */
  tags: tagNamesField,
  /**
   * "Access" (issue 40): who may read the whole story. Blank (a client that does not send it): an
   * update keeps the story's access, a create makes it public.
   */
  access: z
    .enum(["", ...STORY_ACCESS_LEVELS], { error: ACCESS_INVALID })
    .transform((v): StoryAccessLevel | undefined => (v === "" ? undefined : v)),
  /** A paid story's tier: blank for "Any paid tier" (the server checks that a tier exists and is not archived). */
  accessTierId: z
    .string()
    .trim()
    .refine((v) => v === "" || isUuid(v), ACCESS_TIER_UNKNOWN)
    .transform((v) => (v === "" ? null : v)),
});

/** The form's input as saved: with the story's document parsed (null: a plain-text story). */
export type ArticleInput = Omit<
  z.infer<typeof articleInputSchema>,
  "contentDoc" | "authorIds" | "tags" | "access" | "accessTierId" | "seoTitle" | "seoDescription" | "socialImage"
> & {
  /** The search and social overrides (issue 41); absent (a caller that does not offer them): an update keeps them, a create has none. */
  seoTitle?: string | null;
  seoDescription?: string | null;
  socialImage?: string | null;
  /** Who may read the whole story (issue 40); absent: an update keeps it, a create is public. */
  access?: StoryAccessLevel;
  /** A paid story's tier (null: any paid tier); ignored unless `access` is "paid". */
  accessTierId?: string | null;
  contentDoc: StoryDocument | null;
  /** The authors in byline order; absent (a caller that does not choose authors): an update keeps them, a create names none. */
  authorIds?: string[];
  /** The tags' names in order; absent (a caller that does not choose tags): an update keeps them, a create has none. */
  tags?: string[];
};

/**
 * What the article form's submit buttons ask for (decision 0033):
 * - "publish": "Publish now" and "Update Article" (a scheduled story keeps its time: "Publish at" is sent back);
 * - "schedule": "Schedule" in the publish panel ("Publish at" must be ahead);
 * - "draft": "Save Draft" (a draft or a new story only: never takes a published story off the site);
 * - "save-for-later": "Save for later" on a published story (its pending version; the live story is untouched);
 * - "discard-pending": "Discard changes" (drops the pending version);
 * - "submit": "Submit for review" (an author: saved as a draft, then queued for an editor).
 */
export const ARTICLE_INTENTS = ["publish", "schedule", "draft", "save-for-later", "discard-pending", "submit"] as const;
export type ArticleIntent = (typeof ARTICLE_INTENTS)[number];

/** A draft intent (Save Draft, Submit for review) sent for a published or scheduled story. */
export const STAYS_PUBLIC =
  "This story is published or scheduled: saving it as a draft would take it off the site. Use “Unpublish…” for that, or “Save for later” to keep your changes without publishing them.";
/** A save that would move a live story to a later time (a crafted request, or a stale tab's "Publish at"). */
export const LIVE_STAYS_LIVE =
  "This story is already public: a save cannot schedule it for later, which would take it off the site until then. Use “Unpublish…” to take it off the site, or clear “Publish at”.";
/** "Save for later" (or its autosave) of a story that is not published. */
export const SAVE_FOR_LATER_PUBLISHED_ONLY = "Save for later keeps changes to a published story. This story is not published: use Save Draft.";
/** "Schedule" without a time ahead. */
export const SCHEDULE_NEEDS_FUTURE = "Choose a date and time in the future to schedule the story.";

/** What blocks publishing or scheduling, beside the field it concerns (the publish panel lists them; the server refuses them). */
export const PUBLISH_BLOCKERS = {
  title: "Write a headline.",
  slug: "Give the story an address (slug).",
  content: "Write the story: its text is empty.",
  categoryId: "Choose a category: a story without one is not listed in any section.",
  byline: "Add a byline: choose an author or write the author name.",
  featuredImageAlt: FEATURED_IMAGE_ALT_REQUIRED,
} as const;

export interface PublishBlocker {
  field: ArticleFieldName;
  message: string;
}

/**
 * The problems that block publishing or scheduling a story with these form values (empty: none).
 * One rule for the publish panel (which disables its confirming button while one remains) and the
 * server (which refuses the first beside its field).
 */
export function publishBlockers(values: {
  title?: string | null;
  slug?: string | null;
  content?: string | null;
  categoryId?: string | null;
  authorName?: string | null;
  authorIds?: string | readonly string[] | null;
  featuredImage?: string | null;
  featuredImageAlt?: string | null;
}): PublishBlocker[] {
  const blank = (v: string | null | undefined) => !v || v.trim() === "";
  const authorIds = typeof values.authorIds === "string" ? values.authorIds.split(",").filter((id) => id.trim() !== "") : (values.authorIds ?? []);
  const found: PublishBlocker[] = [];
  if (blank(values.title)) found.push({ field: "title", message: PUBLISH_BLOCKERS.title });
  if (blank(values.slug)) found.push({ field: "slug", message: PUBLISH_BLOCKERS.slug });
  if (blank(values.content)) found.push({ field: "content", message: PUBLISH_BLOCKERS.content });
  if (isFeaturedImageAltMissing(values.featuredImage, values.featuredImageAlt)) {
    found.push({ field: "featuredImageAlt", message: PUBLISH_BLOCKERS.featuredImageAlt });
  }
  if (blank(values.categoryId)) found.push({ field: "categoryId", message: PUBLISH_BLOCKERS.categoryId });
  if (authorIds.length === 0 && blank(values.authorName)) found.push({ field: "authorIds", message: PUBLISH_BLOCKERS.byline });
  return found;
}

export const PUBLISH_AT_INVALID = "Enter a date and time, such as 2026-11-23T14:30, or leave Publish at empty.";

/**
 * The whole form: the article's fields, the optional "Publish at" (a `datetime-local` value on the
 * site's wall clock; the server reads it in TIME_ZONE) and which button was pressed.
 */
export const articleFormSchema = articleInputSchema.extend({
  publishAt: z
    .string()
    .trim()
    // Whether it is a real date and time does not depend on the zone; the moment does (read on the server).
    .refine((v) => v === "" || fromDateTimeLocal(v, "UTC") !== null, PUBLISH_AT_INVALID),
  // No button named (a client that sends none): "publish", what the form's default button does.
  intent: z
    .enum(["", ...ARTICLE_INTENTS], { error: "Unknown action: use Save Draft, Publish, Update Article, Save for later or Submit for review." })
    .transform((v): ArticleIntent => (v === "" ? "publish" : v)),
  /** "Show as updated": the save sets the article's modified_at (readers see "Updated {date}"). */
  showAsUpdated: checkbox,
  /** "Take over this address": the slug may be taken from another article's old address (its redirect is removed). */
  takeOverSlug: checkbox,
});

export type ArticleFormInput = z.infer<typeof articleFormSchema>;
export type ArticleFieldName = keyof z.input<typeof articleFormSchema>;
export type ArticleFieldErrors = Partial<Record<ArticleFieldName, string>>;

export const ARTICLE_FIELDS: ArticleFieldName[] = [
  "title",
  "slug",
  "categoryId",
  "authorName",
  "authorIds",
  "tags",
  "excerpt",
  "content",
  "contentDoc",
  "featuredImage",
  "featuredImageAlt",
  "featuredImageCaption",
  "featuredImageCredit",
  "videoUrl",
  "seoTitle",
  "seoDescription",
  "socialImage",
  "access",
  "accessTierId",
  "publishAt",
  "intent",
  "showAsUpdated",
  "takeOverSlug",
];

/** The required fields: when any is blank the spec's "Missing fields" notice is shown. */
export const REQUIRED_ARTICLE_FIELDS = ["title", "slug", "content"] as const;

/** What the article form's action answers when it does not redirect (status 400/404). */
export type ArticleFormFailure = Refusal<ArticleFieldName>;

/** An article's lifecycle status (the database's article_status). */
export type ArticleStatusName = "draft" | "scheduled" | "published";

/** The statuses the admin list can be filtered by (?status=), with their labels. */
export const ARTICLE_STATUS_LABELS: Record<ArticleStatusName, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
};

/**
 * Whether an article's address may have been public: it is published, or it is a draft whose
 * publication time has passed (Unpublish keeps that time). Its slug changes then leave a redirect
 * from the old address, and the form no longer derives the slug from the title (decision 0012).
 * A scheduled article has never been public (its time is ahead).
 */
export function wasPublished(article: { status: ArticleStatusName; publishedAt: Date | string | null }, now = new Date()): boolean {
  if (article.status === "published") return true;
  return article.status === "draft" && article.publishedAt !== null && new Date(article.publishedAt).getTime() <= now.getTime();
}

/** A draft waiting in the review queue, wherever the back office names its state (issue 41: one word everywhere). */
export const IN_REVIEW_LABEL = "In review";

/** The admin list's status filter: the statuses, with the review queue after drafts (?status=review). */
export const REVIEW_FILTER = "review";
export const ARTICLE_STATUS_FILTERS: readonly (readonly [value: string, label: string])[] = [
  ["draft", ARTICLE_STATUS_LABELS.draft],
  [REVIEW_FILTER, IN_REVIEW_LABEL],
  ["scheduled", ARTICLE_STATUS_LABELS.scheduled],
  ["published", ARTICLE_STATUS_LABELS.published],
];

export const isArticleStatus = (v: unknown): v is ArticleStatusName => typeof v === "string" && Object.hasOwn(ARTICLE_STATUS_LABELS, v);

/** The featured image's texts as an article page shows them (alt null: saved before alt text existed, shown as alt=""). */
export interface FeaturedImageText {
  featuredImageAlt: string | null;
  featuredImageCaption: string | null;
  featuredImageCredit: string | null;
}

/** The fields an article card shows. */
export interface ArticleCard {
  id: string;
  title: string;
  slug: string;
  excerpt: string | null;
  featuredImage: string | null;
  /** The image's alt text, written with it (null for articles saved before alt text existed: alt=""). */
  featuredImageAlt: string | null;
  /** The image's subject (issue 41): every crop keeps it in frame; null: the centre. */
  featuredImageFocus: FocalPoint | null;
  videoUrl: string | null;
  authorName: string;
  views: number;
  createdAt: Date;
  /** When it went public: the date readers see. */
  publishedAt: Date;
  category: { name: string; slug: string } | null;
  /** Its authors in byline order (decision 0015); empty: `authorName` is the byline, unlinked. */
  authors: BylineAuthor[];
  /** Live coverage is under way (issue 31): the card shows a "LIVE" badge. */
  live: boolean;
}

/** A signed link to a draft's preview for someone outside the back office (POST /api/admin/articles/:id/preview-link). */
export interface SharedPreviewLink {
  url: string;
  /** ISO time after which the link answers 410. */
  expiresAt: string;
}

/** An article's editable fields as the article form holds them (and "Restore this version" loads into it). */
export interface ArticleFormFields {
  title: string;
  slug: string;
  categoryId: string | null;
  authorName: string;
  excerpt: string | null;
  content: string;
  /** The story editor's document (null or absent: a plain-text story, opened as paragraphs). */
  contentDoc?: unknown;
  featuredImage: string | null;
  /** The featured image's alt text (null for an article saved before it existed), caption and credit. */
  featuredImageAlt: string | null;
  featuredImageCaption: string | null;
  featuredImageCredit: string | null;
  videoUrl: string | null;
  /** "Publish at" as a datetime-local value on the site's wall clock ("" for none). */
  publishAt: string;
  /** The chosen authors' ids in byline order (absent: none; revisions do not keep them). */
  authorIds?: string[];
  /** The tags' names in order (absent: none, or a revision saved before tags existed). */
  tags?: string[];
  /** Who may read the whole story (issue 40); absent: a revision, which does not keep it (the form keeps its own). */
  access?: StoryAccessLevel;
  /** A paid story's tier (null: any paid tier). */
  accessTierId?: string | null;
  /** The search and social overrides (issue 41); absent: a revision, which does not keep them (the form keeps its own). */
  seoTitle?: string | null;
  seoDescription?: string | null;
  socialImage?: string | null;
  /** The saved featured image's focal point (issue 41), for the social preview's crop; not a field of the form. */
  featuredImageFocus?: FocalPoint | null;
}

/** A published story's pending version as the edit form announces it ("Changes saved {time}, not yet public"). */
export interface PendingVersionInfo {
  /** ISO time of its last save (or autosave). */
  savedAt: string;
  savedByName: string;
}

/** What the edit form says of a pending version ({time}: its save time in the site's time zone). */
export const pendingVersionNote = (time: string) => `Changes saved ${time}, not yet public`;

/** A gated story's paywall as its page shows it (null for a public story). Nothing in it names a reader. */
export interface ArticlePaywall {
  access: StoryAccessLevel;
  variant: Variant;
  /** The free part as plain text: the JSON-LD's articleBody. */
  articleBody: string;
  /** A teaser's call to action (null for the whole story). */
  callToAction: { heading: string; action: "sign-in" | "subscribe" | "upgrade" } | null;
  /** "0 of 3 free stories left" on a teaser when the reader's meter is on. */
  meterNote: string | null;
}
