import { data, Link, useRouteLoaderData } from "react-router";
import { RouteError } from "~/components/not-found";
import { Pagination } from "~/components/pagination";
import { SearchForm } from "~/components/search-form";
import { Byline } from "~/components/byline";
import { highlightParts, normalizeSearchQuery, SEARCH_CANDIDATES, SEARCH_PAGE_SIZE } from "~/domain/articles/search.schema";
import { searchArticles } from "~/domain/articles/search.server";
import { frameCategory } from "~/domain/settings/site-frame.server";
import { formatCardDate, useSiteTimeZone } from "~/lib/dates";
import { formatCount } from "~/lib/numbers";
import { pageFromUrl } from "~/lib/pagination";
import { pageMeta } from "~/page-meta";
import { NOINDEX } from "~/lib/seo";
import type { RootData } from "~/root";
import type { Route } from "./+types/search";

/** Result pages are for readers, not for search engines' indexes (NOINDEX: links are still followed). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = normalizeSearchQuery(url.searchParams.get("q"));
  // An unknown category (a stale link) searches everywhere, as the filter then shows.
  const category = await frameCategory(context.siteFrame, url.searchParams.get("category") ?? "");
  const page = pageFromUrl(request.url);
  const { results, total } = await searchArticles(context.db, q, { categoryId: category?.id, page });
  // Only the newest SEARCH_CANDIDATES matches are ranked and paged (decision 0018).
  const pageCount = Math.max(1, Math.ceil(Math.min(total, SEARCH_CANDIDATES) / SEARCH_PAGE_SIZE));
  if (page > pageCount) {
    context.log.warn({ path: `${url.pathname}?page=${page}` }, "404: past the last page");
    throw data("Page not found", { status: 404, headers: { "X-Robots-Tag": NOINDEX } });
  }
  return data({ q, category: category?.slug ?? "", results, total, page, pageCount }, { headers: { "X-Robots-Tag": NOINDEX } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export const meta: Route.MetaFunction = ({ data, matches }) =>
  pageMeta(matches, {
    title: data?.q ? `Search: ${data.q}` : "Search",
    description: data?.q ? `Articles matching “${data.q}”.` : "Search every article.",
    path: "/search",
    robots: NOINDEX,
  });

/** Text with the search's matches in <mark> (the snippet carries markers, never HTML). */
function Highlighted({ text }: { text: string }) {
  return (
    <>
      {highlightParts(text).map((part, i) =>
        part.marked ? (
          <mark key={i} className="rounded-sm bg-amber-100 px-0.5 text-inherit">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

function resultCountText(total: number, q: string) {
  if (total > SEARCH_CANDIDATES) return `More than ${formatCount(SEARCH_CANDIDATES)} results for “${q}”`;
  return `${formatCount(total)} ${total === 1 ? "result" : "results"} for “${q}”`;
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { q, category, results, total, page, pageCount } = loaderData;
  const root = useRouteLoaderData("root") as RootData;
  const timeZone = useSiteTimeZone();
  const query = new URLSearchParams({ q, ...(category ? { category } : {}) });
  return (
    <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-10">
      <h1 className="mb-6 font-serif text-4xl font-bold text-slate-900">Search</h1>
      {/* key: a new search (header box, back button) shows its own words in the field. */}
      <SearchForm key={`${q}|${category}`} defaultValue={q} inputId="search-page-q" label="Search articles" className="flex-wrap sm:flex-nowrap">
        <label htmlFor="search-page-category" className="sr-only">
          Category
        </label>
        <select
          id="search-page-category"
          name="category"
          defaultValue={category}
          className="h-10 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900"
        >
          <option value="">All categories</option>
          {root.categories.map((c) => (
            <option key={c.id} value={c.slug}>
              {c.name}
            </option>
          ))}
        </select>
      </SearchForm>

      {!q ? (
        <div className="py-12 text-slate-600">
          <p className="text-lg">Type a word or a phrase to search every story.</p>
          <p className="mt-2 text-sm">
            Put a phrase in quotes for those words in that order, and a minus sign before a word to leave it out: <code>"city council" -budget</code>.
          </p>
        </div>
      ) : (
        <>
          <p role="status" className="mt-6 text-sm text-slate-700">
            {resultCountText(total, q)}
          </p>
          {results.length === 0 ? (
            <div className="py-12 text-slate-600">
              <p className="text-lg">No articles match your search.</p>
              <p className="mt-2 text-sm">Check the spelling, try fewer or more general words, or search all categories.</p>
            </div>
          ) : (
            <ol className="mt-4 divide-y divide-slate-200" aria-label="Search results">
              {results.map((r) => (
                <li key={r.id} className="py-5">
                  <article>
                    {r.category ? (
                      <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">{r.category.name}</p>
                    ) : null}
                    <h2 className="mt-1 font-serif text-xl font-bold leading-snug text-slate-900">
                      <Link to={`/article/${r.slug}`} prefetch="intent" className="hover:text-brand-700 hover:underline">
                        <Highlighted text={r.titleHighlight} />
                      </Link>
                    </h2>
                    {r.snippet ? (
                      <p className="mt-2 text-sm leading-relaxed text-slate-700" data-testid="search-snippet">
                        <Highlighted text={r.snippet} />
                      </p>
                    ) : null}
                    <p className="mt-2 text-xs text-slate-600">
                      <Byline authors={r.authors} authorName={r.authorName} /> ·{" "}
                      <time dateTime={new Date(r.publishedAt).toISOString()}>{formatCardDate(r.publishedAt, timeZone)}</time>
                    </p>
                  </article>
                </li>
              ))}
            </ol>
          )}
          <Pagination basePath={`/search?${query}`} page={page} pageCount={pageCount} className="mt-8" />
        </>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
