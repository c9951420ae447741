import type { ArticleFormFields, ArticleStatusName } from "./articles.schema";

/** How many revisions of one article are kept: a save that makes a newer one deletes the older ones. */
export const REVISIONS_KEPT = 50;

/** The History panel's statement of the retention bound. */
export const REVISIONS_KEPT_NOTE = `The last ${REVISIONS_KEPT} saves are kept.`;

/** An autosave updates the newest revision instead of adding one when that is an autosave by the same person written within this long. */
export const AUTOSAVE_COALESCE_MS = 10 * 60_000;

/** One save in the History panel's list (newest first). */
export interface RevisionSummary {
  id: string;
  title: string;
  status: ArticleStatusName;
  savedByName: string;
  /** ISO time of the save (an autosave revision: of its latest autosave). */
  savedAt: string;
  autosave: boolean;
  /** A "Save for later" of a published story (or its autosave): a pending version readers did not see. */
  pending: boolean;
}

/** A revision's fields as the article form holds them (what "Restore this version" loads into the form). */
export type RevisionFields = ArticleFormFields;

/** A run of a word diff: text in both, only in the current version, or only in the chosen revision. */
export interface DiffPart {
  value: string;
  /** "current": only the current version has it; "revision": only the chosen revision has it. */
  side: "both" | "current" | "revision";
}

/** One compared field: unchanged, its word diff, or too different to show word by word. */
export type FieldComparison = { changed: false } | { changed: true; parts: DiffPart[] } | { changed: true; parts: null };

/** What the History panel shows for a chosen revision (an article's, or a page's with its own fields and no excerpt). */
export interface RevisionComparison<Fields = RevisionFields> {
  revision: RevisionSummary & { fields: Fields };
  changes: { title: FieldComparison; excerpt?: FieldComparison; body: FieldComparison };
  /** Other fields that differ from the current version, by their form label ("Slug", "Category", …). */
  otherChanges: string[];
}

/** What the History resource route answers: the list, or one revision compared with the current version. */
export type ArticleHistoryAnswer<Fields = RevisionFields> = { ok: true; revisions: RevisionSummary[] } | { ok: true; comparison: RevisionComparison<Fields> };
