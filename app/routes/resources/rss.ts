import { listFeedItems } from "~/domain/articles/feeds.server";
import { rssDocument, xmlResponse } from "~/domain/articles/feed-xml.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Route } from "./+types/rss";

/** GET /rss.xml: the site's newest articles, full text (one feed builder for the site, categories and authors). */
export async function loader({ context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const [settings, items] = await Promise.all([getSettings(context.db), listFeedItems(context.db, { kind: "site" })]);
  const channel = {
    title: settings.siteName,
    description: settings.siteDescription ?? settings.siteName,
    link: `${origin}/`,
    self: `${origin}/rss.xml`,
  };
  return xmlResponse(rssDocument(channel, items, origin), "rss");
}
