// Live coverage (issue 31): what a live story's page, its stream and the back office share.
// Browser-safe: no server code, no zod (the reader's live module imports this).

/** How many updates the page shows at once, newest first ("Show older updates" pages on by keyset). */
export const LIVE_PAGE_SIZE = 20;

/** How many of the newest updates the structured data (liveBlogUpdate) and the story's update feed carry. */
export const LIVE_FEED_SIZE = 50;

/** The query parameter of "Show older updates": the id of the last update shown (keyset paging). */
export const OLDER_UPDATES_PARAM = "updates-before";

/** An update's permalink anchor on the story's page: `#update-{id}`. */
export const updateAnchor = (id: string) => `update-${id}`;

/** The query parameter of an update's permalink: the page of updates that starts with it. */
export const UPDATE_PARAM = "update";

/**
 * An update's lasting address: the page of updates starting with it, at its anchor. `#update-{id}` alone
 * stops finding it once newer updates push it off the first page; this page always holds it.
 */
export const updatePermalink = (slug: string, id: string) => `/article/${slug}?${UPDATE_PARAM}=${id}#${updateAnchor(id)}`;

/** The reader's event stream of a live story (server-sent events; answered by server/live-door.ts). */
export const liveStreamPath = (articleId: string) => `/api/live/${articleId}`;

/** One update as readers see it (the page's list, the stream's events). Times are ISO strings. */
export interface LiveUpdateView {
  id: string;
  /** Grows at every change of the row (post, edit, delete, pin): the stream's event id. */
  version: number;
  headline: string | null;
  /** The body rendered on the server through the story allow-list (app/domain/articles/story-html.ts). */
  bodyHtml: string;
  /** The body as plain text (share text, structured data, the feed). */
  text: string;
  /** The author shown on it (null: the author was deleted since; the page shows the site's newsroom). */
  author: { name: string; slug: string } | null;
  createdAt: string;
  /** Set once it was edited after posting: the page shows "Edited". */
  editedAt: string | null;
  keyEvent: boolean;
  pinned: boolean;
}

/** A story's live state. Live: started and not ended. */
export interface LiveState {
  startedAt: string | null;
  endedAt: string | null;
}

export const isLive = (state: { startedAt: unknown; endedAt: unknown }) => state.startedAt != null && state.endedAt == null;

/** A key event's title in the list on top: its headline, or the start of its text (the server's list and the stream's alike). */
export function keyEventTitle(headline: string | null, text: string): string {
  if (headline) return headline;
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 90 ? `${flat.slice(0, 89).trimEnd()}…` : flat;
}

/** A key event as listed at the top of the page: a link to its update. */
export interface KeyEventLink {
  id: string;
  /** Its headline, or the start of its text. */
  title: string;
  createdAt: string;
}

/**
 * One message of the reader stream, the JSON of an SSE `data:` line. `update` and `delete` carry the
 * row's version as the SSE `id:` (so a reconnect's Last-Event-ID resumes after it); `state` has none.
 * A client applies `update` by id only when its version is newer than the one it shows (a catch-up may
 * repeat one); `delete` removes the update; `state` says the coverage ended (or restarted).
 */
export type LiveStreamEvent =
  | { type: "update"; update: LiveUpdateView }
  | { type: "delete"; id: string; version: number }
  | { type: "state"; live: boolean; endedAt: string | null };

/** What the article's loader gives the live part of its page. */
export interface LiveCoverageData {
  articleId: string;
  slug: string;
  startedAt: string;
  endedAt: string | null;
  /** The newest version among the story's updates when the page was rendered: where its stream starts. */
  version: number;
  pinned: LiveUpdateView | null;
  keyEvents: KeyEventLink[];
  updates: LiveUpdateView[];
  /** The id to ask "Show older updates" with; null on the last page. */
  olderThan: string | null;
  /** This page follows "Show older updates" (not the newest updates). */
  olderPage: boolean;
  /**
   * Issue 40: a gated story's teaser. The updates are part of the gated content: none are given (no
   * pinned update, key event or list), and the page opens no stream. Absent or false: the whole list.
   */
  withheld?: boolean;
}
