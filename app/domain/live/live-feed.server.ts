import { absoluteUrls, cdata } from "~/domain/articles/feed-xml.server";
import { liveUpdateHeadline } from "~/lib/structured-data";
import { xmlEscape } from "~/lib/xml";
import { updatePermalink, type LiveUpdateView } from "./live-updates";

// A live story's own feed (issue 31): /article/{slug}/rss.xml, its newest updates as items, each a link
// to its permalink (the page of updates that starts with it, at its anchor). Pure: the route reads, this writes (checked by xmllint in the tests).

export interface LiveFeedStory {
  title: string;
  slug: string;
  /** The summary: the channel's description. */
  excerpt: string | null;
  publishedAt: Date | string;
  liveStartedAt: Date | string;
}

/** When an update last changed: its edit, or its post. */
const changedAt = (update: LiveUpdateView) => new Date(update.editedAt ?? update.createdAt);

/**
 * The RSS 2.0 document of a story's updates (newest first, as given): each item's title is the
 * update's headline or the start of its text, its guid the update's id (the same item after an edit),
 * its description the plain text and content:encoded the body. lastBuildDate is the latest post or
 * edit among them (the story's going live when it has none yet).
 */
export function liveFeedDocument(siteName: string, story: LiveFeedStory, updates: readonly LiveUpdateView[], origin: string): string {
  const page = `${origin}/article/${encodeURIComponent(story.slug)}`;
  const start = new Date(Math.max(new Date(story.liveStartedAt).getTime(), new Date(story.publishedAt).getTime()));
  const lastBuild = updates.reduce((latest, u) => (changedAt(u) > latest ? changedAt(u) : latest), start);
  const items = updates.map((update) =>
    [
      "    <item>",
      `      <title>${xmlEscape(liveUpdateHeadline(update))}</title>`,
      `      <link>${xmlEscape(`${origin}${updatePermalink(story.slug, update.id)}`)}</link>`,
      `      <guid isPermaLink="false">urn:uuid:${update.id}</guid>`,
      `      <pubDate>${new Date(update.createdAt).toUTCString()}</pubDate>`,
      `      <description>${xmlEscape(update.text)}</description>`,
      update.author ? `      <dc:creator>${xmlEscape(update.author.name)}</dc:creator>` : "",
      `      <content:encoded>${cdata(absoluteUrls(update.bodyHtml, origin))}</content:encoded>`,
      "    </item>",
    ]
      .filter(Boolean)
      .join("\n"),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "  <channel>",
    `    <title>${xmlEscape(`${story.title}: live updates | ${siteName}`)}</title>`,
    `    <link>${xmlEscape(page)}</link>`,
    `    <description>${xmlEscape(story.excerpt || `Live updates: ${story.title}`)}</description>`,
    "    <language>en-us</language>",
    `    <lastBuildDate>${lastBuild.toUTCString()}</lastBuildDate>`,
    `    <atom:link href="${xmlEscape(`${page}/rss.xml`)}" rel="self" type="application/rss+xml" />`,
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}
