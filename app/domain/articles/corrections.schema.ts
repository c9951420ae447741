// Browser-safe: no zod here, so the reader's article page does not load it.

/** The kinds of dated note an editor can add to a published article, with their labels (decision 0012). */
export const ARTICLE_NOTE_KINDS = ["correction", "update"] as const;
export type ArticleNoteKind = (typeof ARTICLE_NOTE_KINDS)[number];
export const ARTICLE_NOTE_KIND_LABELS: Record<ArticleNoteKind, string> = { correction: "Correction", update: "Update" };

export const ARTICLE_NOTE_MAX_LENGTH = 1000;

/** The "Add note" form's fields (checked on the server by articleNoteSchema in corrections.server.ts). */
export type ArticleNoteFieldName = "kind" | "text";
export const ARTICLE_NOTE_FIELDS: ArticleNoteFieldName[] = ["kind", "text"];

/** The form intents of the article edit page that manage notes (not saved with the article's fields). */
export const ADD_NOTE_INTENT = "add-note";
export const DELETE_NOTE_INTENT = "delete-note";

/** A note as pages show it (dates may arrive as strings in the browser). */
export interface ArticleNote {
  id: string;
  kind: ArticleNoteKind;
  text: string;
  createdAt: Date | string;
}

/** A note as the back office lists it: who added it, too. */
export interface AdminArticleNote extends ArticleNote {
  createdByName: string;
}
