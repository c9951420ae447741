import { data } from "react-router";
import { RouteError } from "~/components/not-found";
import { renderStoryHtml } from "~/domain/articles/story-html";
import { pagePath } from "~/domain/pages/page-path";
import { findPublicPage } from "~/domain/pages/pages.server";
import { describeArticle, NOINDEX } from "~/lib/seo";
import { pageMeta } from "~/page-meta";
import type { Route } from "./+types/page";

/**
 * GET /:slug: a published page written in the back office (issue 29), its story rendered on the
 * server through the editor's allow-list (story-html.ts), as an article's is. A draft or an unknown
 * address is the site's 404 page. Cached like every reader page; a change to a published page drops
 * every cached page (migration 0028: its link may be in every footer).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const page = await findPublicPage(context.db, params.slug);
  if (!page) {
    context.log.warn({ path: new URL(request.url).pathname }, "404: no page at this path");
    throw data("Page not found", { status: 404 });
  }
  return {
    title: page.title,
    slug: page.slug,
    description: describeArticle(null, page.content),
    // A plain-text page (an imported one without a document) shows as paragraphs.
    html: page.contentDoc ? renderStoryHtml(page.contentDoc) : null,
    text: page.contentDoc ? null : page.content,
    publishedAt: page.publishedAt?.toISOString() ?? null,
    updatedAt: page.updatedAt.toISOString(),
  };
}

export const meta: Route.MetaFunction = ({ data: page, matches, location }) => {
  if (!page) return pageMeta(matches, { title: "Page not found", path: location.pathname, robots: NOINDEX });
  return pageMeta(matches, { title: page.title, description: page.description, path: pagePath(page.slug), modifiedTime: page.updatedAt });
};

export default function StandalonePage({ loaderData }: Route.ComponentProps) {
  const { title, html, text } = loaderData;
  return (
    <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-10">
      <article>
        <h1 className="mb-8 font-serif text-3xl font-bold leading-tight text-slate-900 sm:text-5xl">{title}</h1>
        {html !== null ? (
          // Rendered on the server from the checked document (story-html.ts): every value escaped.
          <div className="story-body" dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <div className="space-y-5 text-lg leading-8 text-slate-800">
            {(text ?? "")
              .split(/\n\s*\n/)
              .filter((p) => p.trim())
              .map((p, i) => (
                <p key={i} className="whitespace-pre-line break-words">
                  {p.trim()}
                </p>
              ))}
          </div>
        )}
      </article>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
