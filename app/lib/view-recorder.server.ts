import { sql } from "drizzle-orm";
import { publiclyVisibleSql } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { isSlug } from "~/lib/slugs";
import { BatchedWriter } from "./batched-writer.server";
import type { Logger } from "./logger.server";
import { classifyPath, type PathMatch } from "./path-classes";

/** Caps on what waits in memory for the database (reached only while it is unavailable). */
export const MAX_PENDING_PAGE_VIEWS = 100_000;
export const MAX_PENDING_ARTICLES = 10_000;
/** Distinct redirects whose hits wait in memory at once (the table's own size bounds them too). */
export const MAX_PENDING_REDIRECTS = 100_000;

/** The article slug a page path shows, if it is an article page (a slug that cannot exist is none). */
export function articleSlugFromPath(path: string): string | null {
  return articleSlugOf(classifyPath(path));
}

/** The article slug of a classified path (see articleSlugFromPath). */
export function articleSlugOf({ pattern, params }: PathMatch): string | null {
  if (pattern !== "article/:slug" || params.slug === undefined) return null;
  return isSlug(params.slug) ? params.slug : null;
}

/** Page views of one path in one millisecond: how a burst of loads waits in memory (one entry, not one per load). */
interface PageViewGroup {
  path: string;
  /** Epoch milliseconds. */
  at: number;
  n: number;
}

interface RedirectHits {
  n: number;
  /** Epoch milliseconds of the latest. */
  at: number;
}

/** What one flush takes from the buffers. */
interface ViewBatch {
  pageViews: PageViewGroup[];
  articleViews: Map<string, number>;
  redirectHits: Map<number, RedirectHits>;
}

/** The newest `max` page views of `groups` (oldest first), cutting the oldest group if it straddles the cap. */
function newestViews(groups: PageViewGroup[], max: number): PageViewGroup[] {
  let kept = 0;
  let from = groups.length;
  while (from > 0 && kept + groups[from - 1]!.n <= max) kept += groups[--from]!.n;
  if (from === 0 || kept === max) return groups.slice(from);
  const cut = groups[from - 1]!;
  return [{ ...cut, n: max - kept }, ...groups.slice(from)];
}

/**
 * Buffers page views and article view increments in memory and writes them in batches:
 * `views = views + n` in one statement, so concurrent views (and several processes) never lose one.
 * Loads of one path in one millisecond wait as one group with a count (issue 13: at thousands of
 * cached answers a second, an object, a Date and two array elements per load were a fifth of each
 * answer's time); each load is still written as its own page_views row.
 */
export class ViewRecorder extends BatchedWriter<ViewBatch> {
  private pageViews: PageViewGroup[] = [];
  /** Each path's newest group (a load in the same millisecond adds to it). */
  private newest = new Map<string, PageViewGroup>();
  private articleViews = new Map<string, number>();
  /** Hits of redirects answered before routing (decision 0040), by redirect id: how many, and the latest. */
  private redirectHits = new Map<number, RedirectHits>();
  /** Counts the flushes that took the buffers, so a read can tell whether one overlapped it. */
  private flushesStarted = 0;

  constructor(
    private readonly db: Db,
    log: Logger,
    private readonly maxBuffered = 500,
  ) {
    super(log, "page views");
  }

  /**
   * Records one page view; on an article page, one view of that article too (counted only while it
   * is public). `articleSlug`, when given, is the article the caller has already found the path to show.
   */
  record(path: string, at = Date.now(), articleSlug: string | null = articleSlugFromPath(path)) {
    const group = this.newest.get(path);
    if (group && group.at === at) group.n++;
    else {
      const added = { path, at, n: 1 };
      this.pageViews.push(added);
      this.newest.set(path, added);
    }
    if (articleSlug) this.addArticleViews(articleSlug, 1);
    if (this.pageViews.length >= this.maxBuffered) void this.flush();
  }

  /**
   * Records one answer of a redirect (server/redirect-door.ts): written with the page views, as
   * `hits = hits + n` and the latest time, so no request waits for a query and processes never lose one.
   */
  recordRedirectHit(id: number, at = Date.now()) {
    const pending = this.redirectHits.get(id);
    if (pending) {
      pending.n++;
      if (at > pending.at) pending.at = at;
    } else if (this.redirectHits.size < MAX_PENDING_REDIRECTS) {
      this.redirectHits.set(id, { n: 1, at });
    }
  }

  /** Hits of a redirect not yet written to the database. */
  pendingRedirectHits(id: number) {
    return this.redirectHits.get(id)?.n ?? 0;
  }

  /** Page views not yet written to the database. */
  pendingPageViews() {
    return this.pageViews.reduce((sum, group) => sum + group.n, 0);
  }

  private addArticleViews(slug: string, n: number) {
    // Distinct slugs are bounded too (a flood of made-up article paths must not grow memory).
    if (!this.articleViews.has(slug) && this.articleViews.size >= MAX_PENDING_ARTICLES) return;
    this.articleViews.set(slug, (this.articleViews.get(slug) ?? 0) + n);
  }

  /** Views of an article not yet written to the database. */
  pending(slug: string) {
    return this.articleViews.get(slug) ?? 0;
  }

  /**
   * An article's count with what is buffered here: the stored count read by `readStored`, plus the
   * views not yet written. A flush takes the buffer before its write commits, so a read that
   * overlaps one could see the views in neither place; such a read waits for the flush and reads again.
   */
  async liveViews(slug: string, readStored: () => Promise<number | null>): Promise<number | null> {
    for (let attempt = 1; ; attempt++) {
      while (this.flushing) await this.flushing;
      const started = this.flushesStarted;
      const stored = await readStored();
      if (stored === null) return null;
      // Under a flood of flushes, give the nearest answer rather than wait on and on.
      if (this.flushesStarted === started || attempt === 5) return stored + this.pending(slug);
    }
  }

  protected take(): ViewBatch | null {
    if (this.pageViews.length === 0 && this.articleViews.size === 0 && this.redirectHits.size === 0) return null;
    const batch = { pageViews: this.pageViews, articleViews: this.articleViews, redirectHits: this.redirectHits };
    this.pageViews = [];
    this.newest = new Map();
    this.articleViews = new Map();
    this.redirectHits = new Map();
    this.flushesStarted++;
    return batch;
  }

  protected override droppedFields({ pageViews }: ViewBatch) {
    return { pageViews: pageViews.length };
  }

  protected putBack({ pageViews, articleViews, redirectHits }: ViewBatch) {
    // During a long outage the buffer is capped: the oldest page views go first.
    this.pageViews = newestViews(pageViews.concat(this.pageViews), MAX_PENDING_PAGE_VIEWS);
    this.newest = new Map(this.pageViews.map((group) => [group.path, group]));
    for (const [slug, n] of articleViews) this.addArticleViews(slug, n);
    for (const [id, hits] of redirectHits) {
      const pending = this.redirectHits.get(id);
      if (pending) this.redirectHits.set(id, { n: pending.n + hits.n, at: Math.max(pending.at, hits.at) });
      else if (this.redirectHits.size < MAX_PENDING_REDIRECTS) this.redirectHits.set(id, hits);
    }
  }

  // sql.param keeps each array one parameter; a bare array in drizzle's sql`` is expanded into a list.
  protected async write({ pageViews, articleViews, redirectHits }: ViewBatch) {
    await this.db.transaction(async (tx) => {
      if (redirectHits.size > 0) {
        // Names neither address nor status: the redirects' change notice stays silent (migration 0029).
        const ids = [...redirectHits.keys()];
        await tx.execute(sql`
          update redirects set hits = redirects.hits + v.n, last_hit_at = greatest(redirects.last_hit_at, v.at)
          from unnest(${sql.param(ids)}::bigint[], ${sql.param(ids.map((id) => redirectHits.get(id)!.n))}::int[], ${sql.param(ids.map((id) => new Date(redirectHits.get(id)!.at).toISOString()))}::timestamptz[]) as v(id, n, at)
          where redirects.id = v.id`);
      }
      if (articleViews.size > 0) {
        const slugs = [...articleViews.keys()];
        const counts = slugs.map((slug) => articleViews.get(slug)!);
        await tx.execute(sql`
          update articles set views = articles.views + v.n
          from unnest(${sql.param(slugs)}::text[], ${sql.param(counts)}::int[]) as v(slug, n)
          where articles.slug = v.slug and ${publiclyVisibleSql()}`);
      }
      for (let i = 0; i < pageViews.length; i += 1000) {
        const chunk = pageViews.slice(i, i + 1000);
        // A row per load: a group of n loads is n rows of its path and millisecond.
        await tx.execute(sql`
          insert into page_views (path, viewed_at)
          select v.path, v.at
          from unnest(${sql.param(chunk.map((v) => v.path))}::text[], ${sql.param(chunk.map((v) => new Date(v.at).toISOString()))}::timestamptz[], ${sql.param(chunk.map((v) => v.n))}::int[]) as v(path, at, n),
            generate_series(1, v.n)`);
      }
    });
  }
}
