import { Eye, FileText, MessageSquare } from "lucide-react";
import { Tabs } from "radix-ui";
import { Link } from "react-router";
import type { DashboardStats } from "~/domain/stats/stats.schema";
import {
  ACTIVITY_PERIODS,
  DEFAULT_ACTIVITY_PERIOD,
  formatCount,
  isActivityPeriod,
  PERIOD_EMPTY_STATES,
  PERIOD_LABELS,
  type ActivityPeriod,
} from "~/domain/stats/periods";
import { formatCardDate } from "~/lib/dates";
import { CommentList } from "./dashboard-stat-cards";

function Count({ icon: Icon, label, value }: { icon: typeof Eye; label: string; value: number }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white p-4">
      <dt className="flex items-center gap-2 text-xs font-medium text-slate-700">
        <Icon className="h-4 w-4 text-brand-700" aria-hidden="true" />
        {label}
      </dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900" data-testid={`activity-${label.toLowerCase().replaceAll(" ", "-")}`}>
        {formatCount(value)}
      </dd>
    </div>
  );
}

/** The activity panel: tabs Today / This Month / This Year with counts and lists of what happened. */
export function DashboardActivity({
  activity,
  timeZone,
  period,
  onPeriodChange,
}: {
  activity: DashboardStats["activity"];
  timeZone: string;
  period?: ActivityPeriod;
  onPeriodChange?: (period: ActivityPeriod) => void;
}) {
  return (
    <section aria-labelledby="activity-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="activity-heading" className="text-lg font-semibold text-slate-900">
        Activity
      </h2>
      <Tabs.Root
        defaultValue={DEFAULT_ACTIVITY_PERIOD}
        value={period}
        onValueChange={(value) => {
          if (isActivityPeriod(value)) onPeriodChange?.(value);
        }}
        className="mt-4"
      >
        <Tabs.List aria-label="Activity period" className="inline-flex max-w-full flex-wrap rounded-md bg-slate-100 p-1">
          {ACTIVITY_PERIODS.map((p) => (
            <Tabs.Trigger
              key={p}
              value={p}
              className="rounded px-4 py-1.5 text-sm font-medium text-slate-700 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm"
            >
              {PERIOD_LABELS[p]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {ACTIVITY_PERIODS.map((p) => {
          const a = activity[p];
          // The period's own empty state when nothing was written in it; otherwise each list speaks for itself.
          const noActivity = a.articleCount === 0 && a.commentCount === 0;
          return (
            <Tabs.Content key={p} value={p} className="mt-4 space-y-6">
              <dl className="grid gap-3 sm:grid-cols-3">
                <Count icon={FileText} label="Articles" value={a.articleCount} />
                <Count icon={MessageSquare} label="Comments" value={a.commentCount} />
                <Count icon={Eye} label="Page views" value={a.viewCount} />
              </dl>
              <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-2">
                  <div>
                    <h3 className="mb-2 font-semibold text-slate-900">New Articles</h3>
                    {a.articles.length === 0 ? (
                      <p className="rounded-md bg-slate-50 py-6 text-center text-sm text-slate-700">
                        {noActivity ? PERIOD_EMPTY_STATES[p] : "No new articles in this period."}
                      </p>
                    ) : (
                      <ul className="divide-y divide-slate-200">
                        {a.articles.map((article) => (
                          <li key={article.id} className="flex items-center justify-between gap-3 py-2">
                            <Link
                              to={`/admin/articles/edit/${article.id}`}
                              className="min-w-0 truncate font-medium text-slate-900 hover:text-brand-700 hover:underline"
                            >
                              {article.title}
                            </Link>
                            <span className="shrink-0 text-xs text-slate-600">{formatCardDate(article.publishedAt, timeZone)}</span>
                          </li>
                        ))}
                      </ul>
                    )}
                    {a.articleCount > a.articles.length ? (
                      <p className="mt-2 text-xs text-slate-600">
                        Showing {a.articles.length} of {formatCount(a.articleCount)}.{" "}
                        <Link to="/admin/articles" className="text-brand-700 underline">
                          All articles
                        </Link>
                      </p>
                    ) : null}
                  </div>
                  <div>
                    <h3 className="mb-2 font-semibold text-slate-900">Recent Comments</h3>
                    <CommentList comments={a.comments} timeZone={timeZone} />
                    {a.commentCount > a.comments.length ? (
                      <p className="mt-2 text-xs text-slate-600">
                        Showing {a.comments.length} of {formatCount(a.commentCount)}.{" "}
                        <Link to="/admin/comments" className="text-brand-700 underline">
                          All comments
                        </Link>
                      </p>
                    ) : null}
                  </div>
                </div>
            </Tabs.Content>
          );
        })}
      </Tabs.Root>
    </section>
  );
}
