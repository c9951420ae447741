import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { articleTag, authorTag, categoryTag, FEEDS_TAG, HOME_TAG, MAX_STORY_TAGS, moreFromTag, REDIRECTS_TAG, SITE_TAG, SITEMAPS_TAG, STORIES_TAG, storyTag, tagTag, TIERS_TAG } from "../app/lib/cache-tags.server";
import type { ChangeEvent } from "../app/lib/change-feed.server";
import { NoncedBody } from "./nonced-body";
import type { GateNote } from "../app/app-context.server";
import type { Variant } from "../app/domain/members/access";

/**
 * Where a gated page's copy for `variant` is kept (issue 40): the anonymous copy is the page's own key;
 * the others follow a "#", which no request's address carries (a fragment is never sent).
 */
export function variantKey(key: string, variant: Variant): string {
  return variant === "anonymous" ? key : `${key}#${variant}`;
}

/** A cache key's address and the variant it holds. */
export function splitVariantKey(key: string): { url: string; variant: Variant } {
  const at = key.indexOf("#");
  return at === -1 ? { url: key, variant: "anonymous" } : { url: key.slice(0, at), variant: key.slice(at + 1) as Variant };
}

export interface CachedPage {
  /** What the page shows, by which a change clears it (cacheTagsOf). */
  tags: readonly string[];
  /**
   * A weak validator of what the page says, its nonce left out (each answer carries another): a
   * browser that has this version is answered 304.
   */
  etag: string;
  status: number;
  headers: [string, string][];
  /** The same headers as one flat name, value… list (what a single writeHead takes). */
  flatHeaders: string[];
  /** A body without a script nonce (a `.data` answer), in each encoding. */
  plain: { body: Buffer; gzip: Buffer; br: Buffer } | null;
  /** A page whose scripts carry a nonce: sent with a fresh one each time (cachedBody). */
  nonced: NoncedBody | null;
  storedAt: number;
  /**
   * The gated story the page shows (issue 40: its loader noted it), or null: a gated page is kept once
   * per variant, the anonymous copy under the page's own key and the others under `variantKey`.
   */
  gate: GateNote | null;
  /**
   * A change touched what the page shows (clearTags), or it outlived the time-to-live: it is still
   * sent while one render in the background replaces it (stale-while-revalidate), so no reader waits.
   */
  stale: boolean;
}

export type Encoding = "br" | "gzip" | null;

/**
 * The tags of a cached page (decision 0028): those its render noted (noteShown: the stories it
 * shows; past MAX_STORY_TAGS, STORIES_TAG instead) and those of its route: every page has SITE_TAG;
 * home, a category's and an author's pages are their lists; an article's page (HTML or data) is
 * `article:<slug>`; feeds and sitemaps are theirs.
 */
export function pageTagsOf(match: { pattern: string; params: Record<string, string> }, shown: readonly string[] = []): string[] {
  const named = shown.length <= MAX_STORY_TAGS ? shown : [STORIES_TAG];
  return [...new Set([...cacheTagsOf(match), ...named])];
}

function cacheTagsOf(match: { pattern: string; params: Record<string, string> }): string[] {
  const { slug } = match.params;
  switch (match.pattern) {
    case "/":
      return [SITE_TAG, HOME_TAG];
    case "article/:slug":
    case "article/:slug/rss.xml":
      return slug ? [SITE_TAG, articleTag(slug)] : [SITE_TAG];
    case "category/:slug":
      return slug ? [SITE_TAG, categoryTag(slug)] : [SITE_TAG];
    case "author/:slug":
      return slug ? [SITE_TAG, authorTag(slug)] : [SITE_TAG];
    case "tag/:slug":
      return slug ? [SITE_TAG, tagTag(slug)] : [SITE_TAG];
    case "rss.xml":
    case "category/:slug/rss.xml":
    case "author/:slug/rss.xml":
    case "tag/:slug/rss.xml":
      return [SITE_TAG, FEEDS_TAG];
    case "sitemap.xml":
    case "sitemaps/:file":
    case "news-sitemap.xml":
      return [SITE_TAG, SITEMAPS_TAG];
    default:
      return [SITE_TAG];
  }
}

/**
 * Tables whose notices no page depends on: audience analytics (server-side counts only) and
 * advertising (issue 43: the door fills the slots of the stored page; each process reloads its campaigns).
 */
const NO_PAGE_TABLES = new Set(["audience_events", "audience_reads", "advertisers", "ad_campaigns", "ad_creatives"]);

/**
 * What a change notice (app/lib/change-feed.server.ts) does to cached pages (decision 0028):
 * - a comment marks its articles' pages stale (served while rendered again: decision 0026);
 * - a change to public stories drops every page showing them, the lists they are or were on (home,
 *   their categories', their authors', feeds, sitemaps), and marks stale the article pages whose
 *   "More from" cards are those categories' newest;
 * - a change to drafts or scheduled stories alone touches no cached page;
 * - a story pin (decision 0034) drops the home page when a lead or top-story pin changed, and the
 *   pages of the categories whose pin changed: nothing else shows pins;
 * - a change to redirects (decision 0040) drops their answers (REDIRECTS_TAG: a CDN's; each process
 *   reloads its table of them, answered before the cache, so no cached page is touched);
 * - a live update (issue 31) marks its story's pages stale (the page, its update feed: served while
 *   rendered again, as a comment's) and drops the sitemaps (their latest time): nothing else shows
 *   updates. Dropped, every update would hold the thousands reading the story until one render is
 *   done (`npm run bench -- --live`); a page a moment old loses nothing, as its stream, opened with the
 *   newest version it shows, sends the reader what came since;
 * - a change to the home page's own settings alone (the welcome banner's switch, Explore Topics:
 *   migration 0024) drops the home page;
 * - the audience's notice (issue 42: loads counted, for the admin's live "Right now") touches no page,
 *   nor do the ads' tables (issue 43: the door fills each answer's slots);
 * - anything else (categories, settings, authors, a notice too big to name its stories, a lost
 *   connection) drops every page.
 */
export function cacheChangeOf(event: ChangeEvent): { drop: string[]; stale: string[] } {
  // Counted loads (issue 42) change no page: their notice only tells the admin's "Right now" to refresh.
  // Campaigns (issue 43) neither: the door fills the stored page's slots with what is live.
  if (NO_PAGE_TABLES.has(event.table)) return { drop: [], stale: [] };
  if (event.table === "comments" && Array.isArray(event.articles)) return { drop: [], stale: event.articles.map(articleTag) };
  if (event.table === "story_pins" && event.pins && Array.isArray(event.pins.categories)) {
    return { drop: [...(event.pins.home ? [HOME_TAG] : []), ...event.pins.categories.map(categoryTag)], stale: [] };
  }
  if (event.table === "live_updates" && Array.isArray(event.live)) return { drop: [SITEMAPS_TAG], stale: event.live.map((story) => articleTag(story.slug)) };
  if (event.table === "redirects") return { drop: [REDIRECTS_TAG], stale: [] };
  if (event.table === "member_tiers") return { drop: [TIERS_TAG], stale: [] };
  if (event.table === "website_settings" && event.homeOnly === true) return { drop: [HOME_TAG], stale: [] };
  const stories = event.public;
  if (!stories) return { drop: [SITE_TAG], stale: [] };
  if (stories.ids.length === 0) return { drop: [], stale: [] };
  return {
    drop: [
      ...stories.ids.map(storyTag),
      ...stories.slugs.map(articleTag),
      HOME_TAG,
      ...stories.categories.map(categoryTag),
      ...stories.authors.map(authorTag),
      ...(stories.tags ?? []).map(tagTag),
      FEEDS_TAG,
      SITEMAPS_TAG,
      STORIES_TAG,
    ],
    stale: stories.categories.map(moreFromTag),
  };
}

const keep = () => {};

/**
 * What to send for a stored page to a client accepting `accepted`: a page with a nonce carries
 * `nonce` in its places (gzip at best), in a reused copy to `release` once the answer is finished;
 * another page its stored encoding.
 */
export function cachedBody(page: CachedPage, accepted: Encoding, nonce: string): { body: Buffer; encoding: Encoding; release: () => void } {
  if (page.nonced) {
    const { body, release } = page.nonced.answer(nonce, accepted !== null);
    return { body, encoding: accepted ? "gzip" : null, release };
  }
  const plain = page.plain!;
  return { body: accepted === "br" ? plain.br : accepted === "gzip" ? plain.gzip : plain.body, encoding: accepted, release: keep };
}

function sizeOf(page: CachedPage): number {
  if (page.nonced) return page.nonced.bytes;
  return page.plain!.body.length + page.plain!.gzip.length + page.plain!.br.length;
}

export interface PageCacheOptions {
  maxEntries?: number;
  maxBytes?: number;
  /** A safety net: entries older than this are rendered again even without a change event (served stale meanwhile). */
  ttlMs?: number;
  /** A stale page older than this is no longer sent: the next reader waits for a render (a process that missed its changes). */
  maxStaleMs?: number;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The in-process cache of anonymous reader pages (HTML and client-navigation `.data` responses).
 * Editorial changes drop the pages carrying their tags; a comment marks its article's pages stale, as
 * does age (they are served while one render replaces them; decision 0026). Least recently used
 * entries go first when full.
 */
export class PageCache {
  private entries = new Map<string, CachedPage>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly ttlMs: number;
  private readonly maxStaleMs: number;
  hits = 0;
  misses = 0;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 2000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? 5 * 60 * 1000;
    this.maxStaleMs = options.maxStaleMs ?? 60 * 60 * 1000;
  }

  /** The page stored under `key`, fresh or stale (see CachedPage.stale), or undefined. */
  get(key: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    const age = Date.now() - entry.storedAt;
    if (age > this.maxStaleMs) {
      this.delete(key);
      this.misses++;
      return undefined;
    }
    if (age > this.ttlMs) entry.stale = true;
    // Re-insert so Map order doubles as recency order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry;
  }

  /** Keys cleared by the latest clearTags (for tests and the bench: what one change re-renders). */
  lastCleared: string[] = [];

  /**
   * Stores a page; `nonce` is the script nonce it was rendered with, if any (replaced in every answer),
   * `tags` what a change clears it by.
   */
  set(key: string, status: number, headers: [string, string][], body: Buffer, nonce?: string, tags: readonly string[] = [SITE_TAG], gate: GateNote | null = null) {
    const nonced = nonce && body.includes(nonce) ? new NoncedBody(body, nonce) : null;
    const entry: CachedPage = {
      tags,
      etag: `W/"${createHash("sha1")
        .update(nonce ? body.toString("latin1").replaceAll(nonce, "") : body.toString("latin1"))
        .digest("base64url")
        .slice(0, 22)}"`,
      status,
      headers,
      flatHeaders: headers.flat(),
      nonced,
      plain: nonced
        ? null
        : {
            body,
            gzip: zlib.gzipSync(body, { level: 6 }),
            br: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
          },
      storedAt: Date.now(),
      stale: false,
      gate,
    };
    this.delete(key);
    const size = sizeOf(entry);
    if (size > this.maxBytes / 4) return;
    this.entries.set(key, entry);
    this.bytes += size;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  /** Forgets every page (none is served stale). */
  clear() {
    for (const entry of this.entries.values()) entry.nonced?.dispose();
    this.entries.clear();
    this.bytes = 0;
  }

  /** Forgets one page: a render found it gone (a 404, a redirect), so its stale copy must not be served. */
  forget(key: string) {
    this.delete(key);
  }

  /** The keys of the pages carrying any of `tags` (SITE_TAG: every page). */
  private keysTagged(tags: readonly string[]): string[] {
    if (tags.includes(SITE_TAG)) return [...this.entries.keys()];
    const wanted = new Set(tags);
    return [...this.entries].filter(([, entry]) => entry.tags.some((tag) => wanted.has(tag))).map(([key]) => key);
  }

  /**
   * Drops the pages carrying any of `tags` (SITE_TAG: all of them): the next reader of each waits for
   * one render. For editorial changes, which readers must see at once. Answers their keys (also kept
   * in lastCleared).
   */
  clearTags(tags: readonly string[]): string[] {
    const cleared = this.keysTagged(tags);
    for (const key of cleared) this.delete(key);
    this.lastCleared = cleared;
    return cleared;
  }

  /**
   * Marks the pages carrying any of `tags` stale: each is still served until a render replaces it
   * (stale-while-revalidate: a comment's article page). Answers their keys (also kept in lastCleared).
   */
  markStale(tags: readonly string[]): string[] {
    const marked = this.keysTagged(tags);
    for (const key of marked) this.entries.get(key)!.stale = true;
    this.lastCleared = marked;
    return marked;
  }

  /** The clears to come (clearAt), by time and tags: one timer waits for the earliest. */
  private scheduled = new Map<string, { at: number; tags: readonly string[] }>();
  private clearTimer: NodeJS.Timeout | null = null;
  private clearTimerAt = Infinity;

  /**
   * Drops the pages carrying `tags` (SITE_TAG, the default: every page) at `when` as well: a page that
   * changes at a known time without a write, such as a banner that expires (every page) or a story
   * pin that ends (the home page, a category's; decision 0034). Every time asked for is kept (the
   * same time and tags once); one timer waits for the earliest, then for the next.
   */
  clearAt(when: Date, tags: readonly string[] = [SITE_TAG]) {
    const at = when.getTime();
    if (!Number.isFinite(at)) return;
    this.scheduled.set(`${at} ${tags.join(" ")}`, { at, tags });
    this.armClearTimer();
  }

  private armClearTimer() {
    let next = Infinity;
    for (const { at } of this.scheduled.values()) next = Math.min(next, at);
    if (next === this.clearTimerAt) return;
    if (this.clearTimer) clearTimeout(this.clearTimer);
    this.clearTimer = null;
    this.clearTimerAt = next;
    if (next === Infinity) return;
    // setTimeout holds at most about 24.8 days: past that it wakes up early, finds nothing due, and waits again.
    this.clearTimer = setTimeout(() => this.clearDue(), Math.max(0, Math.min(next - Date.now(), MAX_TIMER_MS))).unref();
  }

  private clearDue() {
    this.clearTimer = null;
    this.clearTimerAt = Infinity;
    const now = Date.now();
    const tags: string[] = [];
    for (const [key, clear] of this.scheduled) {
      if (clear.at > now) continue;
      this.scheduled.delete(key);
      tags.push(...clear.tags);
    }
    if (tags.includes(SITE_TAG)) this.clear();
    else if (tags.length > 0) this.clearTags(tags);
    this.armClearTimer();
  }

  get size() {
    return this.entries.size;
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= sizeOf(entry);
    this.entries.delete(key);
    entry.nonced?.dispose();
  }
}

/** Picks the best stored encoding for an Accept-Encoding header. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = (acceptEncoding ?? "").toLowerCase();
  if (/\bbr\b/.test(accepted)) return "br";
  if (/\bgzip\b/.test(accepted)) return "gzip";
  return null;
}
