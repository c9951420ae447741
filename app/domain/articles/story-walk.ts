import { attr, childrenOf, type AnyNode } from "./story-document";
import { embedTargetOf, isAllowedImageSrc, isAllowedLinkHref, type EmbedTarget } from "./story-urls";

/**
 * THE allow-list of a story document's output (decision 0010), walked once for every rendition: the
 * reader page's HTML (story-html.ts) and the newsletter e-mail (newsletter-email.server.tsx) each map
 * the nodes that pass to their own markup, and nothing else reaches them. Only the node and mark types
 * below get through; URLs are checked again (links http/https/mailto, images our media or https,
 * embeds YouTube or X); a heading is level 2 or 3; a list's start is a whole number. Anything else
 * (an unknown type, a failed URL, nesting past 40) is left out. Stored documents were checked by
 * storyDocumentSchema when saved; this is the second line. The values handed on are raw text: each
 * renderer escapes them for its own output.
 */

/** An inline run that passed: its text and marks, the link only when its address is allowed. */
export type StoryRun = { kind: "text"; text: string; bold: boolean; italic: boolean; href: string | null } | { kind: "break" };

/** A story image that passed: its checked address (our /media/images/… path or https) and its texts, trimmed. */
export interface StoryImageParts {
  src: string;
  alt: string;
  caption: string;
  credit: string;
}

/** A gallery's picture that passed (issue 41): our media's address, its alt text and caption, trimmed. */
export interface StoryGalleryImage {
  src: string;
  alt: string;
  caption: string;
}

/** The most pictures a gallery shows (the schema allows 2–12 on save). */
export const GALLERY_MAX_IMAGES = 12;

/** What a rendition makes of each allowed node; `children` are the node's allowed children, already mapped. */
export interface StoryRenderer<T> {
  paragraph(runs: StoryRun[]): T;
  heading(level: 2 | 3, runs: StoryRun[]): T;
  bulletList(children: T[]): T;
  /** `start` only when it is a whole number other than 1. */
  orderedList(start: number | null, children: T[]): T;
  listItem(children: T[]): T;
  blockquote(children: T[]): T;
  horizontalRule(): T;
  image(image: StoryImageParts): T;
  embed(target: EmbedTarget): T;
  /** A gallery's pictures that passed (at least one). */
  gallery(images: StoryGalleryImage[]): T;
}

const MAX_DEPTH = 40;

function runOf(node: AnyNode): StoryRun | null {
  if (node.type === "hardBreak") return { kind: "break" };
  if (node.type !== "text" || typeof node.text !== "string") return null;
  const marks = Array.isArray(node.marks) ? (node.marks as AnyNode[]) : [];
  const link = marks.find((m) => m?.type === "link");
  const href = link ? attr(link, "href").trim() : "";
  return {
    kind: "text",
    text: node.text,
    bold: marks.some((m) => m?.type === "bold"),
    italic: marks.some((m) => m?.type === "italic"),
    href: href && isAllowedLinkHref(href) ? href : null,
  };
}

/** The allowed inline runs of a paragraph or heading. */
export function storyRunsOf(node: AnyNode): StoryRun[] {
  return childrenOf(node)
    .map(runOf)
    .filter((run): run is StoryRun => run !== null);
}

function walkBlock<T>(node: AnyNode, renderer: StoryRenderer<T>, depth: number): T | null {
  if (depth > MAX_DEPTH) return null;
  const children = () => walkBlocks(childrenOf(node), renderer, depth + 1);
  switch (node.type) {
    case "paragraph":
      return renderer.paragraph(storyRunsOf(node));
    case "heading":
      return renderer.heading(node.attrs?.level === 3 ? 3 : 2, storyRunsOf(node));
    case "bulletList":
      return renderer.bulletList(children());
    case "orderedList": {
      const start = node.attrs?.start;
      return renderer.orderedList(typeof start === "number" && Number.isInteger(start) && start !== 1 ? start : null, children());
    }
    case "listItem":
      return renderer.listItem(children());
    case "blockquote":
      return renderer.blockquote(children());
    case "horizontalRule":
      return renderer.horizontalRule();
    case "storyImage": {
      const src = attr(node, "src").trim();
      if (!isAllowedImageSrc(src)) return null;
      return renderer.image({ src, alt: attr(node, "alt").trim(), caption: attr(node, "caption").trim(), credit: attr(node, "credit").trim() });
    }
    case "embed": {
      const target = embedTargetOf(attr(node, "url"));
      return target ? renderer.embed(target) : null;
    }
    case "gallery": {
      const images = galleryImagesOf(node);
      return images.length > 0 ? renderer.gallery(images) : null;
    }
    case "paywall":
      // "Paywall here" (issue 40) is a mark of where a gated story is cut (members/paywall.ts), not
      // something readers see: every rendition passes it by.
      return null;
    default:
      // Not on the allow-list: nothing (the schema refuses it on save; this is the second line).
      return null;
  }
}

/** A gallery node's pictures that pass the image rule (our media or https), at most GALLERY_MAX_IMAGES. */
export function galleryImagesOf(node: AnyNode): StoryGalleryImage[] {
  const list = node.attrs?.images;
  if (!Array.isArray(list)) return [];
  const out: StoryGalleryImage[] = [];
  for (const item of list.slice(0, GALLERY_MAX_IMAGES)) {
    if (!item || typeof item !== "object") continue;
    const image = { attrs: item as Record<string, unknown> };
    const src = attr(image, "src").trim();
    if (isAllowedImageSrc(src)) out.push({ src, alt: attr(image, "alt").trim(), caption: attr(image, "caption").trim() });
  }
  return out;
}

function walkBlocks<T>(nodes: AnyNode[], renderer: StoryRenderer<T>, depth: number): T[] {
  const out: T[] = [];
  for (const node of nodes) {
    const mapped = walkBlock(node, renderer, depth);
    if (mapped !== null) out.push(mapped);
  }
  return out;
}

/** The document's allowed blocks, each mapped by `renderer`; none for a value that is not a document. */
export function walkStory<T>(doc: unknown, renderer: StoryRenderer<T>): T[] {
  if (!doc || typeof doc !== "object" || (doc as AnyNode).type !== "doc") return [];
  return walkBlocks(childrenOf(doc as AnyNode), renderer, 0);
}
