import { Eye } from "lucide-react";
import { useEffect, useState } from "react";
import { data, Link } from "react-router";
import { AdSlot } from "~/components/ad-slot";
import { CommentsSection } from "~/components/comments/comment-thread";
import { RouteError } from "~/components/not-found";
import { ShareButtons } from "~/components/share-buttons";
import { Badge } from "~/components/ui/badge";
import { getArticleBySlug } from "~/domain/articles/articles.server";
import { readingMinutes, wordCount } from "~/domain/articles/story-document";
import { renderStoryHtml } from "~/domain/articles/story-html";
import { COMMENT_FIELDS, type PostCommentResult } from "~/domain/comments/comments.schema";
import { countArticleComments, listArticleComments, postComment } from "~/domain/comments/comments.server";
import { AppError } from "~/lib/app-error";
import { clientIpOf } from "~/lib/client-address.server";
import { formatArticleDate, useSiteTimeZone } from "~/lib/dates";
import { formValues, refuse } from "~/lib/forms";
import { imageSrcSet } from "~/lib/image-variants";
import { pageMeta } from "~/page-meta";
import { VIEW_EVENT } from "~/lib/page-view-event";
import { describeArticle } from "~/lib/seo";
import type { Route } from "./+types/article";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const article = await getArticleBySlug(context.db, params.slug);
  if (!article) {
    context.log.warn({ path: new URL(request.url).pathname }, "404: unknown article");
    throw data("Article not found", { status: 404 });
  }
  // ?older-than=<comment id> shows the page of top-level comments after that one ("Show older comments").
  const olderThan = new URL(request.url).searchParams.get("older-than") ?? undefined;
  const [page, commentCount] = await Promise.all([
    listArticleComments(context.db, article.id, { olderThan }),
    countArticleComments(context.db, article.id),
  ]);
  // A story written in the editor is rendered here, on the server, through the renderer's allow-list;
  // a plain-text story (no document) is shown as text by the page.
  const { contentDoc, ...shown } = article;
  const body = contentDoc ? { html: renderStoryHtml(contentDoc) } : null;
  const minutes = readingMinutes(wordCount(article.content));
  return {
    article: { ...shown, body, readingMinutes: minutes },
    comments: page.threads,
    olderThreads: page.olderThreads,
    commentCount,
    olderPage: Boolean(olderThan),
  };
}

/** A comment posted without JavaScript (the form's plain POST); with it, the form uses /api/articles/:slug/comments. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const { intent, ...values } = formValues(await request.formData(), ["intent", ...COMMENT_FIELDS]);
  try {
    if (intent !== "comment") throw new AppError("invalid_input", "Unknown action.");
    await postComment(context.db, context.log, params.slug, values, clientIpOf(request));
    return data<PostCommentResult>({ ok: true }, { status: 201 });
  } catch (error) {
    // Refused: the form comes back with what the reader typed (this answer goes to them alone).
    const { authorName, authorEmail, content } = values;
    return refuse(error, { authorName, authorEmail, content });
  }
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => {
  if (!data) {
    return [...pageMeta(matches, { title: "Article not found", path: location.pathname }), { name: "robots", content: "noindex" }];
  }
  const { article } = data;
  return pageMeta(matches, {
    title: article.title,
    description: describeArticle(article.excerpt, article.content),
    image: article.featuredImage,
    type: "article",
    author: article.authorName,
    publishedTime: new Date(article.createdAt).toISOString(),
    path: `/article/${article.slug}`,
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

/** Content as text with its line breaks: blank lines separate paragraphs, single breaks stay. */
function ArticleContent({ content }: { content: string }) {
  const paragraphs = content.split(/\n\s*\n/).filter((p) => p.trim());
  return (
    <div className="space-y-5 text-lg leading-8 text-slate-800">
      {paragraphs.map((p, i) => (
        <p key={i} className="whitespace-pre-line break-words">
          {p.trim()}
        </p>
      ))}
    </div>
  );
}

/** A story from the editor: HTML the server rendered from the document through its allow-list. */
function StoryBody({ html }: { html: string }) {
  return <div className="story-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

export default function ArticlePage({ loaderData, actionData, matches }: Route.ComponentProps) {
  const { article, comments, commentCount, olderThreads, olderPage } = loaderData;
  const path = `/article/${article.slug}`;
  const views = useLiveViews(path, article.views);
  const publicUrl = matches[0].data.publicUrl;
  const timeZone = useSiteTimeZone();
  return (
    <main className="mx-auto w-full max-w-4xl flex-1 px-4 py-8">
      <article>
        {article.featuredImage ? (
          <img
            src={article.featuredImage}
            srcSet={imageSrcSet(article.featuredImage, [640, 960, 1280, 1600])}
            sizes="(min-width: 896px) 864px, 100vw"
            alt=""
            width={1200}
            height={675}
            fetchPriority="high"
            className="mb-8 aspect-video w-full rounded-xl object-cover"
          />
        ) : null}
        <header className="space-y-4">
          {article.category ? (
            <Link to={`/category/${article.category.slug}`}>
              <Badge>{article.category.name}</Badge>
            </Link>
          ) : null}
          <h1 className="font-serif text-3xl font-bold leading-tight text-slate-900 sm:text-5xl">{article.title}</h1>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600">
            <span>
              By <span className="font-medium text-slate-900">{article.authorName}</span>
            </span>
            <time dateTime={new Date(article.createdAt).toISOString()}>{formatArticleDate(article.createdAt, timeZone)}</time>
            <span data-testid="reading-time">{article.readingMinutes} min read</span>
            <span className="inline-flex items-center gap-1" data-testid="view-count">
              <Eye className="h-4 w-4" aria-hidden="true" /> {views} views
            </span>
          </div>
          <ShareButtons url={`${publicUrl}${path}`} title={article.title} />
        </header>

        {article.videoUrl ? (
          <video src={article.videoUrl} controls preload="metadata" className="mt-8 w-full rounded-xl bg-black" aria-label={`Video: ${article.title}`} />
        ) : null}

        {article.excerpt ? <p className="mt-8 border-l-4 border-brand-600 pl-4 text-xl italic text-slate-700">{article.excerpt}</p> : null}

        <div className="mt-8">
          {article.body ? <StoryBody html={article.body.html} /> : <ArticleContent content={article.content} />}
        </div>
      </article>

      <AdSlot name="article" className="mt-12" />

      <CommentsSection
        threads={comments}
        total={commentCount}
        olderThreads={olderThreads}
        olderPage={olderPage}
        noScriptOutcome={actionData}
      />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} notFound={{ title: "Article not found", message: "The article you're looking for doesn't exist." }} />;
}
