// The back office's article list (issue 27): how a row's status reads and what its bulk actions are.
// Browser-safe: the list screen, its loader and the bulk service read the same words.
import type { ArticleStatus } from "~/db/schema";
import { formatPublishDate } from "~/lib/dates";
import { IN_REVIEW_LABEL } from "./articles.schema";

/** Where a story stands, with its review state, as the list reads it. */
export interface ListStatusFacts {
  status: ArticleStatus;
  publishedAt: Date | string | null;
  /** A draft waiting in the review queue. */
  inReview: boolean;
  /** A draft an editor sent back (its note is still on it). */
  sentBack: boolean;
  /** A published story with changes saved for later (not yet public). */
  hasPendingChanges: boolean;
}

/** "In review", "Draft · Sent back", "Scheduled for …", "Published · Changes not yet public". */
export function listStatusText(facts: ListStatusFacts, timeZone: string): string {
  if (facts.status === "scheduled") return facts.publishedAt ? `Scheduled for ${formatPublishDate(facts.publishedAt, timeZone)}` : "Scheduled";
  if (facts.status === "published") return facts.hasPendingChanges ? "Published · Changes not yet public" : "Published";
  if (facts.inReview) return IN_REVIEW_LABEL;
  if (facts.sentBack) return "Draft · Sent back";
  return "Draft";
}

/** What can be done to the selected rows at once. */
export const BULK_ACTIONS = ["unpublish", "move", "delete"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export function isBulkAction(value: unknown): value is BulkAction {
  return typeof value === "string" && (BULK_ACTIONS as readonly string[]).includes(value);
}

/** The most stories one bulk request may name (a page of the list). */
export const BULK_MAX = 100;

/** The button of each action and what its dialog asks. */
export const BULK_ACTION_LABELS: Record<BulkAction, string> = {
  unpublish: "Unpublish",
  move: "Move to category…",
  delete: "Delete",
};

const stories = (n: number) => (n === 1 ? "1 story" : `${n} stories`);

export function bulkQuestion(action: BulkAction, count: number): string {
  if (action === "unpublish") return `Unpublish ${stories(count)}? Published and scheduled ones go back to draft and leave the site.`;
  if (action === "move") return `Move ${stories(count)} to another category?`;
  return `Delete ${stories(count)}? This cannot be undone: their comments are deleted too.`;
}

/** One story's outcome in a bulk action. */
export interface BulkOutcome {
  id: string;
  /** The story's title, or its id when it no longer exists. */
  title: string;
  ok: boolean;
  /** Why it was refused (the service's message) and its code ("forbidden": the role or ownership). */
  reason?: string;
  code?: string;
}

/** Every story refused for what the actor may not do: the request as a whole is forbidden (403). */
export const allForbidden = ({ outcomes }: BulkResult) => outcomes.length > 0 && outcomes.every((o) => !o.ok && o.code === "forbidden");

/**
 * The HTTP status of a bulk action's answer: 200 when at least one story was done. With none done:
 * 403 when every story was refused for the role or ownership, 404 when none exists any more, else
 * 409 (the stories' states refused it: a draft cannot be unpublished).
 */
export function bulkStatus(result: BulkResult): 200 | 403 | 404 | 409 {
  const { outcomes } = result;
  if (outcomes.length === 0 || outcomes.some((o) => o.ok)) return 200;
  if (allForbidden(result)) return 403;
  return outcomes.every((o) => o.code === "not_found") ? 404 : 409;
}

export interface BulkResult {
  action: BulkAction;
  outcomes: BulkOutcome[];
}

/** "3 stories unpublished." / "2 stories moved; 1 refused." */
export function bulkSummary({ action, outcomes }: BulkResult): string {
  const done = outcomes.filter((o) => o.ok).length;
  const refused = outcomes.length - done;
  const verb = action === "unpublish" ? "unpublished" : action === "move" ? "moved" : "deleted";
  const head = `${stories(done)} ${verb}`;
  return refused ? `${head}; ${refused} refused.` : `${head}.`;
}
