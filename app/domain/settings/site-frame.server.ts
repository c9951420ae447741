import { and, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles } from "~/db/schema";
import type { WebsiteSettings } from "~/db/schema";
import type { CategorySummary } from "~/domain/categories/categories.schema";
import { listCategoriesForNav } from "~/domain/categories/categories.server";
import type { FooterPage } from "~/domain/pages/page-path";
import { listFooterPages } from "~/domain/pages/pages.server";
import type { ChangeEvent } from "~/lib/change-feed.server";
import { getSettings } from "./settings.server";

/** What every page's frame shows: the settings (name, logo, banner, footer), the navigation's categories and the footer's pages. */
export interface SiteFrame {
  settings: WebsiteSettings;
  categories: CategorySummary[];
  /** Published pages listed in the footer (issue 29), in their order. */
  footerPages: FooterPage[];
  /**
   * The breaking-news banner links to a live story's page (issue 31): it says "LIVE" instead of
   * "Breaking". Read with the frame, and read again when a change notice names that story.
   */
  bannerLive: boolean;
}

/** The story a banner's link names (`/article/{slug}`, this site's path), or null. */
export function bannerStorySlug(url: string | null): string | null {
  const match = url ? /^\/article\/([^/?#]+)\/?(?:[?#].*)?$/.exec(url) : null;
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

/** Whether the story at `slug` is public and live now. */
async function isLiveStory(db: Db, slug: string): Promise<boolean> {
  const [row] = await db
    .select({ id: articles.id })
    .from(articles)
    .where(
      and(
        eq(articles.slug, slug),
        eq(articles.status, "published"),
        lte(articles.publishedAt, sql`now()`),
        isNotNull(articles.liveStartedAt),
        isNull(articles.liveEndedAt),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Whether a change notice may have changed the banner's story (its live state): an articles notice
 * naming its address, or one too large to name any. The banner is on every page, so such a change
 * drops every page (the story's own notice drops only its lists).
 */
export function changesBannerStory(event: ChangeEvent, bannerSlug: string | null): boolean {
  if (!bannerSlug || event.table !== "articles") return false;
  return !event.public || event.public.slugs.includes(bannerSlug);
}

/** The tables the frame is read from; a change notice naming one (or a lost connection: "*") reads it again. */
const FRAME_TABLES = new Set(["website_settings", "categories", "pages", "*"]);

/** A category by its address, from the kept frame (null: no such category): no query of its own. */
export async function frameCategory(siteFrame: () => Promise<SiteFrame>, slug: string): Promise<CategorySummary | null> {
  return (await siteFrame()).categories.find((category) => category.slug === slug) ?? null;
}

/**
 * The frame, read once and kept until the database says it changed (issue 13: two of an article
 * render's fourteen queries, on every page). Every process hears every change notice; a write through
 * this process answers only once it has heard its own (decision 0028), so the writer's next page shows
 * it. A failed read is not kept.
 */
export function createSiteFrame(
  db: Db,
  changes: { on(event: "change", listener: (event: ChangeEvent) => void): unknown },
  options: { onBannerStoryChange?: () => void } = {},
): () => Promise<SiteFrame> {
  let kept: Promise<SiteFrame> | null = null;
  // The story the banner links to, as of the settings last read (its live state is in the frame).
  let bannerSlug: string | null = null;
  changes.on("change", (event) => {
    if (FRAME_TABLES.has(event.table)) kept = null;
    else if (changesBannerStory(event, bannerSlug)) {
      kept = null;
      options.onBannerStoryChange?.();
    }
  });
  return () => {
    if (kept) return kept;
    const reading = Promise.all([getSettings(db), listCategoriesForNav(db), listFooterPages(db)]).then(async ([settings, categories, footerPages]) => {
      const slug = bannerStorySlug(settings.breakingNewsText ? settings.breakingNewsUrl : null);
      bannerSlug = slug;
      return { settings, categories, footerPages, bannerLive: slug ? await isLiveStory(db, slug) : false };
    });
    kept = reading;
    reading.catch(() => {
      if (kept === reading) kept = null;
    });
    return reading;
  };
}
