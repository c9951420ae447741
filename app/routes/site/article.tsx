import { MOVED_CACHE_CONTROL } from "~/lib/cache-control";
import { keepDataOnHashMoves } from "~/lib/revalidation";
import { useEffect, useState } from "react";
import { data, redirect } from "react-router";
import { AdSlot } from "~/components/ad-slot";
import { ArticleView } from "~/components/article-view";
import { ArticleTags } from "~/components/article-tags";
import { useGalleryViewer } from "~/components/gallery-viewer-loader";
import { StoryCardsSection } from "~/components/article-card";
import { CommentsSection } from "~/components/comments/comment-thread";
import { HydrateLater } from "~/components/hydrate-later";
import { MostRead } from "~/components/most-read";
import { NewsletterSignup } from "~/components/newsletter-signup";
import { RouteError } from "~/components/not-found";
import { mostRead } from "~/domain/audience/most-read.server";
import { getArticleBySlug, presentArticle } from "~/domain/articles/articles.server";
import { storyPostersOf } from "~/domain/articles/embed-posters.server";
import { listRecirculation } from "~/domain/articles/recirculation.server";
import { findSlugRedirect } from "~/domain/articles/slug-redirects.server";
import { pageGateOf } from "~/domain/articles/story-gate.server";
import { storyAccessOf } from "~/domain/articles/story-paywall";
import { getArticleTags } from "~/domain/tags/tags.server";
import { COMMENT_FIELDS, COMMENT_GUARD_FIELDS, JUST_POSTED_PARAM, justPostedOf, justPostedPath } from "~/domain/comments/comments.schema";
import { listArticleComments, postComment } from "~/domain/comments/comments.server";
import { signupChoices } from "~/domain/newsletters/subscribers.server";
import { AppError } from "~/lib/app-error";
import { moreFromTag, noteShown, noteStories } from "~/lib/cache-tags.server";
import { clientIpOf } from "~/lib/client-address.server";
import { formValues, refuse } from "~/lib/forms";
import { pageMeta } from "~/page-meta";
import { VIEW_EVENT } from "~/lib/page-view-event";
import { useReadingReport } from "~/lib/reading-report";
import { articleSearchAndSocial, describeArticle, NOINDEX } from "~/lib/seo";
import { breadcrumbJsonLd, liveBlogPostingJsonLd, newsArticleJsonLd } from "~/lib/structured-data";
import { LiveStatusLine, LiveUpdates, useLiveCoverage, type LiveCoverageData } from "~/components/live/live-coverage";
import { liveUpdatesFor } from "~/domain/live/live-coverage.server";
import { OLDER_UPDATES_PARAM, UPDATE_PARAM } from "~/domain/live/live-updates";
import type { Route } from "./+types/article";

/**
 * How long browsers (5 min) and shared caches (30 s, as pages) may keep an old address's 301: not for
 * ever (a 301's default), since the article may take the address back, or be unpublished (decision 0012).
 */
const REDIRECT_CACHE_CONTROL = MOVED_CACHE_CONTROL;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const article = await getArticleBySlug(context.db, params.slug);
  if (!article) {
    // An old address of a public article (its slug changed): one hop to where it lives now, query kept.
    const current = await findSlugRedirect(context.db, params.slug);
    if (current) {
      const url = new URL(request.url);
      url.searchParams.delete("_routes");
      throw redirect(`/article/${current}${url.search}`, { status: 301, headers: { "Cache-Control": REDIRECT_CACHE_CONTROL } });
    }
    context.log.warn({ path: new URL(request.url).pathname }, "404: unknown article");
    throw data("Article not found", { status: 404 });
  }
  const url = new URL(request.url);
  // ?older-than=<comment id> shows the page of top-level comments after that one ("Show older comments").
  const olderThan = url.searchParams.get("older-than") ?? undefined;
  // ?comment=<id> or ?comment=held: where a comment posted without JavaScript lands (see the action).
  const justPosted = justPostedOf(url.searchParams.get(JUST_POSTED_PARAM));
  // Issue 40: which copy of a gated story this render is (the page cache's class, or a staff session's
  // whole story); a gated story's access is noted for the cache (context.gate). A live story's updates
  // are part of the whole story: a teaser reads none (liveUpdatesFor).
  const gating = pageGateOf(request, context, { id: article.id, access: storyAccessOf(article) });
  const [page, { moreFromCategory, related }, tags, newsletters, live, gate, posters, popular] = await Promise.all([
    listArticleComments(context.db, article.id, { olderThan, kept: { memo: context.storyMemo, slug: article.slug } }),
    listRecirculation(context.db, article, context.storyMemo),
    getArticleTags(context.db, article.id),
    signupChoices(context.db),
    gating.then((gated) =>
      liveUpdatesFor(context.db, article, gated.variant === "full", { olderThan: url.searchParams.get(OLDER_UPDATES_PARAM) ?? undefined, from: url.searchParams.get(UPDATE_PARAM) ?? undefined }),
    ),
    gating,
    // Its videos' and posts' posters (issue 41), in one query; a poster that arrives drops this page.
    storyPostersOf(context.db, article.contentDoc),
    // The last 24 hours' most read but this story (issue 42): kept in the process for minutes.
    mostRead(context.db, { exclude: article.id, changes: context.changes }),
  ]);
  // The page goes from the cache when one of these stories changes, and goes stale when one is
  // published in its category ("More from" shows the newest: decision 0028).
  noteStories(context, [article, ...moreFromCategory, ...related, ...popular.map((s) => ({ id: s.articleId }))]);
  if (article.category) noteShown(context, moreFromTag(article.category.slug));
  const payload = {
    // modifiedAt and corrections (newest first) are what a later schema.org dateModified / correction will read.
    // A teaser's article holds its free part only (text, HTML, reading time): never the gated blocks.
    article: presentArticle(article, gate, posters),
    comments: page.threads,
    olderThreads: page.olderThreads,
    // The comment form's signed "shown at" stamp (a minimum fill time; a cached page's is older, never younger).
    commentFormStarted: context.commentSpam.formTimer.issue(),
    /** The newsletter sign-up at the end of the story (issue 30): the public newsletters. */
    newsletters,
    commentCount: page.total,
    olderPage: Boolean(olderThan),
    moreFromCategory,
    related,
    mostRead: popular.map(({ articleId, title, slug }) => ({ articleId, title, slug })),
    justPosted,
    /** Its tags (issue 29): names and addresses only. */
    tags: tags.map((t) => ({ name: t.name, slug: t.slug })),
    /** A story that is or was live (issue 31): its updates, and the newest 50 in brief for the structured data. */
    live,
  };
  // The confirmation is one reader's: that answer is never stored in the page cache nor by anyone else.
  return data(payload, url.searchParams.has(JUST_POSTED_PARAM) ? { headers: { "Cache-Control": "no-store" } } : undefined);
}


export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

// A move within the page ("#" links, then Back) loads nothing again (app/lib/revalidation.ts).
export const shouldRevalidate = keepDataOnHashMoves;

/**
 * A comment posted without JavaScript (the form's plain POST); with it, the form uses /api/articles/:slug/comments.
 * Posted, the reader is sent to the article again (303), at their comment with "Comment posted!" on it, or
 * at the form with the held-for-moderation notice: the page they land on says what happened where they look,
 * and a reload does not post again.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const { intent, ...values } = formValues(await request.formData(), ["intent", ...COMMENT_FIELDS, ...COMMENT_GUARD_FIELDS]);
  try {
    if (intent !== "comment") throw new AppError("invalid_input", "Unknown action.");
    const { held, id } = await postComment(context.db, context.log, params.slug, values, clientIpOf(request), context.commentSpam);
    return redirect(justPostedPath(params.slug, held ? { held: true } : { id }), { status: 303, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    // Refused: the form comes back with what the reader typed (this answer goes to them alone).
    const { authorName, authorEmail, content } = values;
    return refuse(error, { authorName, authorEmail, content });
  }
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => {
  if (!data) return pageMeta(matches, { title: "Article not found", path: location.pathname, robots: NOINDEX });
  const { article, tags } = data;
  const path = `/article/${article.slug}`;
  // A teaser's content is its free part already; the whole story's description comes from its free part too.
  // The desk's SEO title, description and social image when it wrote them (issue 41); the page's h1 stays the headline.
  const social = articleSearchAndSocial({ ...article, description: describeArticle(article.excerpt, article.paywall?.articleBody ?? article.content) });
  const description = social.description;
  const paywall = article.paywall ? { access: article.paywall.access, articleBody: article.paywall.articleBody } : undefined;
  const authors = article.authors.length ? article.authors.map((a) => a.name) : [article.authorName];
  const publishedTime = new Date(article.publishedAt).toISOString();
  // A live story changes with its updates: the newest post or edit, when later than the story's own change.
  const latestUpdate = Math.max(0, ...(data.live?.structured ?? []).map((u) => new Date(u.editedAt ?? u.createdAt).getTime()));
  const modifiedTime = new Date(Math.max(new Date(article.modifiedAt ?? article.publishedAt).getTime(), latestUpdate)).toISOString();
  return pageMeta(matches, {
    title: social.title,
    description,
    image: social.image,
    imageFocus: social.imageFocus,
    imageAlt: social.imageAlt,
    type: "article",
    authors,
    publishedTime,
    modifiedTime,
    section: article.category?.name,
    video: article.videoUrl,
    path,
    // A story that has been live: its own feed of updates (issue 31).
    feed: data.live ? { title: `${article.title}: live updates`, path: `${path}/rss.xml` } : undefined,
    structuredData: (site) => [
      data.live
        ? liveBlogPostingJsonLd(
            site,
            { ...article, description, image: article.featuredImage, imageFocus: article.featuredImageFocus, keywords: tags.map((t) => t.name), paywall },
            { startedAt: data.live.coverage.startedAt, endedAt: data.live.coverage.endedAt },
            data.live.structured,
          )
        : newsArticleJsonLd(site, { ...article, description, image: article.featuredImage, imageFocus: article.featuredImageFocus, keywords: tags.map((t) => t.name), paywall }),
      breadcrumbJsonLd(site, [
        { name: "Home", path: "/" },
        ...(article.category ? [{ name: article.category.name, path: `/category/${article.category.slug}` }] : []),
        { name: article.title, path },
      ]),
    ],
  });
};

/** The view count: the loader's (possibly cached) value, then the beacon's fresh answer. */
function useLiveViews(path: string, initial: number) {
  const [views, setViews] = useState(initial);
  useEffect(() => setViews(initial), [initial]);
  useEffect(() => {
    const onViews = (event: Event) => {
      const detail = (event as CustomEvent<{ path: string; views?: number }>).detail;
      if (detail.path === path && typeof detail.views === "number") setViews(detail.views);
    };
    window.addEventListener(VIEW_EVENT, onViews);
    return () => window.removeEventListener(VIEW_EVENT, onViews);
  }, [path]);
  return views;
}

/** A live story (issue 31): the story with its status line and "What we know", then its updates. */
function LiveArticle({ article, views, pageUrl, coverage }: { article: Route.ComponentProps["loaderData"]["article"]; views: number; pageUrl: string; coverage: LiveCoverageData }) {
  const { state, listRef, reveal } = useLiveCoverage(coverage);
  return (
    <>
      <ArticleView article={article} views={views} shareUrl={pageUrl} liveStatus={<LiveStatusLine live={state.live} endedAt={state.endedAt} />} />
      <LiveUpdates data={coverage} state={state} listRef={listRef} onReveal={reveal} pageUrl={pageUrl} />
    </>
  );
}

export default function ArticlePage({ loaderData, actionData, matches }: Route.ComponentProps) {
  const { article, comments, commentCount, olderThreads, olderPage, moreFromCategory, related, mostRead: popular, justPosted, tags, newsletters, commentFormStarted, live } = loaderData;
  const path = `/article/${article.slug}`;
  const views = useLiveViews(path, article.views);
  // How long the story was read and how far (issue 42): reported to /api/audience/read.
  useReadingReport(path);
  // A story with a gallery (issue 41): its full-screen viewer, loaded only here and then.
  useGalleryViewer(article.body?.html);
  const publicUrl = matches[0].data.publicUrl;
  return (
    <main className="mx-auto w-full max-w-4xl flex-1 px-4 py-8">
      {live ? (
        <LiveArticle article={article} views={views} pageUrl={`${publicUrl}${path}`} coverage={live.coverage} />
      ) : (
        <ArticleView article={article} views={views} shareUrl={`${publicUrl}${path}`} />
      )}
      <ArticleTags tags={tags} />

      {/* The newsletter sign-up at the end of the story; its form shares the page's "shown at" stamp with the comment form. */}
      <HydrateLater>
        <NewsletterSignup className="mt-12" newsletters={newsletters} source={path} formStarted={commentFormStarted} />
      </HydrateLater>

      <AdSlot name="article" category={article.category?.slug} className="mt-12" />

      {/* Below the story: hydrated in a task after the rest (app/components/hydrate-later.tsx). */}
      <HydrateLater>
        <CommentsSection
          threads={comments}
          total={commentCount}
          olderThreads={olderThreads}
          olderPage={olderPage}
          noScriptOutcome={actionData ?? (justPosted && "held" in justPosted ? { ok: true, held: true } : undefined)}
          postedCommentId={justPosted && "id" in justPosted ? justPosted.id : undefined}
        />

        {article.category && moreFromCategory.length > 0 ? (
          <StoryCardsSection id="more-from-category" title={`More from ${article.category.name}`} articles={moreFromCategory} />
        ) : null}
        {related.length > 0 ? <StoryCardsSection id="related-stories" title="Related stories" articles={related} /> : null}
        <MostRead stories={popular} columns={1} className="mt-12" />
      </HydrateLater>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} notFound={{ title: "Article not found", message: "The article you're looking for doesn't exist." }} />;
}
