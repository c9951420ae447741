import { data } from "react-router";
import {
  listSitemapArticles,
  listSitemapAuthors,
  listSitemapCategories,
  pagesLastChange,
  parseArticleSitemapFile,
} from "~/domain/articles/feeds.server";
import { listPublicTagsForSitemap } from "~/domain/tags/tags.server";
import { listSitemapPages, pagePath } from "~/domain/pages/pages.server";
import { urlsetDocument, xmlResponse, type SitemapUrl } from "~/domain/articles/feed-xml.server";
import type { Route } from "./+types/sitemap-child";

/** The site's own pages besides articles, categories and authors. */
const STATIC_PATHS = ["/about", "/contact", "/disclaimer", "/cookie-policy", "/privacy-policy", "/terms-of-service"];

/** GET /sitemaps/:file: one child sitemap of the index (404 for a name it does not list). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const url = (path: string, lastmod?: Date | null): SitemapUrl => ({ loc: `${origin}${path}`, lastmod });
  let urls: SitemapUrl[];
  if (params.file === "pages.xml") {
    // The home page changes with every article; the static pages with the settings they show.
    // Published pages (issue 29) with their own last change: one small query of a handful of rows.
    const [{ home, staticPages }, pages] = await Promise.all([pagesLastChange(context.db), listSitemapPages(context.db)]);
    urls = [url("/", home), ...STATIC_PATHS.map((p) => url(p, staticPages)), ...pages.map((p) => url(pagePath(encodeURIComponent(p.slug)), p.lastmod))];
  } else if (params.file === "categories.xml") {
    urls = (await listSitemapCategories(context.db)).map((c) => url(`/category/${encodeURIComponent(c.slug)}`, c.lastmod && new Date(c.lastmod)));
  } else if (params.file === "authors.xml") {
    urls = (await listSitemapAuthors(context.db)).map((a) => url(`/author/${encodeURIComponent(a.slug)}`, a.lastmod));
  } else if (params.file === "tags.xml") {
    urls = (await listPublicTagsForSitemap(context.db)).map((t) => url(`/tag/${encodeURIComponent(t.slug)}`, t.lastmod));
  } else {
    const part = parseArticleSitemapFile(params.file);
    const articles = part ? await listSitemapArticles(context.db, part.month, part.part) : [];
    if (articles.length === 0) throw data("Sitemap not found", { status: 404 });
    urls = articles.map((a) => url(`/article/${encodeURIComponent(a.slug)}`, a.updatedAt));
  }
  // An empty child (no categories or authors yet) is not in the index, and an empty <urlset> breaks the schema.
  if (urls.length === 0) throw data("Sitemap not found", { status: 404 });
  return xmlResponse(urlsetDocument(urls));
}
