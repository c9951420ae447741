import type { Db } from "~/db/client.server";
import type { LiveUpdateFacts } from "~/lib/structured-data";
import { getLiveUpdatesPage, latestLiveVersion, listNewestLiveUpdates } from "./live-read.server";
import { LIVE_FEED_SIZE, type LiveCoverageData } from "./live-updates";

/** What a live story's page loads: its update list, and its newest updates as the structured data needs them. */
export interface LiveCoverageLoad {
  coverage: LiveCoverageData;
  /** The newest updates in brief (text only) for the LiveBlogPosting's liveBlogUpdate. Empty for a teaser. */
  structured: LiveUpdateFacts[];
}

/**
 * A story that has been live (issue 31), as its page shows it: one page of its updates (the newest, or
 * those after ?updates-before=<id>, or the page starting with ?update=<id>), the version its stream
 * starts after, and its newest updates for the structured data. Null for a story never live.
 *
 * `mayReadWhole` (issue 40): whether the page is the story's whole copy. The updates of a gated story
 * are part of its gated content, so a teaser copy (`false`) gets none of them: no list, no pinned
 * update, no key event, nothing for the JSON-LD, no stream (`withheld`), and nothing is read. The
 * article page must pass the copy it renders (the page cache's variant, or the reader's own check):
 * `variant === "full"` (or `mayRead`) for a gated story, `true` for a public one.
 */
export async function liveUpdatesFor(
  db: Db,
  article: { id: string; slug: string; liveStartedAt: Date | null; liveEndedAt: Date | null },
  mayReadWhole: boolean,
  { olderThan, from }: { olderThan?: string; from?: string } = {},
): Promise<LiveCoverageLoad | null> {
  if (!article.liveStartedAt) return null;
  const base = { articleId: article.id, slug: article.slug, startedAt: article.liveStartedAt.toISOString(), endedAt: article.liveEndedAt?.toISOString() ?? null };
  if (!mayReadWhole) {
    return { coverage: { ...base, version: 0, pinned: null, keyEvents: [], updates: [], olderThan: null, olderPage: false, withheld: true }, structured: [] };
  }
  const [page, version, newest] = await Promise.all([
    getLiveUpdatesPage(db, article.id, { olderThan, from }),
    latestLiveVersion(db, article.id),
    listNewestLiveUpdates(db, article.id, LIVE_FEED_SIZE),
  ]);
  return {
    coverage: {
      ...base,
      version,
      pinned: page.pinned,
      keyEvents: page.keyEvents,
      updates: page.updates,
      olderThan: page.olderThan,
      // An unknown or foreign id shows the first page: it is the first page then.
      olderPage: Boolean(olderThan ?? from) && page.updates[0]?.id !== newest[0]?.id,
    },
    structured: newest.map(({ id, headline, text, author, createdAt, editedAt }) => ({ id, headline, text, author, createdAt, editedAt })),
  };
}
