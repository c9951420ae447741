import {
  articleSitemapFile,
  listArticleSitemapParts,
  listNewsSitemapArticles,
  listSitemapAuthors,
  listSitemapCategories,
  pagesLastChange,
} from "~/domain/articles/feeds.server";
import { sitemapIndexDocument, xmlResponse } from "~/domain/articles/feed-xml.server";
import type { Route } from "./+types/sitemap";

/**
 * GET /sitemap.xml: the sitemap index (decision 0019): the site's pages, categories, authors, the
 * articles by month of publication (parts of at most 50,000), and the Google News sitemap. A child
 * with nothing in it (no authors yet, no news in two days) is left out: the schema wants at least one URL.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const [parts, { home, staticPages, newestArticle: newest }, categories, authors, news] = await Promise.all([
    listArticleSitemapParts(context.db),
    pagesLastChange(context.db),
    listSitemapCategories(context.db),
    listSitemapAuthors(context.db),
    listNewsSitemapArticles(context.db),
  ]);
  const children = [
    { loc: `${origin}/sitemaps/pages.xml`, lastmod: home },
    ...(categories.length ? [{ loc: `${origin}/sitemaps/categories.xml`, lastmod: newest ?? staticPages }] : []),
    ...(authors.length ? [{ loc: `${origin}/sitemaps/authors.xml`, lastmod: newest }] : []),
    ...parts.map((p) => ({ loc: `${origin}/sitemaps/${articleSitemapFile(p)}`, lastmod: p.lastmod })),
    ...(news.length ? [{ loc: `${origin}/news-sitemap.xml`, lastmod: newest }] : []),
  ];
  return xmlResponse(sitemapIndexDocument(children));
}
