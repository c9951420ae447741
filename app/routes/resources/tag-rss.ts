import { MOVED_CACHE_CONTROL } from "~/lib/cache-control";
import { data, redirect } from "react-router";
import { rssResponse } from "~/domain/articles/feed-xml.server";
import { findPublicTag } from "~/domain/tags/tags.server";
import type { Route } from "./+types/tag-rss";

/** GET /tag/:slug/rss.xml: a tag's newest public stories (issue 29); an old address redirects, an unknown tag is a 404. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const found = await findPublicTag(context.db, params.slug);
  if (found && "redirect" in found) throw redirect(`/tag/${found.redirect}/rss.xml`, { status: 301, headers: { "Cache-Control": MOVED_CACHE_CONTROL } });
  if (!found) throw data("Tag not found", { status: 404 });
  const { tag } = found;
  const page = `${origin}/tag/${tag.slug}`;
  return rssResponse(context.db, origin, { kind: "tag", tagId: tag.id }, (site) => ({
    title: `${tag.name} | ${site.name}`,
    description: `The latest stories tagged ${tag.name} from ${site.name}.`,
    link: page,
    self: `${page}/rss.xml`,
  }));
}
