import { data, Link, useRouteLoaderData } from "react-router";
import { AdSlot } from "~/components/ad-slot";
import { ArticleView } from "~/components/article-view";
import { RouteError } from "~/components/not-found";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { requireAdmin } from "~/domain/accounts/guard.server";
import { getArticleForPreview, presentArticle } from "~/domain/articles/articles.server";
import { listArticleNotes } from "~/domain/articles/corrections.server";
import { pageMeta } from "~/page-meta";
import type { RootData } from "~/root";
import type { Route } from "./+types/article-preview";

/** Never stored by a browser or a proxy, never indexed. */
const PREVIEW_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" };

export function headers() {
  return PREVIEW_HEADERS;
}

/**
 * GET /admin/articles/preview/:id: any saved article (a draft, a scheduled one) as its reader page
 * will show it (the reader's header and footer around the article page's own ArticleView), for
 * back-office users only. It sits under the admin layout, whose guard runs for every request.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const article = await getArticleForPreview(context.db, params.id);
  if (!article) throw data("Article not found", { status: 404, headers: PREVIEW_HEADERS });
  const corrections = await listArticleNotes(context.db, article.id);
  return data({ article: { ...presentArticle(article), corrections } }, { headers: PREVIEW_HEADERS });
}

export const meta: Route.MetaFunction = ({ data, matches, params }) => [
  ...pageMeta(matches, { title: data ? `Preview: ${data.article.title}` : "Article not found", path: `/admin/articles/preview/${params.id}` }),
  { name: "robots", content: "noindex, nofollow" },
];

export default function ArticlePreview({ loaderData, matches }: Route.ComponentProps) {
  const { article } = loaderData;
  const publicUrl = matches[0].data.publicUrl;
  const root = useRouteLoaderData("root") as RootData;
  return (
    <div className="flex flex-1 flex-col bg-white">
      <p role="note" className="bg-amber-100 px-4 py-2 text-center text-sm text-amber-950">
        Preview ({article.status === "published" ? "published" : `${article.status}: not public`}).{" "}
        <Link to={`/admin/articles/edit/${article.id}`} className="font-medium underline">
          Back to the form
        </Link>
      </p>
      <SiteHeader siteName={root.settings.siteName} logoUrl={root.settings.logoUrl} categories={root.categories} user={root.user} />
      <main className="mx-auto w-full max-w-4xl flex-1 px-4 py-8">
        <ArticleView article={article} views={article.views} shareUrl={`${publicUrl}/article/${article.slug}`} />
        <AdSlot name="article" className="mt-12" />
      </main>
      <SiteFooter settings={root.settings} categories={root.categories} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} notFound={{ title: "Article not found", message: "The article you're looking for doesn't exist." }} />;
}
