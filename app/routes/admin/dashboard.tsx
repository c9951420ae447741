import { CalendarClock, ExternalLink, Inbox, LogOut } from "lucide-react";
import { data, Form, Link } from "react-router";
import { BreakingNewsCard, type BreakingNewsActionData } from "~/components/admin/breaking-news-card";
import { DashboardActivity } from "~/components/admin/dashboard-activity";
import { useDashboardLiveRefresh } from "~/components/admin/dashboard-live-refresh";
import { DashboardLinks } from "~/components/admin/dashboard-links";
import { DashboardStatCards } from "~/components/admin/dashboard-stat-cards";
import { DashboardViewCards } from "~/components/admin/dashboard-view-cards";
import { Button } from "~/components/ui/button";
import { requireCapability } from "~/domain/accounts/guard.server";
import { activeBreakingNews, BREAKING_NEWS_FIELDS, breakingNewsSchema, DEFAULT_BANNER_HOURS } from "~/domain/settings/breaking-news.schema";
import { removeBreakingNews, showBreakingNews } from "~/domain/settings/breaking-news.server";
import { getSettings } from "~/domain/settings/settings.server";
import { getDashboardStats } from "~/domain/stats/stats.server";
import { AppError } from "~/lib/app-error";
import { actorOf } from "~/domain/accounts/actor";
import { can } from "~/domain/accounts/roles";
import type { ReviewQueueItem } from "~/domain/articles/review.schema";
import { listReviewQueue } from "~/domain/articles/review.server";
import { formatPublishDate, toDateTimeLocal } from "~/lib/dates";
import { formValues, parseForm, refuse } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/dashboard";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "backOffice");
  const timeZone = context.env.TIME_ZONE;
  const canPublish = can(user.role, "articles.publish");
  const [stats, settings, reviewQueue] = await Promise.all([
    getDashboardStats(context.db, { timeZone }),
    getSettings(context.db),
    // The review queue is the editors' (decision 0017): an author's submissions show on their drafts.
    canPublish ? listReviewQueue(context.db) : Promise.resolve(null),
  ]);
  const now = new Date();
  const breakingNews = activeBreakingNews(settings, now);
  const defaultExpiresAt = toDateTimeLocal(breakingNews?.expiresAt ?? new Date(now.getTime() + DEFAULT_BANNER_HOURS * 3600_000), timeZone);
  return { email: user.email, timeZone, stats, breakingNews, defaultExpiresAt, canPublish, reviewQueue };
}

/** The "Breaking news" card's "Show banner" / "Remove banner". */
export async function action({ request, context }: Route.ActionArgs) {
  // The breaking-news banner is on every public page: an editor's decision, like publishing.
  const actor = actorOf(await requireCapability(request, context, "articles.publish"));
  const { intent, ...values } = formValues(await request.formData(), ["intent", ...BREAKING_NEWS_FIELDS]);
  try {
    if (intent === "show-banner") {
      const banner = await showBreakingNews(context.db, parseForm(breakingNewsSchema, values, { required: ["text", "expiresAt"] }), context.env.TIME_ZONE, new Date(), actor);
      context.log.info({ expiresAt: banner.expiresAt }, "breaking-news banner shown");
    } else if (intent === "remove-banner") {
      await removeBreakingNews(context.db, new Date(), actor);
      context.log.info("breaking-news banner removed");
    } else {
      throw new AppError("invalid_input", "Unknown action.");
    }
    return data<BreakingNewsActionData>({ ok: true, intent });
  } catch (error) {
    return refuse(error, values);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...backOfficeMeta(matches, { title: "Admin Dashboard", path: "/admin" }),
];

const LIVE_LABELS = {
  connecting: "Connecting to live updates…",
  live: "Live: updates as content changes",
  reconnecting: "Reconnecting to live updates…",
} as const;

/** "Waiting for review (N)": the drafts authors submitted, the longest waiting first. */
function ReviewQueueCard({ queue, timeZone }: { queue: ReviewQueueItem[]; timeZone: string }) {
  return (
    <section aria-labelledby="review-queue" className="rounded-lg border border-amber-300 bg-white p-6">
      <h2 id="review-queue" className="mb-4 flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Inbox className="h-5 w-5 text-amber-700" aria-hidden="true" />
        Waiting for review ({queue.length})
      </h2>
      {queue.length === 0 ? (
        <p className="text-sm text-slate-700">No drafts are waiting for review.</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {queue.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm">
              <Link to={`/admin/articles/edit/${item.id}`} className="min-w-0 break-words font-medium text-brand-700 hover:underline">
                {item.title}
              </Link>
              <span className="text-slate-700">
                {item.submittedBy}, <time dateTime={item.requestedAt}>{formatPublishDate(item.requestedAt, timeZone)}</time>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { email, timeZone, stats } = loaderData;
  const live = useDashboardLiveRefresh();
  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-slate-900">Admin Dashboard</h1>
          <p className="mt-1 text-slate-700">
            Welcome back, <span className="font-medium text-slate-900">{email}</span>
          </p>
          <p className="mt-1 flex items-center gap-2 text-xs text-slate-600" role="status" data-live-status={live}>
            <span
              className={`inline-block h-2 w-2 rounded-full ${live === "live" ? "bg-green-600" : "bg-amber-500"}`}
              aria-hidden="true"
            />
            {LIVE_LABELS[live]}
          </p>
        </div>
        <div className="flex gap-2">
          <Button asChild variant="outline">
            <Link to="/">
              <ExternalLink className="h-4 w-4" aria-hidden="true" />
              View Site
            </Link>
          </Button>
          <Form method="post" action="/auth/sign-out" reloadDocument>
            <Button type="submit" variant="secondary">
              <LogOut className="h-4 w-4" aria-hidden="true" />
              Sign out
            </Button>
          </Form>
        </div>
      </header>

      {loaderData.reviewQueue ? <ReviewQueueCard queue={loaderData.reviewQueue} timeZone={timeZone} /> : null}
      <DashboardStatCards stats={stats} pageViews={stats.pageViews} timeZone={timeZone} />
      <DashboardViewCards pageViews={stats.pageViews} timeZone={timeZone} />
      <DashboardActivity activity={stats.activity} timeZone={timeZone} />
      <section aria-labelledby="next-scheduled" className="rounded-lg border border-slate-200 bg-white p-6">
        <h2 id="next-scheduled" className="mb-4 flex items-center gap-2 text-lg font-semibold text-slate-900">
          <CalendarClock className="h-5 w-5 text-brand-700" aria-hidden="true" />
          Next scheduled articles
        </h2>
        {stats.nextScheduled.length === 0 ? (
          <p className="text-sm text-slate-700">No articles are scheduled.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {stats.nextScheduled.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <Link to={`/admin/articles/edit/${a.id}`} className="font-medium text-brand-700 hover:underline">
                  {a.title}
                </Link>
                <time dateTime={new Date(a.publishAt).toISOString()} className="text-slate-700">
                  {formatPublishDate(a.publishAt, timeZone)}
                </time>
              </li>
            ))}
          </ul>
        )}
      </section>
      {loaderData.canPublish ? (
        <BreakingNewsCard current={loaderData.breakingNews} timeZone={timeZone} defaultExpiresAt={loaderData.defaultExpiresAt} />
      ) : null}
      <DashboardLinks />
    </main>
  );
}
