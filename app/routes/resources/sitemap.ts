import {
  articleSitemapFile,
  listArticleSitemapParts,
  listNewsSitemapArticles,
  listSitemapAuthors,
  listSitemapCategories,
  newestArticleChange,
} from "~/domain/articles/feeds.server";
import { sitemapIndexDocument, xmlResponse } from "~/domain/articles/feed-xml.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Route } from "./+types/sitemap";

/**
 * GET /sitemap.xml: the sitemap index (decision 0019): the site's pages, categories, authors, the
 * articles by month of publication (parts of at most 50,000), and the Google News sitemap. A child
 * with nothing in it (no authors yet, no news in two days) is left out: the schema wants at least one URL.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const [parts, newest, settings, categories, authors, news] = await Promise.all([
    listArticleSitemapParts(context.db),
    newestArticleChange(context.db),
    getSettings(context.db),
    listSitemapCategories(context.db),
    listSitemapAuthors(context.db),
    listNewsSitemapArticles(context.db),
  ]);
  const latest = newest && newest > settings.updatedAt ? newest : settings.updatedAt;
  const children = [
    { loc: `${origin}/sitemaps/pages.xml`, lastmod: latest },
    ...(categories.length ? [{ loc: `${origin}/sitemaps/categories.xml`, lastmod: newest ?? settings.updatedAt }] : []),
    ...(authors.length ? [{ loc: `${origin}/sitemaps/authors.xml`, lastmod: newest }] : []),
    ...parts.map((p) => ({ loc: `${origin}/sitemaps/${articleSitemapFile(p)}`, lastmod: p.lastmod })),
    ...(news.length ? [{ loc: `${origin}/news-sitemap.xml`, lastmod: newest }] : []),
  ];
  return xmlResponse(sitemapIndexDocument(children));
}
