/**
 * The page cache's tags (decision 0028): what a cached page shows, by which a change clears it. The
 * same tags are sent as Cache-Tag/Surrogate-Key, so a CDN can purge the way this process does.
 *
 * A page gets tags from its route (server/page-cache.ts, pageTagsOf: the lists it is) and from what
 * its loaders read (noteStories, noteShown: each story whose card or text it shows). A change names the
 * tags it touched (cacheChangeOf, from the database's change notices).
 */

/** Every cached page carries it: clearing it clears the whole cache (a change to the site's frame: categories, settings, authors). */
export const SITE_TAG = "site";
/** Home's list of latest stories. */
export const HOME_TAG = "home";
/** Every RSS feed (the site's, a category's, an author's). */
export const FEEDS_TAG = "feeds";
/** The sitemap index and its children, and the news sitemap. */
export const SITEMAPS_TAG = "sitemaps";

/**
 * Every redirect answered before routing (decision 0040; server/redirect-door.ts): no page carries it,
 * so a redirects notice drops nothing here, and a CDN purges the redirect answers by it.
 */
export const REDIRECTS_TAG = "redirects";

/** The paid tiers' page (/subscribe, issue 40): a tier saved, archived or moved drops it. */
export const TIERS_TAG = "tiers";

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
/** Every page of a tag's list (issue 29). */
export const tagTag = (slug: string) => `tag:${slug.toLowerCase()}`;
/** An article page whose "More from" cards are a category's newest stories. */
export const moreFromTag = (categorySlug: string) => `more-from:${categorySlug.toLowerCase()}`;

/** Where a render notes what its page shows: the load context's `shown` (set by the request handler for renders the cache may keep). */
export interface ShownCollector {
  shown?: Set<string>;
}

/** Notes that the page being rendered shows what these tags name (nothing happens for a render the cache does not keep). */
export function noteShown(context: ShownCollector, ...tags: string[]) {
  if (context.shown) for (const tag of tags) context.shown.add(tag);
}

/** Notes the stories a page shows (as cards or as its own story): a change to one of them drops the page. */
export function noteStories(context: ShownCollector, stories: readonly { id: string }[]) {
  if (context.shown) for (const story of stories) context.shown.add(storyTag(story.id));
}
