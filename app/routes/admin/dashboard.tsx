import { ExternalLink, LogOut } from "lucide-react";
import { data, Form, Link } from "react-router";
import { BreakingNewsCard, type BreakingNewsActionData } from "~/components/admin/breaking-news-card";
import { DashboardActivity } from "~/components/admin/dashboard-activity";
import { useDashboardLiveRefresh } from "~/components/admin/dashboard-live-refresh";
import { DashboardLinks } from "~/components/admin/dashboard-links";
import { DashboardStatCards } from "~/components/admin/dashboard-stat-cards";
import { DashboardMembersCards, type DashboardMemberFigures } from "~/components/admin/dashboard-members-card";
import { DashboardSubscribersCard } from "~/components/admin/dashboard-subscribers-card";
import {
  canceledSubscriptionsLast30Days,
  memberCount,
  monthlyRecurringRevenue,
  newMembersLast30Days,
  paidMemberCount,
} from "~/domain/members/member-figures.server";
import { formatMoney } from "~/domain/members/members-admin.schema";
import { subscriberCounts } from "~/domain/newsletters/subscribers-admin.server";
import { DashboardViewCards } from "~/components/admin/dashboard-view-cards";
import { DashboardWork } from "~/components/admin/dashboard-work";
import { Button } from "~/components/ui/button";
import { requireCapability } from "~/domain/accounts/guard.server";
import { listLiveStories } from "~/domain/live/live-admin.server";
import { activeBreakingNews, BREAKING_NEWS_FIELDS, breakingNewsSchema, DEFAULT_BANNER_HOURS } from "~/domain/settings/breaking-news.schema";
import { removeBreakingNews, showBreakingNews } from "~/domain/settings/breaking-news.server";
import { getSettings } from "~/domain/settings/settings.server";
import { getDashboardStats } from "~/domain/stats/stats.server";
import { greeting, hourIn } from "~/domain/stats/work.schema";
import { getDashboardWork } from "~/domain/stats/work.server";
import { AppError } from "~/lib/app-error";
import { actorOf } from "~/domain/accounts/actor";
import { can } from "~/domain/accounts/roles";
import { toDateTimeLocal } from "~/lib/dates";
import { formValues, parseForm, refuse } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/dashboard";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "backOffice");
  const timeZone = context.env.TIME_ZONE;
  const canPublish = can(user.role, "articles.publish");
  const currency = context.env.CURRENCY;
  const [stats, settings, work, subscribers, liveStories, members] = await Promise.all([
    getDashboardStats(context.db, { timeZone }),
    getSettings(context.db),
    // The work lists by role: an author's own stories; an editor's review queue (decision 0017) and schedule.
    getDashboardWork(context.db, { id: user.id, role: user.role }),
    subscriberCounts(context.db),
    // The banner may point to a live story (issue 31): its link's quick choices, for those who may show it.
    canPublish ? listLiveStories(context.db) : [],
    // Members (issue 40): for those who may see them; the money only for those who see billing.
    can(user.role, "members.view") ? memberFigures(context.db, currency, can(user.role, "members.billing")) : null,
  ]);
  const now = new Date();
  const breakingNews = activeBreakingNews(settings, now);
  const defaultExpiresAt = toDateTimeLocal(breakingNews?.expiresAt ?? new Date(now.getTime() + DEFAULT_BANNER_HOURS * 3600_000), timeZone);
  return {
    siteName: settings.siteName,
    greeting: greeting(user.name, user.email, hourIn(now, timeZone)),
    timeZone,
    stats,
    work,
    breakingNews,
    defaultExpiresAt,
    liveStories,
    canPublish,
    // Newsletter subscribers (issue 30): the card leads to the list for those who may read it.
    subscribers: { ...subscribers, linked: can(user.role, "subscribers.view") },
    members,
  };
}

/** The members cards' figures, each from its one home (member-figures.server). */
async function memberFigures(db: Parameters<typeof memberCount>[0], currency: string, billing: boolean): Promise<DashboardMemberFigures> {
  const [members, paidMembers, newLast30Days, canceledLast30Days, revenue] = await Promise.all([
    memberCount(db),
    paidMemberCount(db),
    newMembersLast30Days(db),
    canceledSubscriptionsLast30Days(db),
    billing ? monthlyRecurringRevenue(db, currency) : null,
  ]);
  return { members, paidMembers, newLast30Days, canceledLast30Days, ...(revenue !== null ? { monthlyRevenue: formatMoney(revenue, currency) } : {}) };
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

/** Titled after the site (its name from settings), for every role: the <title> is the name alone. */
export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const siteName = loaderData?.siteName ?? "Frontpage";
  return backOfficeMeta(matches, { title: siteName, path: "/admin" }).map((tag) => ("title" in tag ? { title: siteName } : tag));
};

const LIVE_LABELS = {
  connecting: "Connecting to live updates…",
  live: "Live: updates as content changes",
  reconnecting: "Reconnecting to live updates…",
} as const;

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { siteName, timeZone, stats, work } = loaderData;
  const live = useDashboardLiveRefresh();
  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 space-y-6 px-4 py-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold break-words text-slate-900">{siteName}</h1>
          <p className="mt-1 text-slate-700">{loaderData.greeting}</p>
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

      {/* Work first (issue 41): what waits for me, what is scheduled and published, what is live now; the figures after. */}
      <DashboardWork lists={work} timeZone={timeZone} />
      {loaderData.canPublish ? (
        <BreakingNewsCard current={loaderData.breakingNews} timeZone={timeZone} defaultExpiresAt={loaderData.defaultExpiresAt} liveStories={loaderData.liveStories} />
      ) : null}
      <DashboardStatCards stats={stats} timeZone={timeZone} />
      <DashboardViewCards stats={stats} timeZone={timeZone} />
      <DashboardSubscribersCard {...loaderData.subscribers} />
      {loaderData.members ? <DashboardMembersCards figures={loaderData.members} /> : null}
      <DashboardActivity activity={stats.activity} timeZone={timeZone} />
      <DashboardLinks />
    </main>
  );
}
