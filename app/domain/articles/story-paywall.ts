import type { StoryAccess, StoryAccessLevel } from "~/domain/members/access";
import { splitAtPaywall, type StoryParts } from "~/domain/members/paywall";
import { storyFromPlainText, storyPlainText } from "./story-document";
import type { StoryDocument } from "./story-document.schema";

/**
 * A story's parts for readers (issue 40): every reader-facing rendition of a gated story (its page
 * and `.data`, JSON-LD, feeds, search's stored text) is built from these, never from the whole
 * document. A plain-text story (no document, written before the editor) is cut as the page shows it:
 * its blank-line paragraphs.
 */

/** A stored story as a document: its editor document, or its plain text as paragraphs. */
export function storyDocumentOf(story: { content: string; contentDoc: unknown }): StoryDocument {
  const doc = story.contentDoc as StoryDocument | null;
  return doc && typeof doc === "object" && doc.type === "doc" && Array.isArray(doc.content) ? doc : storyFromPlainText(story.content);
}

/** The story's free and gated parts, cut at its "Paywall here" block or after `paragraphs` paragraphs. */
export function storyPartsOf(story: { content: string; contentDoc: unknown }, paragraphs: number): StoryParts {
  return splitAtPaywall(storyDocumentOf(story), paragraphs);
}

/** Whether a story's access gates it (anything but public). */
export const isGated = (access: { level: StoryAccessLevel } | StoryAccessLevel): boolean =>
  (typeof access === "string" ? access : access.level) !== "public";

/** A story row's access as the rules of app/domain/members/access.ts read it. */
export function storyAccessOf(row: { access: StoryAccessLevel | string; accessTierId: string | null }): StoryAccess {
  const level: StoryAccessLevel = row.access === "members" || row.access === "paid" ? row.access : "public";
  return { level, tierId: level === "paid" ? row.accessTierId : null };
}

/**
 * `articles.free_content`: the plain text of a gated story's free part (what search matches and
 * quotes instead of `content`), or null for a public story. Empty when the free part is empty (a
 * paywall setting of 0 paragraphs and no "Paywall here" block): search then finds the story by its
 * title, excerpt and tags only.
 */
export function freeContentOf(access: StoryAccessLevel, story: { content: string; contentDoc: unknown }, paragraphs: number): string | null {
  if (access === "public") return null;
  return storyPlainText(storyPartsOf(story, paragraphs).free);
}
