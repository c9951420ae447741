import { data } from "react-router";
import { rssResponse } from "~/domain/articles/feed-xml.server";
import { getAuthorBySlug } from "~/domain/authors/authors.server";
import type { Route } from "./+types/author-rss";

/** GET /author/:slug/rss.xml: an author's newest articles (404 for an unknown author). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const author = await getAuthorBySlug(context.db, params.slug);
  if (!author) throw data("Author not found", { status: 404 });
  const page = `${origin}/author/${author.slug}`;
  return rssResponse(context.db, origin, { kind: "author", authorId: author.id }, (site) => ({
    title: `${author.name} | ${site.name}`,
    description: `Stories by ${author.name}${author.roleTitle ? `, ${author.roleTitle}` : ""}, from ${site.name}.`,
    link: page,
    self: `${page}/rss.xml`,
  }));
}
