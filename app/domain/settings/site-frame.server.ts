import type { Db } from "~/db/client.server";
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
export function createSiteFrame(db: Db, changes: { on(event: "change", listener: (event: ChangeEvent) => void): unknown }): () => Promise<SiteFrame> {
  let kept: Promise<SiteFrame> | null = null;
  changes.on("change", (event) => {
    if (FRAME_TABLES.has(event.table)) kept = null;
  });
  return () => {
    if (kept) return kept;
    const reading = Promise.all([getSettings(db), listCategoriesForNav(db), listFooterPages(db)]).then(([settings, categories, footerPages]) => ({
      settings,
      categories,
      footerPages,
    }));
    kept = reading;
    reading.catch(() => {
      if (kept === reading) kept = null;
    });
    return reading;
  };
}
