import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles, user } from "~/db/schema";
import { actorName, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { notifyReviewRequested, notifySentBack } from "~/domain/notifications/notifications.server";
import { AppError } from "~/lib/app-error";
import { isUuid } from "~/lib/ids";
import { checkCapability, checkMayEdit, readOwnership } from "./article-access.server";
import { REVIEW_NOTE_MAX, type ReviewQueueItem, type ReviewState } from "./review.schema";

// The review queue (decision 0017): an author's draft waits for an editor, who publishes or schedules
// it (the save clears the request) or sends it back with a note the author sees on the draft.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const NOT_A_DRAFT = "Only a draft can be submitted for review.";
export const NOT_QUEUED = "This article is not waiting for review.";
export const NOTE_REQUIRED = "Write a note for the author: what should change?";

const gone = () => new AppError("not_found", "This article no longer exists.");

/** The dashboard's live refresh hears review changes too (the change trigger watches other columns). */
const announce = (tx: Tx) => tx.execute(sql`select pg_notify('frontpage_changes', json_build_object('table', 'articles', 'op', 'REVIEW')::text)`);

/** Puts a draft in the review queue: an author's own draft (any draft for an editor). */
export async function submitForReview(db: Db, id: string, actor: Actor): Promise<void> {
  if (!isUuid(id)) throw gone();
  await db.transaction(async (tx) => {
    const ownership = await readOwnership(tx, id, actor, { lock: true });
    if (!ownership) throw gone();
    checkMayEdit(actor, ownership);
    if (ownership.status !== "draft") throw new AppError("invalid_input", NOT_A_DRAFT);
    // Saved again while it waits: the desk was told when it was first submitted (not once per save).
    const [queued] = await tx.select({ since: articles.reviewRequestedAt }).from(articles).where(eq(articles.id, id));
    const [row] = await tx
      .update(articles)
      .set({ reviewRequestedAt: sql`now()`, reviewRequestedById: actor.id, reviewNote: null, reviewNoteByName: null, reviewNoteAt: null })
      .where(eq(articles.id, id))
      .returning({ title: articles.title });
    await recordActivity(tx, actor, { kind: "article.submit", objectType: "article", objectId: id, objectLabel: row!.title });
    if (!queued?.since) await notifyReviewRequested(tx, { id, title: row!.title }, actor.id);
    await announce(tx);
  });
}

/** Sends a queued draft back to its author with a note (editors and admins). */
export async function sendBack(db: Db, id: string, actor: Actor, note: string): Promise<void> {
  checkCapability(actor, "articles.publish", "Your role cannot decide the review queue.");
  const text = note.trim();
  if (!text) throw new AppError("missing_fields", NOTE_REQUIRED, { field: "note" });
  if (text.length > REVIEW_NOTE_MAX) throw new AppError("invalid_input", `The note must be at most ${REVIEW_NOTE_MAX} characters.`, { field: "note" });
  if (!isUuid(id)) throw gone();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(articles)
      .set({ reviewRequestedAt: null, reviewRequestedById: null, reviewNote: text, reviewNoteByName: actor.name, reviewNoteAt: sql`now()` })
      .where(and(eq(articles.id, id), eq(articles.status, "draft"), isNotNull(articles.reviewRequestedAt)))
      .returning({ title: articles.title });
    if (!row) {
      const [exists] = await tx.select({ id: articles.id }).from(articles).where(eq(articles.id, id));
      throw exists ? new AppError("invalid_input", NOT_QUEUED, { status: 409 }) : gone();
    }
    await recordActivity(tx, actor, { kind: "article.send_back", objectType: "article", objectId: id, objectLabel: row.title, details: { note: text } });
    await notifySentBack(tx, { id, title: row.title }, actor, text);
    await announce(tx);
  });
}

/** The columns a publication that is not a draft clears: the article left the queue. */
export const CLEARED_REVIEW = { reviewRequestedAt: null, reviewRequestedById: null, reviewNote: null, reviewNoteByName: null, reviewNoteAt: null } as const;

/** Where an article stands in review, for its form. */
export async function getReviewState(db: Pick<Db, "select">, id: string): Promise<ReviewState | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      requestedAt: articles.reviewRequestedAt,
      note: articles.reviewNote,
      noteByName: articles.reviewNoteByName,
      noteAt: articles.reviewNoteAt,
    })
    .from(articles)
    .where(eq(articles.id, id));
  if (!row) return null;
  return {
    requestedAt: row.requestedAt?.toISOString() ?? null,
    note: row.note,
    noteByName: row.noteByName,
    noteAt: row.noteAt?.toISOString() ?? null,
  };
}

/** Drafts waiting for review, the longest waiting first. */
export async function listReviewQueue(db: Db): Promise<ReviewQueueItem[]> {
  const rows = await db
    .select({ id: articles.id, title: articles.title, requestedAt: articles.reviewRequestedAt, email: user.email, name: user.name })
    .from(articles)
    .leftJoin(user, eq(user.id, articles.reviewRequestedById))
    .where(and(eq(articles.status, "draft"), isNotNull(articles.reviewRequestedAt)))
    .orderBy(asc(articles.reviewRequestedAt));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    requestedAt: r.requestedAt!.toISOString(),
    submittedBy: r.email ? actorName({ email: r.email, name: r.name }) : "A former account",
  }));
}
