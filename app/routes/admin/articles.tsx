import { Loader2, Pencil, Plus, Video } from "lucide-react";
import { useEffect } from "react";
import { data, Form, Link, useFetcher, useNavigation } from "react-router";
import { cn } from "~/lib/cn";
import { Pagination } from "~/components/pagination";
import { pageCountOrRedirect, pageFromUrl } from "~/lib/pagination";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDeleteButton } from "~/components/admin/confirm-dialog";
import { FilterSelect } from "~/components/admin/filter-select";
import { mayDeleteArticle, mayEditArticle } from "~/domain/accounts/roles";
import { useNoticeToast } from "~/components/admin/use-notice-toast";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { listAuthorChoices } from "~/domain/authors/authors.server";
import { listCategories } from "~/domain/categories/categories.server";
import { normalizeSearchQuery, SEARCH_QUERY_MAX } from "~/domain/articles/search.schema";
import { toast } from "~/components/ui/toaster";
import { requireCapability } from "~/domain/accounts/guard.server";
import { actorOf } from "~/domain/accounts/actor";
import { deleteArticle, listAdminArticles } from "~/domain/articles/article-admin.server";
import { ARTICLE_STATUS_LABELS, isArticleStatus } from "~/domain/articles/articles.schema";
import { statusLabel } from "~/components/admin/article-form";
import { formatCardDate } from "~/lib/dates";
import { formatCount, formatQuantity } from "~/lib/numbers";
import { AppError } from "~/lib/app-error";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/articles";

/** A stacked card's cell label on phones (from the cell's data-label). */
const LABEL = "max-md:before:mr-2 max-md:before:font-semibold max-md:before:text-slate-600 max-md:before:content-[attr(data-label)]";

/** Articles per page of the admin list. */
export const ADMIN_ARTICLES_PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "backOffice");
  const page = pageFromUrl(request.url);
  // ?q=&status=&category=&author= narrow the list (a plain GET form: works without JavaScript); a value
  // that names nothing (a stale link) is ignored, as the form then shows.
  const params = new URL(request.url).searchParams;
  const requested = params.get("status");
  const status = isArticleStatus(requested) ? requested : null;
  const [categories, authors] = await Promise.all([listCategories(context.db), listAuthorChoices(context.db)]);
  const category = categories.find((c) => c.id === params.get("category"))?.id ?? null;
  const author = authors.find((a) => a.id === params.get("author"))?.id ?? null;
  const q = normalizeSearchQuery(params.get("q"));
  const filter = { status: status ?? undefined, categoryId: category ?? undefined, authorId: author ?? undefined, q: q || undefined };
  const { rows, total } = await listAdminArticles(context.db, page, ADMIN_ARTICLES_PAGE_SIZE, filter, user.id);
  const pageCount = pageCountOrRedirect(request.url, page, total, ADMIN_ARTICLES_PAGE_SIZE);
  const query = new URLSearchParams(Object.entries({ q, status, category, author }).filter((e): e is [string, string] => Boolean(e[1])));
  return {
    articles: rows.map((a) => ({
      id: a.id,
      title: a.title,
      slug: a.slug,
      categoryName: a.categoryName,
      authorName: a.authorName,
      views: a.views,
      hasVideo: a.hasVideo,
      createdAt: a.createdAt.toISOString(),
      date: formatCardDate(a.createdAt, context.env.TIME_ZONE),
      status: a.status,
      statusText: a.inReview ? "Waiting for review" : statusLabel(a.status, a.publishedAt, context.env.TIME_ZONE),
      // What the role may do with this row (the server checks again on each request).
      canEdit: mayEditArticle(user, a),
      canDelete: mayDeleteArticle(user, a),
    })),
    status,
    category,
    author,
    q,
    query: query.toString(),
    categoryOptions: categories.map((c) => [c.id, c.name] as const),
    authorOptions: authors.map((a) => [a.id, a.name] as const),
    page,
    pageCount,
    total,
  };
}

export type ArticleListActionData = { ok: true; intent: "delete" } | Refusal;

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "backOffice"));
  const { intent, id } = formValues(await request.formData(), ["intent", "id"]);
  try {
    if (intent !== "delete" || !id) throw new AppError("invalid_input", "Unknown action.");
    await deleteArticle(context.db, id, actor);
  } catch (error) {
    return refuse(error);
  }
  context.log.info({ articleId: id }, "article deleted");
  return data<ArticleListActionData>({ ok: true, intent: "delete" });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  backOfficeMeta(matches, { title: "Manage Articles", path: "/admin/articles" });

export default function AdminArticles({ loaderData }: Route.ComponentProps) {
  const { articles, page, pageCount, total, status, category, author, q, query, categoryOptions, authorOptions } = loaderData;
  useNoticeToast();
  const fetcher = useFetcher<ArticleListActionData>({ key: "delete-article" });
  const deletingId = fetcher.state !== "idle" ? fetcher.formData?.get("id") : null;
  // While an article's edit form loads, its row shows a spinner.
  const navigation = useNavigation();
  const openingId =
    navigation.state === "loading" ? /^\/admin\/articles\/edit\/([^/]+)$/.exec(navigation.location.pathname)?.[1] : undefined;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) toast.success("Article deleted", "The article has been deleted successfully.");
    else toast.error("Error", fetcher.data.error);
  }, [fetcher.state, fetcher.data]);

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Manage Articles"
        description={
          <>
            {formatQuantity(total, "article")}
          </>
        }
        action={
          <Button asChild>
            <Link to="/admin/articles/new">
              <Plus aria-hidden="true" className="size-4" />
              New Article
            </Link>
          </Button>
        }
      />

      <Form method="get" className="mb-4 flex flex-wrap items-end gap-2" aria-label="Filter articles">
        <div className="min-w-0 max-w-full flex-1 basis-56 space-y-1">
          <label htmlFor="article-search" className="block text-sm font-medium text-slate-800">
            Search
          </label>
          <Input id="article-search" type="search" name="q" defaultValue={q} key={q} placeholder="Words in the title or text" maxLength={SEARCH_QUERY_MAX} />
        </div>
        <FilterSelect id="status-filter" name="status" label="Status" value={status} allLabel="All" options={Object.entries(ARTICLE_STATUS_LABELS)} />
        <FilterSelect id="category-filter" name="category" label="Category" value={category} allLabel="All" options={categoryOptions} />
        <FilterSelect id="author-filter" name="author" label="Author" value={author} allLabel="All" options={authorOptions} />
        <Button type="submit" variant="outline">
          Filter
        </Button>
        {query ? (
          <Button asChild variant="ghost">
            <Link to="/admin/articles">Clear</Link>
          </Button>
        ) : null}
      </Form>

      {articles.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">
          {query ? "No articles match these filters." : "No articles found. Create your first article!"}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          {/* Below 768 px each row is a stacked card: every column (Date, Views) and both actions stay. */}
          <table className="w-full text-left text-sm max-md:block">
            <caption className="sr-only">{q ? "Matching articles, best match first" : query ? "Matching articles, newest first" : "All articles, newest first"}</caption>
            <thead className="bg-slate-50 text-slate-800 max-md:sr-only">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">Title</th>
                <th scope="col" className="px-4 py-3 font-semibold">Category</th>
                <th scope="col" className="px-4 py-3 font-semibold">Author</th>
                <th scope="col" className="px-4 py-3 font-semibold">Date</th>
                <th scope="col" className="px-4 py-3 font-semibold">Status</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">Views</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 max-md:block">
              {articles.map((article) => (
                <tr key={article.id} className={cn("max-md:grid max-md:grid-cols-2 max-md:py-2", deletingId === article.id && "opacity-50")}>
                  <td className="max-w-md px-4 py-3 font-medium text-slate-900 max-md:col-span-2 max-md:max-w-none max-md:py-1">
                    <span className="flex items-center gap-2">
                      <span className="line-clamp-2">{article.title}</span>
                      {article.hasVideo ? (
                        <span title="Has video" className="shrink-0 text-brand-700">
                          <Video aria-hidden="true" className="size-4" />
                          <span className="sr-only">(has video)</span>
                        </span>
                      ) : null}
                    </span>
                  </td>
                  <td data-label="Category" className={`px-4 py-3 text-slate-800 max-md:py-1 ${LABEL}`}>{article.categoryName ?? "—"}</td>
                  <td data-label="Author" className={`px-4 py-3 text-slate-800 max-md:py-1 ${LABEL}`}>{article.authorName}</td>
                  <td data-label="Date" className={`px-4 py-3 whitespace-nowrap text-slate-800 max-md:py-1 ${LABEL}`}>
                    <time dateTime={article.createdAt}>{article.date}</time>
                  </td>
                  <td data-label="Status" className={`px-4 py-3 whitespace-nowrap text-slate-800 max-md:py-1 ${LABEL}`} data-status={article.status}>
                    {article.statusText}
                  </td>
                  <td data-label="Views" className={`px-4 py-3 text-right text-slate-800 tabular-nums max-md:py-1 max-md:text-left ${LABEL}`}>{formatCount(article.views)}</td>
                  <td className="px-4 py-3 max-md:col-span-2 max-md:py-1">
                    <div className="flex justify-end gap-1 max-md:justify-start">
                      {article.canEdit ? (
                        <Button asChild variant="ghost" size="icon">
                          <Link to={`/admin/articles/edit/${article.id}`} aria-label={`Edit “${article.title}”`}>
                            {openingId === article.id ? (
                              <Loader2 aria-hidden="true" className="size-4 animate-spin" />
                            ) : (
                              <Pencil aria-hidden="true" className="size-4" />
                            )}
                          </Link>
                        </Button>
                      ) : null}
                      {article.canDelete ? (
                        <ConfirmDeleteButton
                          label={`Delete “${article.title}”`}
                          disabled={deletingId === article.id}
                          title="Delete Article"
                          description="Are you sure you want to delete this article?"
                          onConfirm={() => fetcher.submit({ intent: "delete", id: article.id }, { method: "post" })}
                        />
                      ) : null}
                      {!article.canEdit && !article.canDelete ? <span className="py-2 text-xs text-slate-600">View only</span> : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p role="status" className="sr-only">
        {openingId ? "Loading article..." : ""}
      </p>
      <Pagination basePath={query ? `/admin/articles?${query}` : "/admin/articles"} page={page} pageCount={pageCount} className="mt-6" />
    </main>
  );
}
