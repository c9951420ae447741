import { data } from "react-router";
import { AdSlot } from "~/components/ad-slot";
import { ArticleCard, CardGrid } from "~/components/article-card";
import { RouteError } from "~/components/not-found";
import { Pagination } from "~/components/pagination";
import { noteStories } from "~/lib/cache-tags.server";
import { pageFromUrl } from "~/lib/pagination";
import { listCategoryArticles } from "~/domain/articles/articles.server";
import { categoryPageRows, categoryPinnedStory, withCategoryPin } from "~/domain/front-page/front-page.server";
import { frameCategory } from "~/domain/settings/site-frame.server";
import { pageMeta } from "~/page-meta";
import { NOINDEX } from "~/lib/seo";
import { breadcrumbJsonLd } from "~/lib/structured-data";
import type { Route } from "./+types/category";

/** Articles per category page; past it, pagination links. */
export const CATEGORY_PAGE_SIZE = 24;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const category = await frameCategory(context.siteFrame, params.slug);
  if (!category) {
    context.log.warn({ path: new URL(request.url).pathname }, "404: unknown category");
    throw data("Category not found", { status: 404 });
  }
  const page = pageFromUrl(request.url);
  // The story an editor pinned atop the category (decision 0034): first on page 1, not repeated further on.
  const [{ articles: newest, total }, pinned] = await Promise.all([
    listCategoryArticles(context.db, category.id, categoryPageRows(page, CATEGORY_PAGE_SIZE), context.storyMemo),
    categoryPinnedStory(context.db, category.id),
  ]);
  const articles = withCategoryPin(newest, pinned, page, CATEGORY_PAGE_SIZE);
  const pageCount = Math.max(1, Math.ceil(total / CATEGORY_PAGE_SIZE));
  if (page > pageCount) {
    context.log.warn({ path: `${new URL(request.url).pathname}?page=${page}` }, "404: past the last page");
    throw data("Page not found", { status: 404 });
  }
  noteStories(context, articles);
  return { category, articles, page, pageCount, total };
}

export const meta: Route.MetaFunction = ({ data, matches, location }) => {
  if (!data) return pageMeta(matches, { title: "Page not found", path: location.pathname, robots: NOINDEX });
  const { category, page } = data;
  const path = `/category/${category.slug}`;
  return pageMeta(matches, {
    title: page > 1 ? `${category.name} – page ${page}` : category.name,
    description: `The latest ${category.name} stories, newest first.`,
    path: `${path}${page > 1 ? `?page=${page}` : ""}`,
    feed: { title: `${category.name} RSS`, path: `${path}/rss.xml` },
    structuredData: (site) => [
      breadcrumbJsonLd(site, [
        { name: "Home", path: "/" },
        { name: category.name, path },
      ]),
    ],
  });
};

export default function CategoryPage({ loaderData }: Route.ComponentProps) {
  const { category, articles, page, pageCount } = loaderData;
  return (
    <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-10">
      <header className="mb-6 border-b-2 border-slate-900 pb-4">
        <h1 className="type-headline">{category.name}</h1>
      </header>
      {articles.length === 0 ? (
        <p className="py-16 text-center text-lg text-slate-600">No articles in this category yet.</p>
      ) : (
        <>
          {/* Cards title their stories with h3; this keeps heading levels in order under the h1. */}
          <h2 className="sr-only">{`${category.name} stories`}</h2>
          <CardGrid>
            {/* The first story of the first page leads the section, large, across the row. */}
            {articles.map((a, i) =>
              page === 1 && i === 0 ? (
                <ArticleCard key={a.id} article={a} priority="high" variant="lead" className="sm:col-span-2 lg:col-span-3" />
              ) : (
                <ArticleCard key={a.id} article={a} priority={i === 0 ? "high" : i < 4} />
              ),
            )}
          </CardGrid>
        </>
      )}
      <Pagination basePath={`/category/${category.slug}`} page={page} pageCount={pageCount} className="mt-10" />
      <AdSlot name="category" category={category.slug} className="mt-12" />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
