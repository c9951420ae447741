import { z } from "zod";

/** The kinds of dated note an editor can add to a published article, with their labels (decision 0012). */
export const ARTICLE_NOTE_KINDS = ["correction", "update"] as const;
export type ArticleNoteKind = (typeof ARTICLE_NOTE_KINDS)[number];
export const ARTICLE_NOTE_KIND_LABELS: Record<ArticleNoteKind, string> = { correction: "Correction", update: "Update" };

export const ARTICLE_NOTE_MAX_LENGTH = 1000;

/** The "Add note" form, as the browser sends it and the server checks it. */
export const articleNoteSchema = z.object({
  kind: z.enum(ARTICLE_NOTE_KINDS, { error: "Choose Correction or Update." }),
  text: z
    .string()
    .trim()
    .min(1, "Write the note's text.")
    .max(ARTICLE_NOTE_MAX_LENGTH, `The note must be at most ${ARTICLE_NOTE_MAX_LENGTH} characters.`),
});

export type ArticleNoteInput = z.infer<typeof articleNoteSchema>;
export type ArticleNoteFieldName = keyof ArticleNoteInput;
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
