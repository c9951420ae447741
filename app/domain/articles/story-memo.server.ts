import type { ChangeEvent } from "~/lib/change-feed.server";

/**
 * What reader pages derive from the whole set of public stories and that costs a scan to find (issue
 * 13, decision 0031): how many stories a category or an author has (for "Page 1 of 423"), and which
 * stories an article's "More from {Category}" and "Related stories" pick. At 100,000 articles an
 * author's count took 15 ms and the related pick 16 ms, on every render of those pages.
 *
 * A value is kept until a change notice says a public story changed (published, edited, unpublished,
 * deleted, its byline or category changed: migration 0016's notices, heard by every process), and at
 * most `ttlMs` (as the page cache). A comment, a draft's or a scheduled story's change keeps them, but
 * for an article's comment counts (issue 39: a story with 5,000 comments counted them at each render),
 * kept under commentCountsKey until a notice names a change of that article's comments.
 * A write through this process answers only once it has heard its own notices (decision 0028), so the
 * writer's next page reads afresh. A failed read is not kept.
 */
export type StoryMemo = <T>(key: string, read: () => Promise<T>) => Promise<T>;

/** Reads every time: for callers without a process's memo (tests, the back office, scripts). */
export const readEveryTime: StoryMemo = (_key, read) => read();

/** Whether a change notice may change what public stories there are, or their bylines and categories. */
export function changesPublicStories(event: ChangeEvent): boolean {
  // Comments and live updates (issue 31) change no list of stories.
  if (event.table === "comments" || event.table === "live_updates") return false;
  // Nor do counted loads (issue 42: the audience's notice for the admin's "Right now").
  if (event.table === "audience_events" || event.table === "audience_reads") return false;
  // A notice that names the public stories it changed: none means only drafts or scheduled stories.
  return event.public === undefined || event.public.ids.length > 0;
}

/** The key of an article's comment counts from a page on (`cursor`: "" for the first page), by the article's slug (comment notices name slugs). */
export const commentCountsKey = (slug: string, cursor: string) => `${COMMENT_COUNTS}${slug}:${cursor}`;
const COMMENT_COUNTS = "comment-counts:";

/** Whether the entry `key` holds comment counts that comment notice `event` may have changed. */
function commentCountsChanged(key: string, event: ChangeEvent): boolean {
  if (!key.startsWith(COMMENT_COUNTS)) return false;
  // A notice naming no articles (a change of many): every article's counts.
  return !Array.isArray(event.articles) || event.articles.some((slug) => key.startsWith(`${COMMENT_COUNTS}${slug}:`));
}

export function createStoryMemo(
  changes: { on(event: "change", listener: (event: ChangeEvent) => void): unknown },
  { ttlMs = 5 * 60_000, maxEntries = 10_000, now = Date.now }: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): StoryMemo {
  let kept = new Map<string, { value: Promise<unknown>; until: number }>();
  changes.on("change", (event) => {
    if (changesPublicStories(event)) kept = new Map();
    else if (event.table === "comments") for (const key of kept.keys()) if (commentCountsChanged(key, event)) kept.delete(key);
  });
  return <T>(key: string, read: () => Promise<T>): Promise<T> => {
    const entry = kept.get(key);
    if (entry && entry.until > now()) return entry.value as Promise<T>;
    // Bounded: an archive has fewer categories and authors than this; articles' picks start afresh past it.
    if (kept.size >= maxEntries) kept = new Map();
    const value = read();
    const store = kept;
    store.set(key, { value, until: now() + ttlMs });
    value.catch(() => {
      if (store.get(key)?.value === value) store.delete(key);
    });
    return value;
  };
}
