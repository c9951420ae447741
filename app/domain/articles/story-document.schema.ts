import { z } from "zod";
import { embedTargetOf, isAllowedImageSrc, isAllowedLinkHref, isOwnImageSrc } from "./story-urls";

/**
 * The story editor's document (TipTap's JSON), as it is stored in `articles.content_doc` and checked
 * on every save. Only the node and mark types listed here exist; anything else is refused with a
 * message naming it. URLs are checked here too, by story-urls.ts's rules: links http/https/mailto,
 * images our own media or https, embeds YouTube or X only. (Whether an own-media image really
 * exists is checked by the article service.) The server parses with it; the editor uses the
 * zod-free URL rules and the types only, so these schemas add nothing to shared browser chunks.
 */

// ---------------------------------------------------------------- the document's shape

export interface StoryText {
  type: "text";
  text: string;
  marks?: StoryMark[];
}
export type StoryMark = { type: "bold" } | { type: "italic" } | { type: "link"; attrs: { href: string } };
export type StoryInline = StoryText | { type: "hardBreak" };
export interface StoryParagraph {
  type: "paragraph";
  content?: StoryInline[];
}
export interface StoryHeading {
  type: "heading";
  attrs: { level: 2 | 3 };
  content?: StoryInline[];
}
export interface StoryListItem {
  type: "listItem";
  content: StoryBlock[];
}
export interface StoryBulletList {
  type: "bulletList";
  content: StoryListItem[];
}
export interface StoryOrderedList {
  type: "orderedList";
  attrs?: { start?: number };
  content: StoryListItem[];
}
export interface StoryBlockquote {
  type: "blockquote";
  content: StoryBlock[];
}
export interface StoryImage {
  type: "storyImage";
  attrs: { src: string; alt: string; caption: string; credit: string };
}
export interface StoryEmbed {
  type: "embed";
  attrs: { url: string };
}
/** A gallery's picture (issue 41): from our media library, with alt text, an optional caption. */
export interface StoryGalleryItem {
  src: string;
  alt: string;
  caption: string;
}
/** A gallery (issue 41): 2–12 pictures in a grid, each opening the reader page's full-screen viewer. */
export interface StoryGallery {
  type: "gallery";
  attrs: { images: StoryGalleryItem[] };
}
/**
 * "Paywall here" (issue 40): where a gated story's free part ends. Top-level only; the first one
 * counts (app/domain/members/paywall.ts). No renderer shows it: every rendition of the whole story
 * passes it by, and a reader without access gets only what is before it.
 */
export interface StoryPaywall {
  type: "paywall";
}
export type StoryBlock =
  | StoryParagraph
  | StoryHeading
  | StoryBulletList
  | StoryOrderedList
  | StoryBlockquote
  | { type: "horizontalRule" }
  | StoryImage
  | StoryEmbed
  | StoryGallery
  | StoryPaywall;
export interface StoryDocument {
  type: "doc";
  content: StoryBlock[];
}

/** The node and mark types a story may hold (everything else is refused). */
export const STORY_NODE_TYPES = [
  "doc",
  "paragraph",
  "heading",
  "text",
  "hardBreak",
  "bulletList",
  "orderedList",
  "listItem",
  "blockquote",
  "horizontalRule",
  "storyImage",
  "embed",
  "gallery",
  "paywall",
] as const;
export const STORY_MARK_TYPES = ["bold", "italic", "link"] as const;

export const PAYWALL_NOT_NESTED = "“Paywall here” goes between the story's paragraphs, not inside a list or a quote.";

/** Deepest nesting accepted (lists in quotes in lists…), checked before the schema recurses. */
export const STORY_MAX_DEPTH = 24;
/** The longest serialized document accepted. */
export const STORY_MAX_JSON = 1_000_000;

const unsupported = (what: string, input: unknown) => {
  const type = input && typeof input === "object" && "type" in input ? String((input as { type: unknown }).type) : "?";
  return `The story contains ${what} the site does not allow (“${type.slice(0, 40)}”).`;
};

const markSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("bold") }),
    z.object({ type: z.literal("italic") }),
    z.object({
      type: z.literal("link"),
      attrs: z.object({
        href: z
          .string()
          .trim()
          .max(2000, "A link address is too long")
          .refine(isAllowedLinkHref, { error: (issue) => `Links must start with http://, https:// or mailto: (“${String(issue.input).slice(0, 60)}”).` }),
      }),
    }),
  ],
  { error: (issue) => unsupported("a text style", issue.input) },
);

const inlineSchema = z.discriminatedUnion(
  "type",
  [
    z.object({
      type: z.literal("text"),
      text: z.string().min(1, "A text node is empty").max(100_000, "A paragraph is too long"),
      marks: z.array(markSchema).max(8).optional(),
    }),
    z.object({ type: z.literal("hardBreak") }),
  ],
  { error: (issue) => unsupported("an element", issue.input) },
);

const inlineContent = z.array(inlineSchema).max(10_000).optional();

/** An image's alt text as every save requires it. */
const requiredAlt = z
  .string()
  .trim()
  .min(1, "Every image in the story needs alt text (a description for people who cannot see it).")
  .max(500, "An image's alt text must be at most 500 characters");

const imageSchemaWith = (alt: z.ZodType<string>) =>
  z.object({
    type: z.literal("storyImage"),
    attrs: z.object({
      src: z
        .string()
        .trim()
        .max(2000, "An image address is too long")
        .refine(isAllowedImageSrc, {
          error: (issue) => `An image must come from this site's media library or an https address (“${String(issue.input).slice(0, 60)}”).`,
        }),
      alt,
      caption: z.string().trim().max(1000, "An image caption must be at most 1,000 characters").default(""),
      credit: z.string().trim().max(200, "An image credit must be at most 200 characters").default(""),
    }),
  });

const embedSchema = z.object({
  type: z.literal("embed"),
  attrs: z.object({
    url: z
      .string()
      .trim()
      .max(2000, "An embed address is too long")
      .transform((url, ctx) => {
        const target = embedTargetOf(url);
        if (target) return target.url;
        ctx.addIssue({ code: "custom", message: `Only YouTube videos and X posts can be embedded (“${url.slice(0, 60)}”).` });
        return z.NEVER;
      }),
  }),
});

/** A gallery holds this many pictures, no fewer, no more. */
export const GALLERY_MIN_IMAGES = 2;
export const GALLERY_MAX = 12;
export const GALLERY_COUNT_MESSAGE = `A gallery holds ${GALLERY_MIN_IMAGES} to ${GALLERY_MAX} images.`;
export const galleryNotOwn = (src: string) =>
  `Every image in a gallery must come from this site's Media Library (not ${src.length > 80 ? `${src.slice(0, 77)}…` : src}).`;

const gallerySchemaWith = (alt: z.ZodType<string>) =>
  z.object({
    type: z.literal("gallery"),
    attrs: z.object({
      images: z
        .array(
          z.object({
            src: z
              .string()
              .trim()
              .max(2000, "An image address is too long")
              .refine(isOwnImageSrc, { error: (issue) => galleryNotOwn(String(issue.input)) }),
            alt,
            caption: z.string().trim().max(1000, "An image caption must be at most 1,000 characters").default(""),
          }),
          { error: GALLERY_COUNT_MESSAGE },
        )
        .min(GALLERY_MIN_IMAGES, GALLERY_COUNT_MESSAGE)
        .max(GALLERY_MAX, GALLERY_COUNT_MESSAGE),
    }),
  });

/** How deeply `value` nests (arrays and objects), stopping once past `limit`. */
function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || value === null || typeof value !== "object") return depth;
  let max = depth;
  for (const child of Object.values(value)) {
    max = Math.max(max, depthOf(child, limit, depth + 1));
    if (max > limit) break;
  }
  return max;
}

/** The document's schema, its images' alt text checked by `alt`. */
function documentSchemaWith(alt: z.ZodType<string>): z.ZodType<StoryDocument> {
  // "Paywall here" sits between the story's blocks, never inside a list or a quote.
  const nestedBlocks = (max: number) =>
    z
      .array(blockSchema)
      .min(1)
      .max(max)
      .refine((blocks) => !blocks.some((block) => block.type === "paywall"), PAYWALL_NOT_NESTED);

  const listItemSchema: z.ZodType<StoryListItem> = z.object({
    type: z.literal("listItem", { error: (issue) => unsupported("a list element", { type: issue.input }) }),
    get content() {
      return nestedBlocks(200);
    },
  });

  const blockSchema: z.ZodType<StoryBlock> = z.discriminatedUnion(
    "type",
    [
      z.object({ type: z.literal("paragraph"), content: inlineContent }),
      z.object({
        type: z.literal("heading"),
        attrs: z.object({ level: z.union([z.literal(2), z.literal(3)], { error: "Subheadings are level 2 or 3" }) }),
        content: inlineContent,
      }),
      z.object({
        type: z.literal("bulletList"),
        get content() {
          return z.array(listItemSchema).min(1).max(500);
        },
      }),
      z.object({
        type: z.literal("orderedList"),
        attrs: z.object({ start: z.number().int().min(0).max(100_000).optional() }).optional(),
        get content() {
          return z.array(listItemSchema).min(1).max(500);
        },
      }),
      z.object({
        type: z.literal("blockquote"),
        get content() {
          return nestedBlocks(500);
        },
      }),
      z.object({ type: z.literal("horizontalRule") }),
      imageSchemaWith(alt),
      embedSchema,
      gallerySchemaWith(alt),
      z.object({ type: z.literal("paywall") }),
    ],
    { error: (issue) => unsupported("an element", issue.input) },
  ) as z.ZodType<StoryBlock>;

  return z
    .unknown()
    .refine((value) => depthOf(value, STORY_MAX_DEPTH * 2) <= STORY_MAX_DEPTH * 2, "The story is nested too deeply.")
    .pipe(
      z.object({
        type: z.literal("doc", { error: "The story is not an editor document." }),
        content: z.array(blockSchema).max(5_000, "The story has too many blocks."),
      }),
    ) as z.ZodType<StoryDocument>;
}

/** The whole document, as every save checks it. */
export const storyDocumentSchema = documentSchemaWith(requiredAlt);

/**
 * An imported story (issue 39): as a saved one, except that an image may lack alt text. The old site
 * had none for it; the import keeps it so (not a made-up word), reports each, and the story's next save
 * asks for one.
 */
export const importedStoryDocumentSchema = documentSchemaWith(z.string().trim().max(500, "An image's alt text must be at most 500 characters"));

/**
 * The form field carrying the document: its JSON text. Blank means "no document" (a plain-text
 * story, as written before the editor existed); anything else must be a valid document.
 */
export const storyDocumentField = z
  .string()
  .max(STORY_MAX_JSON, "The story is too long.")
  .transform((text, ctx): unknown => {
    if (text.trim() === "") return null;
    try {
      return JSON.parse(text);
    } catch {
      ctx.addIssue({ code: "custom", message: "The story could not be read (it is not an editor document)." });
      return z.NEVER;
    }
  })
  .pipe(storyDocumentSchema.nullable());
