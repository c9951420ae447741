import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { authors, liveUpdates } from "~/db/schema";
import { renderStoryHtml } from "~/domain/articles/story-html";
import { isUuid } from "~/lib/ids";
import { keyEventTitle, LIVE_PAGE_SIZE, type KeyEventLink, type LiveUpdateView } from "./live-updates";

/** What the reader side reads of an update (the page, the stream, the feed, the structured data). */
const updateColumns = {
  id: liveUpdates.id,
  version: liveUpdates.version,
  headline: liveUpdates.headline,
  content: liveUpdates.content,
  contentDoc: liveUpdates.contentDoc,
  authorName: authors.name,
  authorSlug: authors.slug,
  createdAt: liveUpdates.createdAt,
  editedAt: liveUpdates.editedAt,
  deletedAt: liveUpdates.deletedAt,
  keyEvent: liveUpdates.keyEvent,
  pinned: liveUpdates.pinned,
};

type UpdateRow = {
  id: string;
  version: number;
  headline: string | null;
  content: string;
  contentDoc: unknown;
  authorName: string | null;
  authorSlug: string | null;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
  keyEvent: boolean;
  pinned: boolean;
};

/** An update as readers see it: its body rendered through the story allow-list, its times as ISO strings. */
export function presentLiveUpdate(row: UpdateRow): LiveUpdateView {
  return {
    id: row.id,
    version: Number(row.version),
    headline: row.headline,
    bodyHtml: renderStoryHtml(row.contentDoc),
    text: row.content,
    author: row.authorName && row.authorSlug ? { name: row.authorName, slug: row.authorSlug } : null,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    keyEvent: row.keyEvent,
    pinned: row.pinned,
  };
}

const shown = (articleId: string) => and(eq(liveUpdates.articleId, articleId), isNull(liveUpdates.deletedAt));
const newestFirst = [desc(liveUpdates.createdAt), desc(liveUpdates.id)] as const;


export interface LiveUpdatesPage {
  /** The pinned update (shown above the others on the first page; also in its place in the list). */
  pinned: LiveUpdateView | null;
  /** Key events, newest first: links to their updates. */
  keyEvents: KeyEventLink[];
  /** One page of updates, newest first. */
  updates: LiveUpdateView[];
  /** The id to ask "Show older updates" with (OLDER_UPDATES_PARAM), or null when this page is the last. */
  olderThan: string | null;
  /** How many updates the story has (not deleted). */
  total: number;
}

/**
 * A page of a story's updates, newest first: the first page, the page after the update `olderThan`, or
 * the page starting with the update `from` (an update's permalink); an id unknown or not this story's
 * gives the first page. The pinned update and the key events come with every page, as the page shows
 * them on top.
 */
export async function getLiveUpdatesPage(
  db: Db,
  articleId: string,
  options: { olderThan?: string; from?: string; limit?: number } = {},
): Promise<LiveUpdatesPage> {
  const limit = options.limit ?? LIVE_PAGE_SIZE;
  const cursorId = options.from ?? options.olderThan;
  const inclusive = options.from !== undefined;
  let after: string | undefined;
  if (cursorId && isUuid(cursorId)) {
    const [found] = await db
      .select({ id: liveUpdates.id })
      .from(liveUpdates)
      .where(and(eq(liveUpdates.id, cursorId), eq(liveUpdates.articleId, articleId), inclusive ? isNull(liveUpdates.deletedAt) : undefined))
      .limit(1);
    after = found?.id;
  }
  // The keyset compared in the database: its created_at has microseconds, which a JavaScript Date loses.
  const cursor = after
    ? sql`(${liveUpdates.createdAt}, ${liveUpdates.id}) ${inclusive ? sql`<=` : sql`<`} (select c.created_at, c.id from live_updates c where c.id = ${after})`
    : undefined;
  const [rows, keyRows, pinnedRows, [{ total }]] = await Promise.all([
    db
      .select(updateColumns)
      .from(liveUpdates)
      .leftJoin(authors, eq(authors.id, liveUpdates.authorId))
      .where(and(shown(articleId), cursor))
      .orderBy(...newestFirst)
      .limit(limit + 1),
    db
      .select({ id: liveUpdates.id, headline: liveUpdates.headline, content: liveUpdates.content, createdAt: liveUpdates.createdAt })
      .from(liveUpdates)
      .where(and(shown(articleId), eq(liveUpdates.keyEvent, true)))
      .orderBy(...newestFirst)
      .limit(50),
    db
      .select(updateColumns)
      .from(liveUpdates)
      .leftJoin(authors, eq(authors.id, liveUpdates.authorId))
      .where(and(shown(articleId), eq(liveUpdates.pinned, true)))
      .limit(1),
    db.select({ total: sql<number>`count(*)::int` }).from(liveUpdates).where(shown(articleId)),
  ]);
  const page = rows.slice(0, limit);
  return {
    pinned: pinnedRows[0] ? presentLiveUpdate(pinnedRows[0]) : null,
    keyEvents: keyRows.map((row) => ({ id: row.id, title: keyEventTitle(row.headline, row.content), createdAt: row.createdAt.toISOString() })),
    updates: page.map(presentLiveUpdate),
    olderThan: rows.length > limit ? page[page.length - 1]!.id : null,
    total,
  };
}

/** The newest `limit` updates of a story (not deleted), newest first: the structured data and the story's feed. */
export async function listNewestLiveUpdates(db: Db, articleId: string, limit: number): Promise<LiveUpdateView[]> {
  const rows = await db
    .select(updateColumns)
    .from(liveUpdates)
    .leftJoin(authors, eq(authors.id, liveUpdates.authorId))
    .where(shown(articleId))
    .orderBy(...newestFirst)
    .limit(limit);
  return rows.map(presentLiveUpdate);
}

/** A changed update for the stream: shown (posted, edited, pinned or unpinned) or deleted. */
export type LiveChange = { deleted: false; update: LiveUpdateView } | { deleted: true; id: string; version: number };

/**
 * The updates of a story changed after `version` (deleted ones included), oldest change first, at most
 * `limit`: what a stream sends when a change notice names the story, and what a reconnecting reader
 * missed since its Last-Event-ID.
 */
export async function liveChangesSince(db: Db, articleId: string, version: number, limit = 200): Promise<LiveChange[]> {
  if (!isUuid(articleId)) return [];
  const rows = await db
    .select(updateColumns)
    .from(liveUpdates)
    .leftJoin(authors, eq(authors.id, liveUpdates.authorId))
    .where(and(eq(liveUpdates.articleId, articleId), gt(liveUpdates.version, version)))
    .orderBy(asc(liveUpdates.version))
    .limit(limit);
  return rows.map((row) => (row.deletedAt ? { deleted: true, id: row.id, version: Number(row.version) } : { deleted: false, update: presentLiveUpdate(row) }));
}

/** The newest version among a story's updates (0: none): where a new stream starts. */
export async function latestLiveVersion(db: Db, articleId: string): Promise<number> {
  if (!isUuid(articleId)) return 0;
  const [row] = await db
    .select({ version: sql<string | null>`max(${liveUpdates.version})` })
    .from(liveUpdates)
    .where(eq(liveUpdates.articleId, articleId));
  return Number(row?.version ?? 0);
}

/** When a story's newest update was posted or edited (null: none): the feed's and sitemap's latest time. */
export async function latestLiveUpdateAt(db: Db, articleId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | null>`max(coalesce(${liveUpdates.editedAt}, ${liveUpdates.createdAt}))`.mapWith(liveUpdates.createdAt) })
    .from(liveUpdates)
    .where(shown(articleId));
  return row?.at ?? null;
}
