import type { StoryBlock, StoryDocument, StoryInline, StoryParagraph } from "./story-document.schema";

/**
 * A story document's plain renditions, used by the server and by the editor alike: the plain text
 * kept in `articles.content` (feeds, excerpts, meta descriptions, search), the word count and
 * reading time, and the conversion of a plain-text story (written before the editor) into a
 * document. Its HTML for readers is story-html.ts's, on the server.
 */

/** A node as it may come out of the database: nothing about it is trusted. */
export type AnyNode = { type?: unknown; text?: unknown; attrs?: Record<string, unknown>; content?: unknown; marks?: unknown };

export const childrenOf = (node: AnyNode): AnyNode[] =>
  Array.isArray(node.content) ? node.content.filter((c): c is AnyNode => c !== null && typeof c === "object") : [];
export const attr = (node: AnyNode, name: string) => (typeof node.attrs?.[name] === "string" ? (node.attrs[name] as string) : "");

// ---------------------------------------------------------------- plain text

function inlineText(nodes: readonly AnyNode[]): string {
  return nodes.map((n) => (n.type === "text" && typeof n.text === "string" ? n.text : n.type === "hardBreak" ? "\n" : "")).join("");
}

function collectText(node: AnyNode, out: string[], depth: number) {
  if (depth > 40) return;
  switch (node.type) {
    case "paragraph":
    case "heading":
      out.push(inlineText(childrenOf(node)).trim());
      return;
    case "storyImage":
      out.push(attr(node, "caption").trim());
      return;
    case "gallery":
      if (Array.isArray(node.attrs?.images))
        for (const image of node.attrs.images) if (image && typeof image === "object") out.push(attr({ attrs: image as Record<string, unknown> }, "caption").trim());
      return;
    case "bulletList":
    case "orderedList":
    case "listItem":
    case "blockquote":
      for (const child of childrenOf(node)) collectText(child, out, depth + 1);
      return;
    default:
      return;
  }
}

/**
 * The story as plain text, for `articles.content`: each paragraph, heading, list item and image
 * caption a block, blocks separated by a blank line, line breaks kept.
 */
export function storyPlainText(doc: StoryDocument | unknown): string {
  if (!doc || typeof doc !== "object") return "";
  const out: string[] = [];
  for (const block of childrenOf(doc as AnyNode)) collectText(block, out, 0);
  return out.filter((text) => text !== "").join("\n\n");
}

// ---------------------------------------------------------------- legacy plain text

/**
 * A plain-text story (content_doc null) as a document, losslessly for what the reader page shows:
 * paragraphs are what a blank line separates (as the page renders them), each a paragraph node
 * with its exact text, and a single line break inside one stays a line break.
 */
export function storyFromPlainText(text: string): StoryDocument {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const content: StoryBlock[] = paragraphs.map((p): StoryParagraph => {
    const inline: StoryInline[] = [];
    p.split("\n").forEach((line, i) => {
      if (i > 0) inline.push({ type: "hardBreak" });
      if (line !== "") inline.push({ type: "text", text: line });
    });
    return { type: "paragraph", content: inline };
  });
  return { type: "doc", content: content.length > 0 ? content : [{ type: "paragraph" }] };
}

// ---------------------------------------------------------------- counts

/** Words in a text: runs of letters or digits (with inner apostrophes and hyphens). */
export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

/** Reading time in whole minutes at about 200 words a minute, at least 1. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / 200));
}
