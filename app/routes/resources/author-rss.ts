import { data } from "react-router";
import { listFeedItems } from "~/domain/articles/feeds.server";
import { rssDocument, xmlResponse } from "~/domain/articles/feed-xml.server";
import { getAuthorBySlug } from "~/domain/authors/authors.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Route } from "./+types/author-rss";

/** GET /author/:slug/rss.xml: an author's newest articles (404 for an unknown author). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const author = await getAuthorBySlug(context.db, params.slug);
  if (!author) throw data("Author not found", { status: 404 });
  const [settings, items] = await Promise.all([getSettings(context.db), listFeedItems(context.db, { kind: "author", authorId: author.id })]);
  const page = `${origin}/author/${author.slug}`;
  const channel = {
    title: `${author.name} | ${settings.siteName}`,
    description: `Stories by ${author.name}${author.roleTitle ? `, ${author.roleTitle}` : ""}, from ${settings.siteName}.`,
    link: page,
    self: `${page}/rss.xml`,
  };
  return xmlResponse(rssDocument(channel, items, origin), "rss");
}
