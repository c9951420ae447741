/**
 * The one home of the shared-cache lifetimes of public answers (issue 32, decision 0045). Browsers
 * always get `max-age=0` (they ask again each time and the origin answers from memory, so a reader
 * never sees an old copy after a change, and no `stale-while-revalidate` lets a browser serve one);
 * shared caches (a CDN, Varnish) get:
 * - SHORT, without purging (no CDN configured, or its settings refused): 30 s, as before issue 32;
 * - purgedSharedCache, when a CDN is purged on every change: a day (10 min when purged by address
 *   only), served stale for a minute while fetched again and for a day while the origin is down
 *   (RFC 5861, in the CDN's own headers only);
 * - STALE, for an answer the origin sent from a stale copy of its own (a comment or a live update
 *   marked it stale and a render is under way: decision 0026): a few seconds, so a CDN that fetched it
 *   right after a purge does not keep the old page for a day.
 *
 * Each is the three headers a public answer carries: Cache-Control (browsers and any shared cache),
 * CDN-Cache-Control (RFC 9213: Cloudflare, Akamai; Varnish reads it in deploy/varnish/default.vcl) and
 * Surrogate-Control (Fastly; removed by the CDN before the browser).
 */
export interface SharedCacheHeaders {
  "Cache-Control": string;
  "CDN-Cache-Control": string;
  "Surrogate-Control": string;
}

/** How long a shared cache keeps a public answer when nothing purges it. */
export const SHORT_SHARED_SECONDS = 30;
/** How long a shared cache keeps a public answer when every change purges it by its tags. */
export const LONG_SHARED_SECONDS = 86_400;
/**
 * …when purged by address only (Cloudflare outside Enterprise): pages no address of a change names (a
 * story's card on another story's page, a list's second page) are purged by age alone (decision 0045).
 */
export const URL_PURGED_SHARED_SECONDS = 600;
/** How long a shared cache keeps an answer the origin sent from a stale copy (see above). */
export const STALE_SHARED_SECONDS = 5;

export const SHORT_SHARED_CACHE: SharedCacheHeaders = {
  "Cache-Control": `public, max-age=0, s-maxage=${SHORT_SHARED_SECONDS}`,
  "CDN-Cache-Control": `max-age=${SHORT_SHARED_SECONDS}, stale-while-revalidate=60`,
  "Surrogate-Control": `max-age=${SHORT_SHARED_SECONDS}, stale-while-revalidate=60`,
};

/** A purged CDN's lifetime of `seconds` (LONG_SHARED_SECONDS or URL_PURGED_SHARED_SECONDS), served stale for a day while the origin is down. */
export function purgedSharedCache(seconds: number): SharedCacheHeaders {
  return {
    "Cache-Control": `public, max-age=0, s-maxage=${seconds}`,
    "CDN-Cache-Control": `max-age=${seconds}, stale-while-revalidate=60, stale-if-error=86400`,
    "Surrogate-Control": `max-age=${seconds}, stale-while-revalidate=60, stale-if-error=86400`,
  };
}

/**
 * A shared cache's lifetime of `seconds`, with no serving stale after it: a stale copy's, or that of a
 * page whose empty ad slots a campaign fills when the site's day turns (issue 43).
 */
export function briefSharedCache(seconds: number): SharedCacheHeaders {
  return {
    "Cache-Control": `public, max-age=0, s-maxage=${seconds}`,
    "CDN-Cache-Control": `max-age=${seconds}`,
    "Surrogate-Control": `max-age=${seconds}`,
  };
}

export const STALE_SHARED_CACHE: SharedCacheHeaders = briefSharedCache(STALE_SHARED_SECONDS);

/**
 * An old address's 301 answered by a route (a renamed article or tag: decision 0012): browsers 5 min,
 * shared caches 30 s whatever the CDN, since nothing tags it for a purge.
 */
export const MOVED_CACHE_CONTROL = `public, max-age=300, s-maxage=${SHORT_SHARED_SECONDS}`;

/** Whether a Cache-Control value is one of the shared-cache lifetimes above (a route's own value is left alone). */
export function isSharedCacheControl(value: string | null | undefined): boolean {
  return /^public, max-age=0, s-maxage=\d+$/.test(value ?? "");
}
