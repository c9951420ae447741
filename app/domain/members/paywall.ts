import type { StoryBlock, StoryDocument } from "~/domain/articles/story-document.schema";

/**
 * Where a gated story is cut (issue 40): at its first "Paywall here" block (a top-level `paywall`
 * node of the story document), or else after its first `paragraphs` paragraphs (the setting, default
 * 3). What a reader without access gets is `free` only: every answer they can get is built from it,
 * never from the whole document. The paywall block itself is in neither part.
 */
export const PAYWALL_NODE_TYPE = "paywall";

export interface StoryParts {
  free: StoryDocument;
  /** Empty when the story has nothing past its point (a short story). */
  gated: StoryDocument;
}

const isPaywall = (block: { type?: unknown }) => block.type === PAYWALL_NODE_TYPE;

export function splitAtPaywall(doc: StoryDocument, paragraphs: number): StoryParts {
  const blocks = (doc.content ?? []) as (StoryBlock | { type: typeof PAYWALL_NODE_TYPE })[];
  let cut = blocks.findIndex(isPaywall);
  if (cut === -1) {
    let seen = 0;
    cut = blocks.length;
    for (let i = 0; i < blocks.length; i++) {
      if (blocks[i]!.type === "paragraph" && ++seen >= Math.max(0, paragraphs)) {
        cut = i + 1;
        break;
      }
    }
    if (paragraphs <= 0) cut = 0;
  }
  const keep = (part: typeof blocks) => part.filter((block) => !isPaywall(block)) as StoryBlock[];
  return { free: { type: "doc", content: keep(blocks.slice(0, cut)) }, gated: { type: "doc", content: keep(blocks.slice(cut)) } };
}

/** The whole story without its paywall blocks (what a reader with access gets). */
export function withoutPaywall(doc: StoryDocument): StoryDocument {
  return { type: "doc", content: ((doc.content ?? []) as { type?: unknown }[]).filter((block) => !isPaywall(block)) as StoryBlock[] };
}

/**
 * The class of the page's element around a gated story's paid part (app/lib/structured-data.ts, where
 * the JSON-LD's hasPart names it): the page's markup and the lead's code use this name.
 */
export { PAYWALLED_CONTENT_CLASS } from "~/lib/structured-data";
