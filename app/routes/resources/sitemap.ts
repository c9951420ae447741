import { listArticlesForSitemap } from "~/domain/articles/articles.server";
import { listAuthorsForSitemap } from "~/domain/authors/authors.server";
import { listCategories } from "~/domain/categories/categories.server";
import { xmlEscape } from "~/lib/xml";
import type { Route } from "./+types/sitemap";

const STATIC_PATHS = ["/", "/about", "/contact", "/disclaimer", "/cookie-policy", "/privacy-policy", "/terms-of-service"];

/** GET /sitemap.xml: the home page, static pages, every category, every article and every author with a public article. */
export async function loader({ context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const [categories, articles, authors] = await Promise.all([
    listCategories(context.db),
    listArticlesForSitemap(context.db),
    listAuthorsForSitemap(context.db),
  ]);
  const url = (path: string, lastmod?: Date) =>
    `  <url><loc>${xmlEscape(`${origin}${path}`)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ""}</url>`;
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...STATIC_PATHS.map((p) => url(p)),
    ...categories.map((c) => url(`/category/${encodeURIComponent(c.slug)}`)),
    ...articles.map((a) => url(`/article/${encodeURIComponent(a.slug)}`, a.updatedAt)),
    // Authors with at least one public article (decision 0015).
    ...authors.map((a) => url(`/author/${encodeURIComponent(a.slug)}`, a.updatedAt)),
    "</urlset>",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
