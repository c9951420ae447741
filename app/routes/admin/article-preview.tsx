import { data, Link } from "react-router";
import { ArticlePreviewPage } from "~/components/article-preview-page";
import { RouteError } from "~/components/not-found";
import { orForbidden, requireCapability } from "~/domain/accounts/guard.server";
import { actorOf } from "~/domain/accounts/actor";
import { openableArticle } from "~/domain/articles/article-access.server";
import { getArticleForPreview, presentArticle } from "~/domain/articles/articles.server";
import { storyPostersOf } from "~/domain/articles/embed-posters.server";
import { withPendingVersion } from "~/domain/articles/pending-versions.server";
import { PREVIEW_HEADERS, previewMeta } from "~/page-meta";
import type { Route } from "./+types/article-preview";

export function headers() {
  return PREVIEW_HEADERS;
}

/**
 * GET /admin/articles/preview/:id: any saved article (a draft, a scheduled one) as its reader page
 * will show it (the reader's header and footer around the article page's own ArticleView), for
 * back-office users only; a published story with changes saved for later shows those changes. It
 * sits under the admin layout, whose guard runs for every request.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const actor = actorOf(await requireCapability(request, context, "backOffice"));
  await orForbidden(openableArticle(context.db, params.id, actor));
  const stored = await getArticleForPreview(context.db, params.id);
  if (!stored) throw data("Article not found", { status: 404, headers: PREVIEW_HEADERS });
  // A published story's changes saved for later are what the preview shows (decision 0033).
  const { article, pending } = await withPendingVersion(context.db, stored);
  return data({ article: presentArticle(article, undefined, await storyPostersOf(context.db, article.contentDoc)), pending: pending !== null }, { headers: PREVIEW_HEADERS });
}

export const meta: Route.MetaFunction = ({ data, matches, params }) =>
  previewMeta(matches, { title: data ? `Preview: ${data.article.title}` : "Article not found", path: `/admin/articles/preview/${params.id}` });

export default function ArticlePreview({ loaderData }: Route.ComponentProps) {
  const { article, pending } = loaderData;
  return (
    <ArticlePreviewPage
      article={article}
      views={article.views}
      note={
        <>
          {pending
            ? "Preview of the changes saved for later: not public yet (readers see the published version)."
            : `Preview (${article.status === "published" ? "published" : `${article.status}: not public`}).`}{" "}
          <Link to={`/admin/articles/edit/${article.id}`} className="font-medium underline">
            Back to the form
          </Link>
        </>
      }
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} notFound={{ title: "Article not found", message: "The article you're looking for doesn't exist." }} />;
}
