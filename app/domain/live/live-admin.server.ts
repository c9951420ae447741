import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles, authors, liveUpdates } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { can, mayChangeLiveUpdate, mayOpenLiveUpdates, mayPostLiveUpdate, type LiveStoryAccess } from "~/domain/accounts/roles";
import { recordActivity } from "~/domain/activity/activity.server";
import { checkStoryImages } from "~/domain/articles/article-admin.server";
import { storyFromPlainText, storyPlainText } from "~/domain/articles/story-document";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { AppError } from "~/lib/app-error";
import { formValues, parseForm } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import type { Storage } from "~/lib/storage.server";
import {
  isLiveIntent,
  LIVE_REFUSALS,
  LIVE_UPDATE_FIELDS,
  liveUpdateSchema,
  type AdminLiveUpdate,
  type LiveIntent,
  type LivePanelData,
  type LiveUpdateFieldName,
} from "./live-admin.schema";

// The newsroom's writes of live coverage (issue 31): start, end and restart a story's coverage, and
// post, edit, delete, pin and unpin its updates. Every rule is checked here, under the story's row lock
// (a post cannot slip in after "End live coverage", nor a byline change let a post through), and every
// write is one transaction with its activity entry: a refusal writes nothing.
//
// Every UPDATE of live_updates takes `version = nextval('live_update_versions')`: the column's default
// applies on INSERT only, and the readers' streams resume from the newest version they saw.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Reader = Pick<Db, "select">;

/** The system (no role: the seed, scripts, tests that name nobody) passes the role rules, as for articles. */
const isSystem = (actor: Actor) => actor.role === undefined;
const holder = (actor: Actor) => ({ id: actor.id ?? "", role: actor.role ?? null });

const storyGone = () => new AppError("not_found", LIVE_REFUSALS.storyGone);
const updateGone = () => new AppError("not_found", LIVE_REFUSALS.updateGone);
const editorsOnly = () => new AppError("forbidden", LIVE_REFUSALS.editorsOnly);

/** The next version of an update: every UPDATE of live_updates sets it. */
const nextVersion = sql`nextval('live_update_versions')`;

/** A story as the live rules read it. */
export interface LiveStory extends LiveStoryAccess {
  id: string;
  title: string;
  slug: string;
  status: "draft" | "scheduled" | "published";
  startedAt: Date | null;
  endedAt: Date | null;
}

/**
 * True when one of the story's authors is the account's own author record. The columns are named in
 * full: in a select of one table drizzle leaves them bare, and the outer "id" would be the author's.
 */
const onBylineOf = (userId: string | null) =>
  userId
    ? sql<boolean>`exists (select 1 from "article_authors" aa join "authors" au on au."id" = aa."author_id"
        where aa."article_id" = "articles"."id" and au."user_id" = ${userId})`
    : sql<boolean>`false`;

/**
 * The story's live state and whether the actor is on its byline, or null for an unknown id. `lock`:
 * "update" for a change of the live state, "share" for a change of its updates (posts by several
 * reporters do not wait for each other; an end waits for them, and they for it).
 */
export async function readLiveStory(db: Reader, articleId: string, actor: Actor, lock?: "update" | "share"): Promise<LiveStory | null> {
  if (!isUuid(articleId)) return null;
  const query = db
    .select({
      id: articles.id,
      title: articles.title,
      slug: articles.slug,
      status: articles.status,
      startedAt: articles.liveStartedAt,
      endedAt: articles.liveEndedAt,
      onByline: onBylineOf(actor.id),
    })
    .from(articles)
    .where(eq(articles.id, articleId));
  const [row] = await (lock ? query.for(lock, { of: articles }) : query);
  if (!row) return null;
  return { ...row, onByline: Boolean(row.onByline), live: row.startedAt !== null && row.endedAt === null };
}

/**
 * Why this actor may not post on this story, or null. Who may post comes first (403: an author not on
 * its byline learns nothing more of the story), then whether it is live (409, with what to do).
 */
function postRefusal(actor: Actor, story: LiveStory): AppError | null {
  const manages = isSystem(actor) || can(actor.role ?? null, "live.manage");
  if (!manages && !(can(actor.role ?? null, "live.post") && story.onByline)) return new AppError("forbidden", LIVE_REFUSALS.notOnByline);
  if (!story.live) return new AppError("invalid_input", story.endedAt ? LIVE_REFUSALS.ended : LIVE_REFUSALS.notLive, { status: 409 });
  return null;
}

/** Refuses an actor who may not start, end or restart coverage, nor pin: editors and admins only. */
function checkManages(actor: Actor): void {
  if (!isSystem(actor) && !can(actor.role ?? null, "live.manage")) throw editorsOnly();
}

// ---------------------------------------------------------------- the live state

/**
 * Starts a story's live coverage ("Live coverage" of the article form, or the panel's start): sets
 * live_started_at, once. A story live already, or one that was live and ended (restart it), is refused.
 */
export async function startLiveCoverage(db: Db, actor: Actor, articleId: string): Promise<LiveStory> {
  checkManages(actor);
  return db.transaction(async (tx) => {
    const story = await readLiveStory(tx, articleId, actor, "update");
    if (!story) throw storyGone();
    if (story.startedAt) throw new AppError("invalid_input", story.endedAt ? LIVE_REFUSALS.notLive + " Restart its live coverage." : LIVE_REFUSALS.alreadyLive, { status: 409 });
    await startInTransaction(tx, actor, story);
    return (await readLiveStory(tx, articleId, actor))!;
  });
}

/**
 * The start's write, inside a transaction that holds the story's row lock: the article form's save
 * calls it (an author's own draft included: whoever may save the draft may make it live, as the form
 * is theirs; the updates still need the byline rule, and publishing an editor).
 */
export async function startInTransaction(tx: Tx, actor: Actor, story: { id: string; title: string; startedAt: Date | null }): Promise<void> {
  if (story.startedAt) return;
  await tx.update(articles).set({ liveStartedAt: sql`now()` }).where(and(eq(articles.id, story.id), isNull(articles.liveStartedAt)));
  await recordActivity(tx, actor, { kind: "live.start", objectType: "article", objectId: story.id, objectLabel: story.title });
}

/** "End live coverage": sets live_ended_at (the updates stay; the page says "Live coverage has ended"). Only a live story. */
export async function endLiveCoverage(db: Db, actor: Actor, articleId: string): Promise<LiveStory> {
  checkManages(actor);
  return db.transaction(async (tx) => {
    const story = await readLiveStory(tx, articleId, actor, "update");
    if (!story) throw storyGone();
    if (!story.live) throw new AppError("invalid_input", story.endedAt ? "Live coverage of this story has ended already." : LIVE_REFUSALS.notLive, { status: 409 });
    await tx.update(articles).set({ liveEndedAt: sql`now()` }).where(eq(articles.id, articleId));
    await recordActivity(tx, actor, { kind: "live.end", objectType: "article", objectId: articleId, objectLabel: story.title });
    return (await readLiveStory(tx, articleId, actor))!;
  });
}

/** "Restart live coverage": clears live_ended_at (live_started_at stays: coverage began then). Only an ended story. */
export async function restartLiveCoverage(db: Db, actor: Actor, articleId: string): Promise<LiveStory> {
  checkManages(actor);
  return db.transaction(async (tx) => {
    const story = await readLiveStory(tx, articleId, actor, "update");
    if (!story) throw storyGone();
    if (!story.startedAt) throw new AppError("invalid_input", LIVE_REFUSALS.notStarted, { status: 409 });
    if (!story.endedAt) throw new AppError("invalid_input", LIVE_REFUSALS.notEnded, { status: 409 });
    await tx.update(articles).set({ liveEndedAt: null }).where(eq(articles.id, articleId));
    await recordActivity(tx, actor, { kind: "live.restart", objectType: "article", objectId: articleId, objectLabel: story.title });
    return (await readLiveStory(tx, articleId, actor))!;
  });
}

// ---------------------------------------------------------------- updates

/** The update form read and checked: the body a story document (the plain text without JavaScript), not empty. */
async function readUpdateForm(db: Reader, actor: Actor, values: Record<LiveUpdateFieldName, string>, options: { blankIsOwn: boolean }) {
  const input = parseForm(liveUpdateSchema, values);
  // Without the editor (no JavaScript) the body comes as plain text: paragraphs, as the article form reads it.
  const doc: StoryDocument | null = input.contentDoc ?? (input.content.trim() ? storyFromPlainText(input.content.trim()) : null);
  const hasMedia = (doc?.content ?? []).some((block) => block.type === "storyImage" || block.type === "embed");
  const text = doc ? storyPlainText(doc) : "";
  if (!doc || (text.trim() === "" && !hasMedia)) {
    throw new AppError<LiveUpdateFieldName>("missing_fields", LIVE_REFUSALS.emptyBody, { field: "contentDoc" });
  }
  // The author: any author of the site. Blank, when posting: the writer's own author record (none: the
  // newsroom); when editing: no author (the form offers it only for an update that has none).
  let authorId = input.authorId;
  if (authorId) {
    const [known] = await db.select({ id: authors.id }).from(authors).where(eq(authors.id, authorId));
    if (!known) throw new AppError<LiveUpdateFieldName>("invalid_input", "Choose an author from the list.", { field: "authorId" });
  } else if (actor.id && options.blankIsOwn) {
    const [own] = await db.select({ id: authors.id }).from(authors).where(eq(authors.userId, actor.id));
    authorId = own?.id ?? null;
  }
  return { headline: input.headline, doc, text, authorId, keyEvent: input.keyEvent };
}

/** An update of the story, locked for the change, and whether it is the actor's own (they posted it, or it names them). */
async function readUpdate(tx: Tx, articleId: string, updateId: string, actor: Actor) {
  if (!isUuid(updateId)) throw updateGone();
  const [row] = await tx
    .select({
      id: liveUpdates.id,
      headline: liveUpdates.headline,
      content: liveUpdates.content,
      contentDoc: liveUpdates.contentDoc,
      pinned: liveUpdates.pinned,
      own: actor.id
        ? sql<boolean>`("live_updates"."created_by_id" = ${actor.id} or exists (select 1 from "authors" au where au."id" = "live_updates"."author_id" and au."user_id" = ${actor.id}))`
        : sql<boolean>`false`,
    })
    .from(liveUpdates)
    .where(and(eq(liveUpdates.id, updateId), eq(liveUpdates.articleId, articleId), isNull(liveUpdates.deletedAt)))
    .for("update", { of: liveUpdates });
  if (!row) throw updateGone();
  return { ...row, own: Boolean(row.own) };
}

/** Refuses a change of an update this actor may not make (403), or any change on a story never live (409). */
function checkMayChange(actor: Actor, story: LiveStory, update: { own: boolean }): void {
  if (!isSystem(actor) && !mayChangeLiveUpdate(holder(actor), story, update)) {
    // The reason they can act on: not their story, not their update, or the coverage has ended.
    if (!story.onByline) throw new AppError("forbidden", LIVE_REFUSALS.notOnByline);
    if (!story.live) throw new AppError("forbidden", LIVE_REFUSALS.ended);
    throw new AppError("forbidden", LIVE_REFUSALS.notYours);
  }
  if (!story.startedAt) throw new AppError("invalid_input", LIVE_REFUSALS.notLive, { status: 409 });
}

const labelOf = (headline: string | null, text: string) => headline ?? (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/**
 * Posts an update on a live story ("Post update"). Refused: a story that is not live (409, "Live
 * coverage has ended. Restart it to post updates." or "This story is not live."), an author not on its
 * byline (403), an empty body, a bad headline or author, an image not of this site's media (400).
 */
export async function postLiveUpdate(db: Db, storage: Storage, actor: Actor, articleId: string, values: Record<LiveUpdateFieldName, string>): Promise<{ id: string; version: number }> {
  // Who may post, before the form's problems are named: a 403 says more than a missing body.
  const before = await readLiveStory(db, articleId, actor);
  if (!before) throw storyGone();
  const refusal = postRefusal(actor, before);
  if (refusal) throw refusal;
  const input = await readUpdateForm(db, actor, values, { blankIsOwn: true });
  await checkStoryImages(storage, input.doc);
  return db.transaction(async (tx) => {
    // Again under the lock: ended, or the byline changed, since the checks above.
    const story = await readLiveStory(tx, articleId, actor, "share");
    if (!story) throw storyGone();
    const locked = postRefusal(actor, story);
    if (locked) throw locked;
    const [row] = await tx
      .insert(liveUpdates)
      .values({
        articleId,
        headline: input.headline,
        content: input.text,
        contentDoc: input.doc,
        authorId: input.authorId,
        keyEvent: input.keyEvent,
        createdById: actor.id,
      })
      .returning({ id: liveUpdates.id, version: liveUpdates.version });
    await recordActivity(tx, actor, {
      kind: "live_update.post",
      objectType: "article",
      objectId: articleId,
      objectLabel: story.title,
      details: { updateId: row!.id, update: labelOf(input.headline, input.text), ...(input.keyEvent ? { keyEvent: true } : {}) },
    });
    return { id: row!.id, version: Number(row!.version) };
  });
}

/** Edits an update (its headline, body, author and key event mark): sets edited_at ("Edited") and a new version. */
export async function editLiveUpdate(
  db: Db,
  storage: Storage,
  actor: Actor,
  articleId: string,
  updateId: string,
  values: Record<LiveUpdateFieldName, string>,
): Promise<{ id: string; version: number }> {
  const before = await readLiveStory(db, articleId, actor);
  if (!before) throw storyGone();
  // The role's rule first (an author not on the byline learns nothing of the form's problems).
  if (!isSystem(actor) && !can(actor.role ?? null, "live.manage") && !mayPostLiveUpdate(holder(actor), before)) {
    throw new AppError("forbidden", !before.onByline ? LIVE_REFUSALS.notOnByline : LIVE_REFUSALS.ended);
  }
  const input = await readUpdateForm(db, actor, values, { blankIsOwn: false });
  return db.transaction(async (tx) => {
    const story = await readLiveStory(tx, articleId, actor, "share");
    if (!story) throw storyGone();
    const update = await readUpdate(tx, articleId, updateId, actor);
    checkMayChange(actor, story, update);
    // Images already in the update were checked when it was posted.
    await checkStoryImages(storage, input.doc, { contentDoc: update.contentDoc as StoryDocument | null });
    const [row] = await tx
      .update(liveUpdates)
      .set({
        headline: input.headline,
        content: input.text,
        contentDoc: input.doc,
        authorId: input.authorId,
        keyEvent: input.keyEvent,
        editedAt: sql`now()`,
        version: nextVersion,
      })
      .where(eq(liveUpdates.id, updateId))
      .returning({ id: liveUpdates.id, version: liveUpdates.version });
    await recordActivity(tx, actor, {
      kind: "live_update.edit",
      objectType: "article",
      objectId: articleId,
      objectLabel: story.title,
      details: { updateId, update: labelOf(input.headline, input.text), keyEvent: input.keyEvent },
    });
    return { id: row!.id, version: Number(row!.version) };
  });
}

/** Deletes an update (soft: deleted_at, unpinned, a new version, so open pages drop it). */
export async function deleteLiveUpdate(db: Db, actor: Actor, articleId: string, updateId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const story = await readLiveStory(tx, articleId, actor, "share");
    if (!story) throw storyGone();
    // Not their story: 403 before anything of its updates is told (even whether the id exists).
    if (!isSystem(actor) && !can(actor.role ?? null, "live.manage") && !story.onByline) throw new AppError("forbidden", LIVE_REFUSALS.notOnByline);
    const update = await readUpdate(tx, articleId, updateId, actor);
    checkMayChange(actor, story, update);
    await tx.update(liveUpdates).set({ deletedAt: sql`now()`, pinned: false, version: nextVersion }).where(eq(liveUpdates.id, updateId));
    await recordActivity(tx, actor, {
      kind: "live_update.delete",
      objectType: "article",
      objectId: articleId,
      objectLabel: story.title,
      details: { updateId, update: labelOf(update.headline, update.content) },
    });
  });
}

/**
 * Pins an update above the others (editors and admins). One pinned update per story: the one pinned
 * before is unpinned in the same transaction (first, for the unique index), both taking a new version.
 */
export async function pinLiveUpdate(db: Db, actor: Actor, articleId: string, updateId: string): Promise<void> {
  checkManages(actor);
  await db.transaction(async (tx) => {
    const story = await readLiveStory(tx, articleId, actor, "update");
    if (!story) throw storyGone();
    const update = await readUpdate(tx, articleId, updateId, actor);
    if (update.pinned) return;
    await tx
      .update(liveUpdates)
      .set({ pinned: false, version: nextVersion })
      .where(and(eq(liveUpdates.articleId, articleId), eq(liveUpdates.pinned, true), ne(liveUpdates.id, updateId)));
    await tx.update(liveUpdates).set({ pinned: true, version: nextVersion }).where(eq(liveUpdates.id, updateId));
    await recordActivity(tx, actor, {
      kind: "live_update.pin",
      objectType: "article",
      objectId: articleId,
      objectLabel: story.title,
      details: { updateId, update: labelOf(update.headline, update.content) },
    });
  });
}

/** Unpins an update (editors and admins); one not pinned is left as it is. */
export async function unpinLiveUpdate(db: Db, actor: Actor, articleId: string, updateId: string): Promise<void> {
  checkManages(actor);
  await db.transaction(async (tx) => {
    const story = await readLiveStory(tx, articleId, actor, "update");
    if (!story) throw storyGone();
    const update = await readUpdate(tx, articleId, updateId, actor);
    if (!update.pinned) return;
    await tx.update(liveUpdates).set({ pinned: false, version: nextVersion }).where(eq(liveUpdates.id, updateId));
    await recordActivity(tx, actor, {
      kind: "live_update.unpin",
      objectType: "article",
      objectId: articleId,
      objectLabel: story.title,
      details: { updateId, update: labelOf(update.headline, update.content) },
    });
  });
}

// ---------------------------------------------------------------- the route's one entry

/** What a live request did, for the answer's toast. */
export type LiveDone = { intent: LiveIntent; updateId?: string };

/**
 * A request of the "Live updates" panel (admin/articles/live/:id): `intent` names the write, `updateId`
 * the update it concerns. Every rule is in the functions above; this only reads the form.
 */
export async function applyLiveRequest(db: Db, storage: Storage, actor: Actor, articleId: string, formData: FormData): Promise<LiveDone> {
  const { intent, updateId } = formValues(formData, ["intent", "updateId"]);
  if (!isLiveIntent(intent)) throw new AppError("invalid_input", "Unknown request.");
  switch (intent) {
    case "post":
      return { intent, updateId: (await postLiveUpdate(db, storage, actor, articleId, formValues(formData, LIVE_UPDATE_FIELDS))).id };
    case "edit":
      await editLiveUpdate(db, storage, actor, articleId, updateId, formValues(formData, LIVE_UPDATE_FIELDS));
      return { intent, updateId };
    case "delete":
      await deleteLiveUpdate(db, actor, articleId, updateId);
      return { intent, updateId };
    case "pin":
      await pinLiveUpdate(db, actor, articleId, updateId);
      return { intent, updateId };
    case "unpin":
      await unpinLiveUpdate(db, actor, articleId, updateId);
      return { intent, updateId };
    case "start":
      await startLiveCoverage(db, actor, articleId);
      return { intent };
    case "end":
      await endLiveCoverage(db, actor, articleId);
      return { intent };
    case "restart":
      await restartLiveCoverage(db, actor, articleId);
      return { intent };
  }
}

// ---------------------------------------------------------------- reads for the panel

/** The public live stories, newest start first: the breaking-news card's quick choices for its link. */
export async function listLiveStories(db: Reader, limit = 10): Promise<{ title: string; slug: string }[]> {
  return db
    .select({ title: articles.title, slug: articles.slug })
    .from(articles)
    .where(and(eq(articles.status, "published"), sql`${articles.publishedAt} <= now()`, sql`${articles.liveStartedAt} is not null`, isNull(articles.liveEndedAt)))
    .orderBy(desc(articles.liveStartedAt))
    .limit(limit);
}

/** How many updates the panel lists (newest first); the public page has them all. */
export const ADMIN_LIVE_LIST_SIZE = 200;

/** The panel's data of a story: its live state, the actor's rights and its updates newest first; null for an unknown id. */
export async function getLivePanel(db: Reader, articleId: string, actor: Actor): Promise<LivePanelData | null> {
  const story = await readLiveStory(db, articleId, actor);
  if (!story) return null;
  const system = isSystem(actor);
  const manages = system || can(actor.role ?? null, "live.manage");
  const rows = await db
    .select({
      id: liveUpdates.id,
      headline: liveUpdates.headline,
      content: liveUpdates.content,
      contentDoc: liveUpdates.contentDoc,
      authorId: liveUpdates.authorId,
      authorName: authors.name,
      createdAt: liveUpdates.createdAt,
      editedAt: liveUpdates.editedAt,
      keyEvent: liveUpdates.keyEvent,
      pinned: liveUpdates.pinned,
      own: actor.id ? sql<boolean>`(${liveUpdates.createdById} = ${actor.id} or ${authors.userId} = ${actor.id})` : sql<boolean>`false`,
    })
    .from(liveUpdates)
    .leftJoin(authors, eq(authors.id, liveUpdates.authorId))
    .where(and(eq(liveUpdates.articleId, articleId), isNull(liveUpdates.deletedAt)))
    .orderBy(desc(liveUpdates.createdAt), desc(liveUpdates.id))
    .limit(ADMIN_LIVE_LIST_SIZE);
  const [own] = actor.id ? await db.select({ id: authors.id }).from(authors).where(eq(authors.userId, actor.id)) : [];
  const updates: AdminLiveUpdate[] = rows.map(({ own: isOwn, createdAt, editedAt, contentDoc, ...row }) => ({
    ...row,
    contentDoc: (contentDoc as StoryDocument | null) ?? null,
    createdAt: createdAt.toISOString(),
    editedAt: editedAt?.toISOString() ?? null,
    mayChange: system || mayChangeLiveUpdate(holder(actor), story, { own: Boolean(isOwn) }),
  }));
  return {
    story: {
      id: story.id,
      title: story.title,
      slug: story.slug,
      status: story.status,
      startedAt: story.startedAt?.toISOString() ?? null,
      endedAt: story.endedAt?.toISOString() ?? null,
      live: story.live,
    },
    mayPost: system || mayPostLiveUpdate(holder(actor), story),
    mayManage: manages,
    mayOpen: system || mayOpenLiveUpdates(holder(actor), story),
    defaultAuthorId: own?.id ?? null,
    updates,
  };
}
