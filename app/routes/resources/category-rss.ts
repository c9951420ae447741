import { data } from "react-router";
import { listFeedItems } from "~/domain/articles/feeds.server";
import { rssDocument, xmlResponse } from "~/domain/articles/feed-xml.server";
import { getCategoryBySlug } from "~/domain/categories/categories.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Route } from "./+types/category-rss";

/** GET /category/:slug/rss.xml: a category's newest articles (404 for an unknown category). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const category = await getCategoryBySlug(context.db, params.slug);
  if (!category) throw data("Category not found", { status: 404 });
  const [settings, items] = await Promise.all([getSettings(context.db), listFeedItems(context.db, { kind: "category", categoryId: category.id })]);
  const page = `${origin}/category/${category.slug}`;
  const channel = {
    title: `${category.name} | ${settings.siteName}`,
    description: `The latest ${category.name} stories from ${settings.siteName}.`,
    link: page,
    self: `${page}/rss.xml`,
  };
  return xmlResponse(rssDocument(channel, items, origin), "rss");
}
