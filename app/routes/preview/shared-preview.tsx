import { data, isRouteErrorResponse, redirect } from "react-router";
import { ArticlePreviewPage } from "~/components/article-preview-page";
import { NotFound, RouteError } from "~/components/not-found";
import { getArticleForPreview, presentArticle } from "~/domain/articles/articles.server";
import { withPendingVersion } from "~/domain/articles/pending-versions.server";
import { formatPublishDate, useSiteTimeZone } from "~/lib/dates";
import { PREVIEW_HEADERS, previewMeta } from "~/page-meta";
import type { Route } from "./+types/shared-preview";

export function headers() {
  return PREVIEW_HEADERS;
}

const NOT_FOUND = { title: "Preview not found", message: "This preview link is not valid: check that it was copied whole, or ask the newsroom for a new one." };
const EXPIRED = { title: "Preview link expired", message: "This preview link has expired. Ask the newsroom for a new one." };

/**
 * GET /preview/:token: a draft or scheduled article through a signed, expiring link an editor copied
 * from its form (app/domain/articles/preview-links.server.ts), for someone without a back-office
 * account. Never cached, never indexed, never counted as a view. A forged, damaged or revoked token is
 * a 404, an expired one a 410. Once the article is public the link leads to its page, unless the link
 * was made for its changes saved for later (its pending version) and there are some: the link shows them.
 * A link made for a draft never shows what was saved after publication.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  // A link made before "Revoke preview links" (its story's key changed) is refused like a forged one.
  const reading = await context.previewLinks.read(params.token);
  if (!reading.ok) {
    if (reading.reason === "expired") throw data(EXPIRED.title, { status: 410, headers: PREVIEW_HEADERS });
    throw data(NOT_FOUND.title, { status: 404, headers: PREVIEW_HEADERS });
  }
  const stored = await getArticleForPreview(context.db, reading.articleId);
  if (!stored) throw data(NOT_FOUND.title, { status: 404, headers: PREVIEW_HEADERS });
  // A published story's changes saved for later are shown to a link made for them (decision 0033);
  // otherwise a public story's link leads to its page.
  const { article, pending } = reading.scope === "changes" ? await withPendingVersion(context.db, stored) : { article: stored, pending: null };
  if (!pending && article.status === "published" && article.publishedAt.getTime() <= Date.now()) {
    throw redirect(`/article/${article.slug}`, { headers: PREVIEW_HEADERS });
  }
  return data({ article: presentArticle(article), expiresAt: reading.expiresAt.toISOString() }, { headers: PREVIEW_HEADERS });
}

export const meta: Route.MetaFunction = ({ data, matches, location }) =>
  previewMeta(matches, { title: data ? `Preview: ${data.article.title}` : "Preview", path: location.pathname });

export default function SharedPreview({ loaderData }: Route.ComponentProps) {
  const { article, expiresAt } = loaderData;
  const timeZone = useSiteTimeZone();
  return (
    <ArticlePreviewPage
      article={article}
      views={article.views}
      note={`Preview of an article that is not public yet. Please do not share this link. It expires ${formatPublishDate(expiresAt, timeZone)}.`}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 410) return <NotFound status={410} {...EXPIRED} />;
  return <RouteError error={error} notFound={NOT_FOUND} />;
}
