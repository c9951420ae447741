import { articleSitemapFile, listArticleSitemapParts, newestArticleChange } from "~/domain/articles/feeds.server";
import { sitemapIndexDocument, xmlResponse } from "~/domain/articles/feed-xml.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Route } from "./+types/sitemap";

/**
 * GET /sitemap.xml: the sitemap index (decision 0019): the site's pages, categories, authors, the
 * articles by month of publication (parts of at most 50,000), and the Google News sitemap.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const [parts, newest, settings] = await Promise.all([listArticleSitemapParts(context.db), newestArticleChange(context.db), getSettings(context.db)]);
  const latest = newest && newest > settings.updatedAt ? newest : settings.updatedAt;
  const children = [
    { loc: `${origin}/sitemaps/pages.xml`, lastmod: latest },
    { loc: `${origin}/sitemaps/categories.xml`, lastmod: newest },
    { loc: `${origin}/sitemaps/authors.xml`, lastmod: newest },
    ...parts.map((p) => ({ loc: `${origin}/sitemaps/${articleSitemapFile(p)}`, lastmod: p.lastmod })),
    { loc: `${origin}/news-sitemap.xml`, lastmod: newest },
  ];
  return xmlResponse(sitemapIndexDocument(children));
}
