import { Eye, FileText, FolderTree, MessageSquare, type LucideIcon } from "lucide-react";
import { forwardRef, type ComponentProps, type ReactNode } from "react";
import { Link } from "react-router";
import type { DashboardStats } from "~/domain/stats/stats.schema";
import { figureLabel, MEASURES } from "~/domain/stats/figures";
import {
  ARTICLE_DIALOG_LIMIT,
  formatCount,
  NO_COMMENTS_YET,
  RECENT_COMMENTS_LIMIT,
  TOP_ARTICLES_LIMIT,
} from "~/domain/stats/periods";
import { formatCardDate, formatCommentDate } from "~/lib/dates";
import { formatQuantity } from "~/lib/numbers";
import { DashboardDialog } from "./dashboard-dialog";

function CardBody({ icon: Icon, label, value, hint }: { icon: LucideIcon; label: string; value: number; hint?: string }) {
  return (
    <>
      <span className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-700">{label}</span>
        <Icon className="h-5 w-5 text-brand-700" aria-hidden="true" />
      </span>
      <span className="mt-2 block text-3xl font-bold text-slate-900" data-testid={`stat-${label.toLowerCase().replaceAll(" ", "-")}`}>
        {formatCount(value)}
      </span>
      {hint ? <span className="mt-1 block text-xs text-slate-600">{hint}</span> : null}
    </>
  );
}

const cardClass = "block w-full rounded-lg border border-slate-200 bg-white p-5 text-left shadow-sm";

/** A stat card that opens its dialog (a real button, so it works from the keyboard). */
const CardButton = forwardRef<HTMLButtonElement, ComponentProps<"button">>(function CardButton({ className, ...props }, ref) {
  return (
    <button
      ref={ref}
      type="button"
      className={`${cardClass} transition hover:border-brand-600 hover:shadow-md ${className ?? ""}`}
      {...props}
    />
  );
});

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-md bg-slate-50 p-3">
      <dt className="text-xs font-medium text-slate-700">{label}</dt>
      <dd className="mt-1 text-xl font-bold text-slate-900">{formatCount(value)}</dd>
    </div>
  );
}

function EmptyLine({ children }: { children: ReactNode }) {
  return <p className="py-6 text-center text-sm text-slate-700">{children}</p>;
}

/**
 * The four stat cards: Article Views (the spec's "Total Site Views": the article counters' sum), Total
 * Articles, Total Comments (each with a dialog), Categories. Page views have their own row (view cards).
 */
export function DashboardStatCards({ stats, timeZone }: { stats: DashboardStats; timeZone: string }) {
  const { totals, topArticles, allArticles, recentComments } = stats;
  return (
    <section aria-labelledby="stats-heading">
      <h2 id="stats-heading" className="sr-only">
        Site statistics
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <li>
          <DashboardDialog
            title="Article Views"
            description={`Article views in all, and the top ${TOP_ARTICLES_LIMIT} articles by views.`}
            trigger={
              <CardButton>
                <CardBody icon={Eye} label="Article Views" value={totals.articleViews} hint="All time · click for details" />
              </CardButton>
            }
          >
            <dl className="grid grid-cols-2 gap-3">
              <Figure label={figureLabel("articleViews", "allTime")} value={totals.articleViews} />
            </dl>
            <p className="mt-2 text-xs text-slate-600">
              {MEASURES.articleViews.explanation} Page views by period are in their own row on the dashboard.
            </p>
            <h3 className="mt-6 mb-2 font-semibold text-slate-900">Top {TOP_ARTICLES_LIMIT} Articles</h3>
            {topArticles.length === 0 ? (
              <EmptyLine>No articles found. Create your first article!</EmptyLine>
            ) : (
              <ol className="divide-y divide-slate-200">
                {topArticles.map((article, i) => (
                  <li key={article.id} className="flex items-center justify-between gap-4 py-2">
                    <span className="min-w-0">
                      <span className="mr-2 text-sm font-semibold text-slate-700">{i + 1}.</span>
                      <Link to={`/article/${article.slug}`} className="font-medium text-slate-900 hover:text-brand-700 hover:underline">
                        {article.title}
                      </Link>
                      {article.categoryName ? <span className="ml-2 text-xs text-slate-600">{article.categoryName}</span> : null}
                    </span>
                    <span className="shrink-0 text-sm text-slate-700">{formatQuantity(article.views, "view")}</span>
                  </li>
                ))}
              </ol>
            )}
          </DashboardDialog>
        </li>

        <li>
          <DashboardDialog
            title="All Articles"
            description={
              totals.articles > allArticles.length
                ? `The ${allArticles.length} newest of ${formatCount(totals.articles)} published articles.`
                : "Every published article, newest first."
            }
            trigger={
              <CardButton>
                <CardBody icon={FileText} label="Total Articles" value={totals.articles} hint="Click for details" />
              </CardButton>
            }
          >
            {allArticles.length === 0 ? (
              <EmptyLine>No articles found. Create your first article!</EmptyLine>
            ) : (
              <ul className="divide-y divide-slate-200">
                {allArticles.map((article) => (
                  <li key={article.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                    <span className="min-w-0">
                      <span className="block font-medium text-slate-900">{article.title}</span>
                      <span className="block text-xs text-slate-600">
                        {article.categoryName ?? "Uncategorized"} · {formatCardDate(article.publishedAt, timeZone)} ·{" "}
                        {formatQuantity(article.views, "view")}
                      </span>
                    </span>
                    <span className="flex shrink-0 gap-2 text-sm">
                      <Link
                        to={`/article/${article.slug}`}
                        className="rounded-md border border-slate-300 px-3 py-1 text-slate-900 hover:bg-slate-50"
                        aria-label={`View ${article.title}`}
                      >
                        View
                      </Link>
                      <Link
                        to={`/admin/articles/edit/${article.id}`}
                        className="rounded-md bg-brand-700 px-3 py-1 text-white hover:bg-brand-800"
                        aria-label={`Edit ${article.title}`}
                      >
                        Edit
                      </Link>
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {totals.drafts + totals.scheduled > 0 ? (
              <p className="mt-4 text-sm text-slate-700" data-testid="unpublished-count">
                Not counted here:{" "}
                <Link to="/admin/articles?status=draft" className="text-brand-700 underline">
                  {formatQuantity(totals.drafts, "draft")}
                </Link>{" "}
                and{" "}
                <Link to="/admin/articles?status=scheduled" className="text-brand-700 underline">
                  {formatCount(totals.scheduled)} scheduled
                </Link>
                .
              </p>
            ) : null}
            {totals.articles > ARTICLE_DIALOG_LIMIT ? (
              <p className="mt-4 text-sm">
                <Link to="/admin/articles" className="text-brand-700 underline">
                  See all {formatCount(totals.articles + totals.drafts + totals.scheduled)} articles
                </Link>
              </p>
            ) : null}
          </DashboardDialog>
        </li>

        <li>
          <DashboardDialog
            title="Recent Comments"
            description={`The latest ${RECENT_COMMENTS_LIMIT} comments.`}
            trigger={
              <CardButton>
                <CardBody icon={MessageSquare} label="Total Comments" value={totals.comments} hint="Click for details" />
              </CardButton>
            }
          >
            <CommentList comments={recentComments} timeZone={timeZone} />
          </DashboardDialog>
        </li>

        <li>
          <div className={cardClass}>
            <CardBody icon={FolderTree} label="Categories" value={totals.categories} />
          </div>
        </li>
      </ul>
    </section>
  );
}

/** Comments with author, text, date and the article they are on; the spec's empty state when none. */
export function CommentList({ comments, timeZone }: { comments: DashboardStats["recentComments"]; timeZone: string }) {
  if (comments.length === 0) {
    return <EmptyLine>{NO_COMMENTS_YET}</EmptyLine>;
  }
  return (
    <ul className="divide-y divide-slate-200">
      {comments.map((comment) => (
        <li key={comment.id} className="py-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <span className="font-medium text-slate-900">{comment.authorName}</span>
            <span className="text-xs text-slate-600">{formatCommentDate(comment.createdAt, timeZone)}</span>
          </div>
          <p className="mt-1 text-sm whitespace-pre-line text-slate-800">{comment.content}</p>
          <Link to={`/article/${comment.articleSlug}`} className="mt-1 inline-block text-xs text-brand-700 hover:underline">
            On: {comment.articleTitle}
          </Link>
        </li>
      ))}
    </ul>
  );
}
