import type { Route } from "./+types/robots";

/** GET /robots.txt: everything public may be crawled; the back office, APIs and ads' click addresses may not; both sitemaps listed. */
export function loader({ context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /api/",
    // Ads' click addresses (issue 43): a crawler following one is no reader (and counts nothing anyway).
    "Disallow: /ads/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    `Sitemap: ${origin}/news-sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
