import { data } from "react-router";
import { rssResponse } from "~/domain/articles/feed-xml.server";
import { frameCategory } from "~/domain/settings/site-frame.server";
import type { Route } from "./+types/category-rss";

/** GET /category/:slug/rss.xml: a category's newest articles (404 for an unknown category). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const origin = context.env.publicUrl;
  const category = await frameCategory(context.siteFrame, params.slug);
  if (!category) throw data("Category not found", { status: 404 });
  const page = `${origin}/category/${category.slug}`;
  return rssResponse(context.db, origin, { kind: "category", categoryId: category.id }, (site) => ({
    title: `${category.name} | ${site.name}`,
    description: `The latest ${category.name} stories from ${site.name}.`,
    link: page,
    self: `${page}/rss.xml`,
  }));
}
