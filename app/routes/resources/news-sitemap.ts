import { listNewsSitemapArticles } from "~/domain/articles/feeds.server";
import { newsSitemapDocument, xmlResponse } from "~/domain/articles/feed-xml.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Route } from "./+types/news-sitemap";

/** GET /news-sitemap.xml: Google News: the public articles of the last two days (at most 1,000). */
export async function loader({ context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const [settings, articles] = await Promise.all([getSettings(context.db), listNewsSitemapArticles(context.db)]);
  const items = articles.map((a) => ({ loc: `${origin}/article/${encodeURIComponent(a.slug)}`, title: a.title, publishedAt: a.publishedAt, lastmod: a.lastmod }));
  return xmlResponse(newsSitemapDocument(settings.siteName, items));
}
