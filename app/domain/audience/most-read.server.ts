import { sql } from "drizzle-orm";
import { publiclyVisibleSql } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { changesPublicStories } from "~/domain/articles/story-memo.server";
import type { ChangeEvent } from "~/lib/change-feed.server";
import type { MostReadStory } from "./audience-report.types";

// "Most read" for readers (issue 42, decision 0058): the last 24 hours' most viewed public stories,
// from the audience figures: the hourly rollup (audience_story_hours) before
// audience_rollup_state.rolled_until, the raw loads (audience_events) from there to now. Home and
// article pages show it; they are cached pages, so this runs at a render, never per request, and the
// ranking (a sum over a day of rows) is kept in the process for MOST_READ_MEMO_MS. The stories' titles
// and addresses are read again at each render, of public stories only: a story unpublished or renamed
// (which drops the pages that show it: the loaders note the stories) is never shown as it was. A
// change to the public stories (a story published, unpublished…) also forgets the kept ranking, as it
// drops the pages that show the list: their next render ranks afresh (the `changes` option). The
// kept ranking lives in this module, so it is watched from here: the Node entry's bundle holds another
// copy of the app's modules than the one the routes run.

/** Stories in the list. */
export const MOST_READ_COUNT = 5;
/** How long the process keeps a ranking: pages re-render at most every five minutes anyway (server/page-cache.ts). */
export const MOST_READ_MEMO_MS = 3 * 60_000;
/** The window: the last 24 hours (from the start of the UTC hour 24 hours ago: rollups are hourly). */
export const MOST_READ_WINDOW_MS = 24 * 3_600_000;
/** Stories ranked and kept, more than are shown: an article page leaves itself out, and a story may stop being public. */
const RANKED = 12;

interface Ranked {
  articleId: string;
  views: number;
}

const kept = new WeakMap<Db, { until: number; ranking: Promise<Ranked[]> }>();

/** The public stories with the most views from the start of the hour 24 hours before `now` to `now`, most first. */
async function rankStories(db: Db, now: Date): Promise<Ranked[]> {
  const start = new Date(Math.floor((now.getTime() - MOST_READ_WINDOW_MS) / 3_600_000) * 3_600_000);
  // Rolled hours end where the raw rows begin (both read with the same rolled_until): no load counted twice.
  const result = await db.execute<{ article_id: string; views: string | number }>(sql`
    with rolled as (
      select coalesce((select rolled_until from audience_rollup_state where id = 1), '-infinity'::timestamptz) as until
    ),
    counted as (
      select h.article_id, sum(h.views)::bigint as views
        from audience_story_hours h, rolled
        where h.hour >= ${start.toISOString()}::timestamptz and h.hour < rolled.until and h.hour < ${now.toISOString()}::timestamptz
        group by h.article_id
      union all
      select e.article_id, count(*)::bigint as views
        from audience_events e, rolled
        where e.at >= greatest(${start.toISOString()}::timestamptz, rolled.until) and e.at < ${now.toISOString()}::timestamptz and e.article_id is not null
        group by e.article_id
    )
    select a.id as article_id, sum(c.views) as views
      from counted c join articles a on a.id = c.article_id
      where ${publiclyVisibleSql("a")}
      group by a.id, a.published_at
      order by sum(c.views) desc, a.published_at desc, a.id
      limit ${RANKED}`);
  return result.rows.map((row) => ({ articleId: row.article_id, views: Number(row.views) }));
}

/** The kept ranking of this database, read again when older than MOST_READ_MEMO_MS (a failed read is not kept). */
function keptRanking(db: Db): Promise<Ranked[]> {
  const entry = kept.get(db);
  const at = Date.now();
  if (entry && entry.until > at) return entry.ranking;
  const ranking = rankStories(db, new Date(at));
  kept.set(db, { until: at + MOST_READ_MEMO_MS, ranking });
  ranking.catch(() => {
    if (kept.get(db)?.ranking === ranking) kept.delete(db);
  });
  return ranking;
}

/**
 * The last 24 hours' most read public stories (at most `limit`, MOST_READ_COUNT by default), most
 * views first, without `exclude` (the story being read). Without `now`, the process's kept ranking
 * (at most three minutes old); with it, read afresh for that moment. Empty on a new site.
 */
export async function mostRead(db: Db, options: { now?: Date; limit?: number; exclude?: string; changes?: ChangeSource } = {}): Promise<MostReadStory[]> {
  const { now, limit = MOST_READ_COUNT, exclude, changes } = options;
  if (changes) forgetMostReadOnChanges(changes, db);
  const ranking = (await (now ? rankStories(db, now) : keptRanking(db))).filter((r) => r.articleId !== exclude);
  if (ranking.length === 0 || limit <= 0) return [];
  const ids = ranking.map((r) => r.articleId);
  const result = await db.execute<{ id: string; title: string; slug: string }>(sql`
    select a.id, a.title, a.slug from articles a
      where a.id = any(${`{${ids.join(",")}}`}::uuid[]) and ${publiclyVisibleSql("a")}`);
  const stories = new Map(result.rows.map((row) => [row.id, row]));
  const list: MostReadStory[] = [];
  for (const { articleId, views } of ranking) {
    const story = stories.get(articleId);
    if (story) list.push({ articleId, title: story.title, slug: story.slug, views });
    if (list.length >= limit) break;
  }
  return list;
}

/** Forgets the kept ranking of `db` (tests; a script that just wrote figures). */
export function forgetMostRead(db: Db): void {
  kept.delete(db);
}

/** The process's change feed (context.changes), or a stand-in in tests. */
type ChangeSource = { on(event: "change", listener: (event: ChangeEvent) => void): unknown };
const watched = new WeakMap<ChangeSource, WeakSet<Db>>();

/** Forgets the kept ranking of `db` whenever a change notice of `changes` says a public story changed (once per feed and database). */
export function forgetMostReadOnChanges(changes: ChangeSource, db: Db): void {
  let dbs = watched.get(changes);
  if (!dbs) watched.set(changes, (dbs = new WeakSet()));
  if (dbs.has(db)) return;
  dbs.add(db);
  changes.on("change", (event) => {
    if (changesPublicStories(event)) forgetMostRead(db);
  });
}
