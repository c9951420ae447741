import { rssResponse } from "~/domain/articles/feed-xml.server";
import type { Route } from "./+types/rss";

/** GET /rss.xml: the site's newest articles, full text (one feed builder for the site, categories and authors). */
export function loader({ context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  return rssResponse(context.db, origin, { kind: "site" }, (site) => ({
    title: site.name,
    description: site.description ?? site.name,
    link: `${origin}/`,
    self: `${origin}/rss.xml`,
  }));
}
