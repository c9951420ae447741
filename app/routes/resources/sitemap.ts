import {
  articleSitemapFile,
  listArticleSitemapParts,
  anyAuthorInSitemap,
  listNewsSitemapArticles,
  pagesLastChange,
} from "~/domain/articles/feeds.server";
import { anyTagInSitemap } from "~/domain/tags/tags.server";
import { sitemapIndexDocument, xmlResponse } from "~/domain/articles/feed-xml.server";
import type { Route } from "./+types/sitemap";

/**
 * GET /sitemap.xml: the sitemap index (decision 0019): the site's pages, categories, authors, tags (issue 29), the
 * articles by month of publication (parts of at most 50,000), and the Google News sitemap. A child
 * with nothing in it (no authors yet, no news in two days) is left out: the schema wants at least one URL.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  // Only whether the categories' and authors' children list anything: each is as new as the newest
  // article change (reading their own lastmods here grouped the archive: issue 13).
  const [parts, { home, staticPages, newestArticle: newest }, { categories }, authors, news, tags] = await Promise.all([
    listArticleSitemapParts(context.db),
    pagesLastChange(context.db),
    context.siteFrame(),
    anyAuthorInSitemap(context.db),
    listNewsSitemapArticles(context.db),
    anyTagInSitemap(context.db),
  ]);
  const children = [
    { loc: `${origin}/sitemaps/pages.xml`, lastmod: home },
    ...(categories.length ? [{ loc: `${origin}/sitemaps/categories.xml`, lastmod: newest ?? staticPages }] : []),
    ...(authors ? [{ loc: `${origin}/sitemaps/authors.xml`, lastmod: newest }] : []),
    ...(tags ? [{ loc: `${origin}/sitemaps/tags.xml`, lastmod: newest }] : []),
    ...parts.map((p) => ({ loc: `${origin}/sitemaps/${articleSitemapFile(p)}`, lastmod: p.lastmod })),
    ...(news.length ? [{ loc: `${origin}/news-sitemap.xml`, lastmod: newest }] : []),
  ];
  return xmlResponse(sitemapIndexDocument(children));
}
