import { listLatestArticles } from "~/domain/articles/articles.server";
import { getSettings } from "~/domain/settings/settings.server";
import { xmlEscape } from "~/lib/xml";
import type { Route } from "./+types/rss";

export const RSS_ITEMS = 50;

/** GET /rss.xml: the newest articles as an RSS 2.0 feed. */
export async function loader({ context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const [settings, articles] = await Promise.all([getSettings(context.db), listLatestArticles(context.db, RSS_ITEMS)]);
  const items = articles.map((a) => {
    const link = `${origin}/article/${encodeURIComponent(a.slug)}`;
    return [
      "    <item>",
      `      <title>${xmlEscape(a.title)}</title>`,
      `      <link>${xmlEscape(link)}</link>`,
      `      <guid isPermaLink="true">${xmlEscape(link)}</guid>`,
      `      <pubDate>${a.publishedAt.toUTCString()}</pubDate>`,
      `      <description>${xmlEscape(a.excerpt ?? a.title)}</description>`,
      `      <dc:creator>${xmlEscape(a.authorName)}</dc:creator>`,
      a.category ? `      <category>${xmlEscape(a.category.name)}</category>` : "",
      "    </item>",
    ]
      .filter(Boolean)
      .join("\n");
  });
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "  <channel>",
    `    <title>${xmlEscape(settings.siteName)}</title>`,
    `    <link>${xmlEscape(`${origin}/`)}</link>`,
    `    <description>${xmlEscape(settings.siteDescription ?? settings.siteName)}</description>`,
    "    <language>en-us</language>",
    `    <atom:link href="${xmlEscape(`${origin}/rss.xml`)}" rel="self" type="application/rss+xml" />`,
    ...items,
    "  </channel>",
    "</rss>",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
