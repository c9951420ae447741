import { xmlEscape } from "~/lib/xml";
import type { Db } from "~/db/client.server";
import { getSettings } from "~/domain/settings/settings.server";
import { listFeedItems, type FeedItem, type FeedScope } from "./feeds.server";

// The XML documents of the feeds and sitemaps (decision 0019): pure functions of what the loaders
// read, so each is checked on its own (and against the sitemaps XSD with xmllint in the tests).

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** Relative URLs (/media/…, /article/…) in an article's HTML made absolute: a feed reader has no base. */
export function absoluteUrls(html: string, origin: string): string {
  return html.replace(/\b(src|href|poster)="\/(?!\/)/g, `$1="${origin}/`);
}

/** Text as CDATA (a "]]>" inside split across two sections, so no text can end it early). */
export function cdata(text: string): string {
  return `<![CDATA[${text.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
}

export interface FeedChannel {
  title: string;
  description: string;
  /** The page the feed follows (home, the category's or the author's page), absolute. */
  link: string;
  /** The feed's own URL, absolute. */
  self: string;
}

/** An RSS 2.0 feed with full bodies (content:encoded), lead images, every author and stable guids. */
export function rssDocument(channel: FeedChannel, items: readonly FeedItem[], origin: string): string {
  const lastBuild = items.reduce<Date | null>((newest, item) => (!newest || item.updatedAt > newest ? item.updatedAt : newest), null);
  const itemXml = items.map((item) => {
    const link = `${origin}/article/${encodeURIComponent(item.slug)}`;
    const creators = item.authors.length ? item.authors.map((a) => a.name) : [item.authorName];
    const image = item.image && { ...item.image, url: new URL(item.image.url, `${origin}/`).href };
    return [
      "    <item>",
      `      <title>${xmlEscape(item.title)}</title>`,
      `      <link>${xmlEscape(link)}</link>`,
      // The article's id: the same item after a slug change (readers do not see it twice).
      `      <guid isPermaLink="false">urn:uuid:${item.id}</guid>`,
      `      <pubDate>${item.publishedAt.toUTCString()}</pubDate>`,
      `      <description>${xmlEscape(item.excerpt ?? item.title)}</description>`,
      ...creators.map((name) => `      <dc:creator>${xmlEscape(name)}</dc:creator>`),
      item.category ? `      <category>${xmlEscape(item.category)}</category>` : "",
      `      <content:encoded>${cdata(absoluteUrls(item.html, origin))}</content:encoded>`,
      image
        ? `      <media:content url="${xmlEscape(image.url)}" medium="image"${image.type ? ` type="${xmlEscape(image.type)}"` : ""}${image.length ? ` fileSize="${image.length}"` : ""}>${
            image.alt ? `<media:description type="plain">${xmlEscape(image.alt)}</media:description>` : ""
          }</media:content>`
        : "",
      // An enclosure needs its type and byte length: only for our own uploads, whose media row has both.
      image?.type && image.length ? `      <enclosure url="${xmlEscape(image.url)}" length="${image.length}" type="${xmlEscape(image.type)}" />` : "",
      "    </item>",
    ]
      .filter(Boolean)
      .join("\n");
  });
  return [
    XML_DECLARATION,
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">',
    "  <channel>",
    `    <title>${xmlEscape(channel.title)}</title>`,
    `    <link>${xmlEscape(channel.link)}</link>`,
    `    <description>${xmlEscape(channel.description)}</description>`,
    "    <language>en-us</language>",
    lastBuild ? `    <lastBuildDate>${lastBuild.toUTCString()}</lastBuildDate>` : "",
    `    <atom:link href="${xmlEscape(channel.self)}" rel="self" type="application/rss+xml" />`,
    ...itemXml,
    "  </channel>",
    "</rss>",
    "",
  ]
    .filter((line, i, all) => line !== "" || i === all.length - 1)
    .join("\n");
}

export interface SitemapUrl {
  /** Absolute. */
  loc: string;
  lastmod?: Date | null;
}

const lastmodXml = (lastmod?: Date | null) => (lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : "");

/** A <urlset> of at most SITEMAP_MAX_URLS URLs (the callers page them). */
export function urlsetDocument(urls: readonly SitemapUrl[]): string {
  return [
    XML_DECLARATION,
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((u) => `  <url><loc>${xmlEscape(u.loc)}</loc>${lastmodXml(u.lastmod)}</url>`),
    "</urlset>",
    "",
  ].join("\n");
}

/** The <sitemapindex> pointing at the child sitemaps. */
export function sitemapIndexDocument(children: readonly SitemapUrl[]): string {
  return [
    XML_DECLARATION,
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...children.map((c) => `  <sitemap><loc>${xmlEscape(c.loc)}</loc>${lastmodXml(c.lastmod)}</sitemap>`),
    "</sitemapindex>",
    "",
  ].join("\n");
}

/** A Google News sitemap: each article with its publication (site name, language), date and title; a live story with its newest update as lastmod. */
export function newsSitemapDocument(siteName: string, items: readonly { loc: string; title: string; publishedAt: Date; lastmod?: Date | null }[]): string {
  return [
    XML_DECLARATION,
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">',
    ...items.map((item) =>
      [
        "  <url>",
        `    <loc>${xmlEscape(item.loc)}</loc>`,
        // A live story's newest update (issue 31): the news extension has no change date of its own.
        ...(item.lastmod ? [`    ${lastmodXml(item.lastmod)}`] : []),
        "    <news:news>",
        "      <news:publication>",
        `        <news:name>${xmlEscape(siteName)}</news:name>`,
        "        <news:language>en</news:language>",
        "      </news:publication>",
        `      <news:publication_date>${item.publishedAt.toISOString()}</news:publication_date>`,
        `      <news:title>${xmlEscape(item.title)}</news:title>`,
        "    </news:news>",
        "  </url>",
      ].join("\n"),
    ),
    "</urlset>",
    "",
  ].join("\n");
}

/** The answer of a feed or sitemap: its type, cached like pages (the page cache clears it on writes). */
export function xmlResponse(body: string, type: "rss" | "xml" = "xml"): Response {
  return new Response(body, {
    headers: {
      "Content-Type": type === "rss" ? "application/rss+xml; charset=utf-8" : "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
}

/**
 * A feed's whole answer: the scope's newest articles as RSS, under the channel the route describes
 * from the site's name and description (the site's, a category's and an author's feed alike).
 */
export async function rssResponse(
  db: Db,
  origin: string,
  scope: FeedScope,
  channel: (site: { name: string; description: string | null }) => FeedChannel,
): Promise<Response> {
  const [settings, items] = await Promise.all([getSettings(db), listFeedItems(db, scope)]);
  return xmlResponse(rssDocument(channel({ name: settings.siteName, description: settings.siteDescription }), items, origin), "rss");
}
