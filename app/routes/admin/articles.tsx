import { Loader2, Pencil, Plus, Video } from "lucide-react";
import { useEffect, useState } from "react";
import { data, Form, Link, useFetcher, useNavigation } from "react-router";
import { cn } from "~/lib/cn";
import { Pagination } from "~/components/pagination";
import { pageCountOrRedirect, pageFromUrl } from "~/lib/pagination";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDeleteButton } from "~/components/admin/confirm-dialog";
import { FilterSelect } from "~/components/admin/filter-select";
import { can, mayDeleteArticle, mayEditArticle, mayPostLiveUpdate, mayViewStoryAudience } from "~/domain/accounts/roles";
import { useNoticeToast } from "~/components/admin/use-notice-toast";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { listAuthorChoices } from "~/domain/authors/authors.server";
import { listCategories } from "~/domain/categories/categories.server";
import { normalizeSearchQuery, SEARCH_QUERY_MAX } from "~/domain/articles/search.schema";
import { toast } from "~/components/ui/toaster";
import { requireCapability } from "~/domain/accounts/guard.server";
import { actorOf } from "~/domain/accounts/actor";
import { deleteArticle } from "~/domain/articles/article-admin.server";
import { applyBulkAction } from "~/domain/articles/article-bulk.server";
import { listAdminArticles } from "~/domain/articles/article-list.server";
import { bulkStatus, BULK_ACTIONS, bulkSummary, isBulkAction, listStatusText, type BulkResult } from "~/domain/articles/article-list.schema";
import { ArticleBulkBar } from "~/components/admin/article-bulk-bar";
import { ARTICLE_STATUS_FILTERS, isArticleStatus, REVIEW_FILTER } from "~/domain/articles/articles.schema";
import { formatCardDate, formatPublishDate } from "~/lib/dates";
import { formatCount, formatQuantity } from "~/lib/numbers";
import { AppError } from "~/lib/app-error";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import { signupsByArticle } from "~/domain/newsletters/subscribers-admin.server";
import type { Route } from "./+types/articles";

/** A stacked card's cell label on phones (from the cell's data-label). */
const LABEL = "max-md:before:mr-2 max-md:before:font-semibold max-md:before:text-slate-600 max-md:before:content-[attr(data-label)]";

/** Articles per page of the admin list. */
export const ADMIN_ARTICLES_PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "backOffice");
  const page = pageFromUrl(request.url);
  const timeZone = context.env.TIME_ZONE;
  // ?q=&status=&category=&author=&mine=1 narrow the list (a plain GET form: works without JavaScript); a
  // value that names nothing (a stale link) is ignored, as the form then shows.
  const params = new URL(request.url).searchParams;
  const requested = params.get("status");
  // "In review" (?status=review): the drafts waiting in the review queue.
  const status = isArticleStatus(requested) || requested === REVIEW_FILTER ? requested : null;
  const [categories, authors] = await Promise.all([listCategories(context.db), listAuthorChoices(context.db)]);
  const category = categories.find((c) => c.id === params.get("category"))?.id ?? null;
  const author = authors.find((a) => a.id === params.get("author"))?.id ?? null;
  const mine = params.get("mine") === "1";
  const q = normalizeSearchQuery(params.get("q"));
  const filter = {
    status: status === REVIEW_FILTER ? ("draft" as const) : (status ?? undefined),
    inReview: status === REVIEW_FILTER || undefined,
    categoryId: category ?? undefined,
    authorId: author ?? undefined,
    q: q || undefined,
    mineOf: mine ? user.id : undefined,
  };
  const { rows, total } = await listAdminArticles(context.db, page, ADMIN_ARTICLES_PAGE_SIZE, filter, user.id);
  // Confirmed newsletter sign-ups each story's form brought (issue 30).
  const signups = await signupsByArticle(context.db, rows.map((a) => a.id));
  const pageCount = pageCountOrRedirect(request.url, page, total, ADMIN_ARTICLES_PAGE_SIZE);
  const query = new URLSearchParams(
    Object.entries({ q, status, category, author, mine: mine ? "1" : null }).filter((e): e is [string, string] => Boolean(e[1])),
  );
  const mayPublish = can(user.role, "articles.publish");
  return {
    articles: rows.map((a) => ({
      id: a.id,
      title: a.title,
      slug: a.slug,
      categoryName: a.categoryName,
      authorNames: a.authorNames.join(", "),
      views: a.views,
      signups: signups.get(a.id) ?? 0,
      hasVideo: a.hasVideo,
      createdAt: a.createdAt.toISOString(),
      date: formatCardDate(a.createdAt, timeZone),
      updatedAt: a.updatedAt.toISOString(),
      updated: formatPublishDate(a.updatedAt, timeZone),
      status: a.status,
      statusText: listStatusText(a, timeZone),
      // What the role may do with this row (the server checks again on each request).
      canEdit: mayEditArticle(user, a),
      canDelete: mayDeleteArticle(user, a),
      // Live coverage (issue 31): the LIVE mark, and "Live updates" for whoever may post there (authors on its byline too).
      live: a.live,
      canPostLive: mayPostLiveUpdate(user, a),
      // Audience (issue 42): a published story's report, for editors and for its own author.
      canSeeAudience: a.status === "published" && mayViewStoryAudience(user, a),
    })),
    status,
    category,
    author,
    mine,
    q,
    query: query.toString(),
    categoryOptions: categories.map((c) => [c.id, c.name] as const),
    authorOptions: authors.map((a) => [a.id, a.name] as const),
    // An author's role never unpublishes; the server refuses it whatever the screen offers.
    bulkActions: BULK_ACTIONS.filter((action) => action !== "unpublish" || mayPublish),
    page,
    pageCount,
    total,
  };
}

export type ArticleListActionData = { ok: true; intent: "delete" } | { ok: true; intent: "bulk"; result: BulkResult } | Refusal;

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "backOffice"));
  const formData = await request.formData();
  const { intent, id, bulkAction, categoryId } = formValues(formData, ["intent", "id", "bulkAction", "categoryId"]);
  try {
    if (intent === "bulk") {
      if (!isBulkAction(bulkAction)) throw new AppError("invalid_input", "Unknown action.");
      const ids = formData.getAll("ids").filter((v): v is string => typeof v === "string");
      const result = await applyBulkAction(context.db, bulkAction, ids, actor, { categoryId });
      context.log.info({ action: bulkAction, done: result.outcomes.filter((o) => o.ok).map((o) => o.id), refused: result.outcomes.filter((o) => !o.ok).length }, "bulk article action");
      // Nothing done: the request was refused as a whole (bulkStatus says why: role, gone, or the stories' states).
      return data<ArticleListActionData>({ ok: true, intent: "bulk", result }, { status: bulkStatus(result) });
    }
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

/** What the last bulk action did: how many succeeded, and each refused story with the reason. */
function BulkReport({ result, onDismiss }: { result: BulkResult; onDismiss: () => void }) {
  const refused = result.outcomes.filter((o) => !o.ok);
  return (
    <section
      aria-labelledby="bulk-report"
      className={cn("mb-4 rounded-lg border p-4 text-sm", refused.length ? "border-amber-400 bg-amber-50" : "border-green-600 bg-green-50")}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id="bulk-report" className="font-semibold text-slate-900" role="status">
          {bulkSummary(result)}
        </h2>
        <Button type="button" size="sm" variant="ghost" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
      {refused.length ? (
        <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
          {refused.map((o) => (
            <li key={o.id} className="break-words">
              <span className="font-medium">{o.title}</span>: {o.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export default function AdminArticles({ loaderData }: Route.ComponentProps) {
  const { articles, page, pageCount, total, status, category, author, mine, q, query, categoryOptions, authorOptions, bulkActions } = loaderData;
  useNoticeToast();
  const fetcher = useFetcher<ArticleListActionData>({ key: "delete-article" });
  const bulk = useFetcher<ArticleListActionData>({ key: "bulk-articles" });
  const deletingId = fetcher.state !== "idle" ? fetcher.formData?.get("id") : null;
  // While an article's edit form loads, its row shows a spinner.
  const navigation = useNavigation();
  const openingId =
    navigation.state === "loading" ? /^\/admin\/articles\/edit\/([^/]+)$/.exec(navigation.location.pathname)?.[1] : undefined;

  // The selected rows of this page (a new page or filter starts with none).
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const pageIds = articles.map((a) => a.id);
  const pageKey = pageIds.join(",");
  useEffect(() => setSelected(new Set()), [pageKey]);
  const selectedHere = pageIds.filter((id) => selected.has(id));
  const allSelected = pageIds.length > 0 && selectedHere.length === pageIds.length;
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const [report, setReport] = useState<BulkResult | null>(null);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) toast.success("Article deleted", "The article has been deleted successfully.");
    else toast.error("Error", fetcher.data.error);
  }, [fetcher.state, fetcher.data]);

  useEffect(() => {
    if (bulk.state !== "idle" || !bulk.data) return;
    if (!bulk.data.ok) {
      toast.error("Error", bulk.data.error);
      return;
    }
    if (bulk.data.intent !== "bulk") return;
    const result = bulk.data.result;
    setReport(result);
    // What was refused stays selected, so it can be seen and tried otherwise.
    setSelected(new Set(result.outcomes.filter((o) => !o.ok).map((o) => o.id)));
  }, [bulk.state, bulk.data]);

  const runBulk = (action: (typeof bulkActions)[number], categoryId?: string) => {
    const form = new FormData();
    form.set("intent", "bulk");
    form.set("bulkAction", action);
    if (categoryId) form.set("categoryId", categoryId);
    for (const id of selectedHere) form.append("ids", id);
    bulk.submit(form, { method: "post" });
  };

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
        <FilterSelect id="status-filter" name="status" label="Status" value={status} allLabel="All" options={ARTICLE_STATUS_FILTERS} />
        <FilterSelect id="category-filter" name="category" label="Category" value={category} allLabel="All" options={categoryOptions} />
        <FilterSelect id="author-filter" name="author" label="Author" value={author} allLabel="All" options={authorOptions} />
        <label className="flex h-10 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900">
          <input type="checkbox" name="mine" value="1" defaultChecked={mine} key={String(mine)} className="size-4 accent-brand-700" />
          Mine
        </label>
        <Button type="submit" variant="outline">
          Filter
        </Button>
        {query ? (
          <Button asChild variant="ghost">
            <Link to="/admin/articles">Clear</Link>
          </Button>
        ) : null}
      </Form>

      {report ? <BulkReport result={report} onDismiss={() => setReport(null)} /> : null}
      {selectedHere.length > 0 ? (
        <ArticleBulkBar
          count={selectedHere.length}
          busy={bulk.state !== "idle"}
          categoryOptions={categoryOptions}
          actions={bulkActions}
          onClear={() => setSelected(new Set())}
          onConfirm={runBulk}
        />
      ) : null}

      {articles.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">
          {query ? "No articles match these filters." : "No articles found. Create your first article!"}
        </p>
      ) : (
        <div className="rounded-lg border border-slate-200 bg-white">
          {/* Below 768 px each row is a stacked card: every column and both actions stay, nothing scrolls sideways. */}
          <table className="w-full text-left text-sm max-md:block">
            <caption className="sr-only">{q ? "Matching articles, best match first" : query ? "Matching articles, newest first" : "All articles, newest first"}</caption>
            <thead className="bg-slate-50 text-slate-800 max-md:block">
              <tr className="max-md:flex max-md:items-center">
                <th scope="col" className="w-10 py-3 pr-1 pl-4 font-semibold max-md:w-auto">
                  <label className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      checked={allSelected}
                      ref={(el) => {
                        if (el) el.indeterminate = selectedHere.length > 0 && !allSelected;
                      }}
                      onChange={(e) => setSelected(e.target.checked ? new Set(pageIds) : new Set())}
                      className="size-4 accent-brand-700"
                    />
                    <span className="md:sr-only">Select all on this page</span>
                  </label>
                </th>
                <th scope="col" className="px-3 py-3 font-semibold max-md:sr-only">Title</th>
                <th scope="col" className="px-3 py-3 font-semibold max-md:sr-only">Category</th>
                <th scope="col" className="px-3 py-3 font-semibold max-md:sr-only">Author</th>
                <th scope="col" className="px-3 py-3 font-semibold max-md:sr-only">Status</th>
                <th scope="col" className="px-3 py-3 font-semibold max-md:sr-only">Date</th>
                <th scope="col" className="px-3 py-3 text-right font-semibold max-md:sr-only">Views</th>
                <th scope="col" className="px-3 py-3 text-right font-semibold max-md:sr-only">Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 max-md:block">
              {articles.map((article) => (
                <tr
                  key={article.id}
                  className={cn(
                    "align-top max-md:relative max-md:grid max-md:grid-cols-2 max-md:py-2 max-md:pl-10",
                    deletingId === article.id && "opacity-50",
                    selected.has(article.id) && "bg-brand-50",
                  )}
                >
                  <td className="py-3 pr-1 pl-4 max-md:absolute max-md:top-3 max-md:left-0 max-md:py-1">
                    <input
                      type="checkbox"
                      aria-label={`Select “${article.title}”`}
                      checked={selected.has(article.id)}
                      onChange={(e) => toggle(article.id, e.target.checked)}
                      className="size-4 accent-brand-700"
                    />
                  </td>
                  <td className="min-w-48 px-3 py-3 font-medium break-words text-slate-900 max-md:col-span-2 max-md:min-w-0 max-md:py-1">
                    {article.title}
                    {article.hasVideo ? (
                      <span title="Has video" className="ml-2 inline-block align-middle text-brand-700">
                        <Video aria-hidden="true" className="size-4" />
                        <span className="sr-only">(has video)</span>
                      </span>
                    ) : null}
                  </td>
                  <td data-label="Category" className={`px-3 py-3 text-slate-800 max-md:py-1 ${LABEL}`}>{article.categoryName ?? "—"}</td>
                  <td data-label="Author" className={`px-3 py-3 text-slate-800 max-md:py-1 ${LABEL}`}>{article.authorNames}</td>
                  <td data-label="Status" className={`px-3 py-3 text-slate-800 max-md:col-span-2 max-md:py-1 ${LABEL}`} data-status={article.status}>
                    {article.statusText}
                    {article.live ? (
                      <span className="ml-2 inline-block rounded bg-red-700 px-1.5 py-0.5 align-middle text-xs font-bold tracking-wide text-white" data-testid="article-live-mark">
                        LIVE
                      </span>
                    ) : null}
                  </td>
                  <td data-label="Date" className={`px-3 py-3 text-slate-800 max-md:col-span-2 max-md:py-1 ${LABEL}`}>
                    <time dateTime={article.createdAt} className="whitespace-nowrap">{article.date}</time>
                    <span className="block text-xs text-slate-600 max-md:inline max-md:before:content-['_·_']">
                      Updated <time dateTime={article.updatedAt}>{article.updated}</time>
                    </span>
                  </td>
                  <td data-label="Views" className={`px-3 py-3 text-right text-slate-800 tabular-nums max-md:py-1 max-md:text-left ${LABEL}`}>
                    {article.canSeeAudience ? (
                      <Link
                        to={`/admin/audience/story/${article.id}`}
                        className="text-brand-700 underline-offset-2 hover:underline"
                        aria-label={`Audience of “${article.title}”: ${formatQuantity(article.views, "view")}`}
                      >
                        {formatCount(article.views)}
                      </Link>
                    ) : (
                      formatCount(article.views)
                    )}
                    {article.signups > 0 ? (
                      <span className="block text-xs text-slate-600 max-md:inline max-md:before:content-['_·_']" data-testid="article-signups">
                        {article.signups === 1 ? "1 sign-up" : `${formatCount(article.signups)} sign-ups`}
                      </span>
                    ) : null}
                  </td>
                  <td className="px-3 py-3 max-md:py-1">
                    <div className="flex flex-wrap justify-end gap-1 max-md:justify-start">
                      {article.canPostLive ? (
                        <Button asChild variant="outline" size="sm">
                          <Link to={`/admin/articles/live/${article.id}`} aria-label={`Live updates of “${article.title}”`}>
                            Live updates
                          </Link>
                        </Button>
                      ) : null}
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
                      {!article.canEdit && !article.canDelete && !article.canPostLive ? <span className="py-2 text-xs text-slate-600">View only</span> : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p role="status" className="sr-only">
        {openingId ? "Loading article..." : bulk.state !== "idle" ? "Working on the selected stories..." : ""}
      </p>
      <Pagination basePath={query ? `/admin/articles?${query}` : "/admin/articles"} page={page} pageCount={pageCount} className="mt-6" />
    </main>
  );
}
