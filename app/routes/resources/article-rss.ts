import { data } from "react-router";
import { getArticleBySlug } from "~/domain/articles/articles.server";
import { xmlResponse } from "~/domain/articles/feed-xml.server";
import { liveFeedDocument } from "~/domain/live/live-feed.server";
import { listNewestLiveUpdates } from "~/domain/live/live-read.server";
import { LIVE_FEED_SIZE } from "~/domain/live/live-updates";
import { storyAccessOf } from "~/domain/members/members.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Route } from "./+types/article-rss";

/**
 * GET /article/:slug/rss.xml: a live story's updates, newest 50 (issue 31). 404 for a story that is not
 * public or was never live; an ended story keeps its feed (its updates stay). Cached like the other
 * feeds, under the story's tag (a new update drops it: server/page-cache.ts). A Members or Paid story's
 * updates are part of its gated content (issue 40): its feed, the same for every reader, has its channel
 * (title, link, summary) and no item.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const article = await getArticleBySlug(context.db, params.slug);
  if (!article?.liveStartedAt) throw data("Feed not found", { status: 404 });
  const [settings, access] = await Promise.all([getSettings(context.db), storyAccessOf(context.db, article.id)]);
  const updates = access.level === "public" ? await listNewestLiveUpdates(context.db, article.id, LIVE_FEED_SIZE) : [];
  const story = { ...article, liveStartedAt: article.liveStartedAt, publishedAt: article.publishedAt ?? article.createdAt };
  return xmlResponse(liveFeedDocument(settings.siteName, story, updates, context.env.publicUrl), "rss");
}
