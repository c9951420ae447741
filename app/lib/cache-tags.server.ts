import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The page cache's tags (decision 0028): what a cached page shows, by which a change clears it. The
 * same tags are sent as Cache-Tag/Surrogate-Key, so a CDN can purge the way this process does.
 *
 * A page gets tags from its route (server/page-cache.ts, cacheTagsOf: the lists it is) and from what
 * its render read (noteShown: each story whose card or text it shows). A change names the tags it
 * touched (cacheChangeOf, from the database's change notices).
 */

/** Every cached page carries it: clearing it clears the whole cache (a change to the site's frame: categories, settings, authors). */
export const SITE_TAG = "site";
/** Home's list of latest stories. */
export const HOME_TAG = "home";
/** Every RSS feed (the site's, a category's, an author's). */
export const FEEDS_TAG = "feeds";
/** The sitemap index and its children, and the news sitemap. */
export const SITEMAPS_TAG = "sitemaps";

/** A page showing more stories than it names (MAX_STORY_TAGS): any change to a public story drops it. */
export const STORIES_TAG = "stories";
/** The most story tags a page names (a Cache-Tag header stays a few kilobytes). */
export const MAX_STORY_TAGS = 100;

/** An article's page by its address (comments are posted to it by slug). */
export const articleTag = (slug: string) => `article:${slug.toLowerCase()}`;
/** A page that shows this story: its own page, a card on a list, a recirculation card. */
export const storyTag = (id: string) => `story:${id.toLowerCase()}`;
/** Every page of a category's list. */
export const categoryTag = (slug: string) => `category:${slug.toLowerCase()}`;
/** Every page of an author's list. */
export const authorTag = (slug: string) => `author:${slug.toLowerCase()}`;
/** An article page whose "More from" cards are a category's newest stories. */
export const moreFromTag = (categorySlug: string) => `more-from:${categorySlug.toLowerCase()}`;

// One store for both bundles: the server (build/node) runs the render, the app build (build/server)
// notes what it shows, and each would otherwise hold its own copy of this module.
const STORE_KEY = Symbol.for("frontpage.shownDuringRender");
const shownDuringRender: AsyncLocalStorage<Set<string>> = ((globalThis as Record<symbol, unknown>)[STORE_KEY] ??= new AsyncLocalStorage<Set<string>>()) as AsyncLocalStorage<Set<string>>;

/** Runs a render, answering with it the tags its data functions noted (noteShown). */
export async function collectingShownTags<T>(render: () => Promise<T>): Promise<{ result: T; shown: string[] }> {
  const shown = new Set<string>();
  const result = await shownDuringRender.run(shown, render);
  return { result, shown: [...shown] };
}

/** Notes that the page being rendered shows what these tags name (no-op outside a collecting render). */
export function noteShown(...tags: string[]) {
  const shown = shownDuringRender.getStore();
  if (shown) for (const tag of tags) shown.add(tag);
}
