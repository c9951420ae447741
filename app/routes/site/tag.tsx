import { MOVED_CACHE_CONTROL } from "~/lib/cache-control";
import { data, redirect } from "react-router";
import { AdSlot } from "~/components/ad-slot";
import { ArticleCard, CardGrid } from "~/components/article-card";
import { RouteError } from "~/components/not-found";
import { Pagination } from "~/components/pagination";
import { noteStories } from "~/lib/cache-tags.server";
import { pageFromUrl } from "~/lib/pagination";
import { listTagArticles } from "~/domain/articles/articles.server";
import { findPublicTag } from "~/domain/tags/tags.server";
import { pageMeta } from "~/page-meta";
import { NOINDEX } from "~/lib/seo";
import { breadcrumbJsonLd } from "~/lib/structured-data";
import type { Route } from "./+types/tag";

/** Articles per tag page; past it, pagination links (as categories). */
export const TAG_PAGE_SIZE = 24;

/** How long an old tag address's 301 may be kept: not for ever, as the address may come back (a new tag of that name). */
const REDIRECT_CACHE_CONTROL = MOVED_CACHE_CONTROL;

/** GET /tag/:slug: a tag's public stories, newest first (issue 29); a merged or renamed tag's old address redirects. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const found = await findPublicTag(context.db, params.slug);
  if (found && "redirect" in found) {
    const url = new URL(request.url);
    url.searchParams.delete("_routes");
    throw redirect(`/tag/${found.redirect}${url.search}`, { status: 301, headers: { "Cache-Control": REDIRECT_CACHE_CONTROL } });
  }
  if (!found) {
    context.log.warn({ path: new URL(request.url).pathname }, "404: unknown tag");
    throw data("Tag not found", { status: 404 });
  }
  const { tag } = found;
  const page = pageFromUrl(request.url);
  const { articles, total } = await listTagArticles(context.db, tag.id, { offset: (page - 1) * TAG_PAGE_SIZE, limit: TAG_PAGE_SIZE }, context.storyMemo);
  const pageCount = Math.max(1, Math.ceil(total / TAG_PAGE_SIZE));
  if (page > pageCount) {
    context.log.warn({ path: `${new URL(request.url).pathname}?page=${page}` }, "404: past the last page");
    throw data("Page not found", { status: 404 });
  }
  // Its list is dropped by its route's tag (tag:{slug}, server/page-cache.ts) and by these stories' changes.
  noteStories(context, articles);
  return { tag: { name: tag.name, slug: tag.slug }, articles, page, pageCount, total };
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => {
  if (!data) return pageMeta(matches, { title: "Page not found", path: location.pathname, robots: NOINDEX });
  const { tag, page } = data;
  const path = `/tag/${tag.slug}`;
  return pageMeta(matches, {
    title: page > 1 ? `${tag.name} – page ${page}` : tag.name,
    description: `The latest stories tagged ${tag.name}, newest first.`,
    path: `${path}${page > 1 ? `?page=${page}` : ""}`,
    feed: { title: `${tag.name} RSS`, path: `${path}/rss.xml` },
    structuredData: (site) => [
      breadcrumbJsonLd(site, [
        { name: "Home", path: "/" },
        { name: tag.name, path },
      ]),
    ],
  });
};

export default function TagPage({ loaderData }: Route.ComponentProps) {
  const { tag, articles, page, pageCount } = loaderData;
  return (
    <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-10">
      <header className="mb-6 border-b-2 border-slate-900 pb-4">
        <p className="type-label">Tag</p>
        <h1 className="type-headline">{tag.name}</h1>
      </header>
      {/* Cards title their stories with h3; this keeps heading levels in order under the h1. */}
      <h2 className="sr-only">{`Stories tagged ${tag.name}`}</h2>
      <CardGrid>
        {articles.map((a, i) => (
          <ArticleCard key={a.id} article={a} priority={i === 0 ? "high" : i < 3} />
        ))}
      </CardGrid>
      <Pagination basePath={`/tag/${tag.slug}`} page={page} pageCount={pageCount} className="mt-10" />
      <AdSlot name="category" className="mt-12" />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
