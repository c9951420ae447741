import { data, Link, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { AudienceChart } from "~/components/admin/audience-chart";
import { AudienceRightNowPanel } from "~/components/admin/audience-right-now";
import { AudienceTable } from "~/components/admin/audience-table";
import { DayRangeAlert, type DayRangeError, DayRangeForm, dayRangeErrorOf } from "~/components/admin/day-range-form";
import { requireCapability } from "~/domain/accounts/guard.server";
import { audienceScopeFor } from "~/domain/audience/audience-access.server";
import { DEVICE_LABELS, formatRate, formatSeconds, PERIOD_LABELS, periodQuery, periodText, SOURCE_LABELS } from "~/domain/audience/audience-format";
import { audienceOverview, audiencePeriodOf, audienceRightNow } from "~/domain/audience/audience-report.server";
import type { AudienceOverview, AudiencePeriodKey } from "~/domain/audience/audience-report.types";
import { isAppError } from "~/lib/app-error";
import { cn } from "~/lib/cn";
import { inTimeZone, isoDayOf } from "~/lib/dates";
import { formatCount } from "~/lib/numbers";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/audience";
import { AudienceSignUps } from "~/components/admin/audience-sign-ups";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "audience.view");
  const timeZone = context.env.TIME_ZONE;
  const scope = await audienceScopeFor(context.db, user);
  const params = new URL(request.url).searchParams;
  const now = new Date();
  const today = isoDayOf(inTimeZone(now, timeZone));
  const rightNow = await audienceRightNow(context.db, scope, now);
  const chosen = { from: params.get("from") ?? "", to: params.get("to") ?? "" };
  const base = { timeZone, today, rightNow, siteWide: scope.kind === "site", chosen };
  try {
    const period = audiencePeriodOf(params, timeZone, now);
    const overview = await audienceOverview(context.db, period, scope, timeZone);
    return { ...base, overview, rangeError: null as DayRangeError | null };
  } catch (error) {
    // A chosen range that is no range: the form says which day is wrong, and nothing else is shown.
    if (!isAppError(error, "invalid_input")) throw error;
    return data({ ...base, overview: null as AudienceOverview | null, rangeError: dayRangeErrorOf(error) }, { status: 400 });
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Audience", path: "/admin/audience" });

const TABS: AudiencePeriodKey[] = ["today", "7d", "30d"];

export default function AudiencePage({ loaderData }: Route.ComponentProps) {
  const { overview, rightNow, timeZone, today, siteWide, rangeError, chosen } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin/audience";
  const current = overview?.period.key ?? "range";
  const query = overview ? periodQuery(overview.period) : "";
  const exportHref = (table: string) => `/admin/audience/export?table=${table}&${query}`;
  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Audience"
        description={siteWide ? "Who reads what, from where: counted without cookies, in the site's time zone." : "Your stories' readers: counted without cookies, in the site's time zone."}
      />
      <div className="space-y-6">
        <AudienceRightNowPanel initial={rightNow} />

        <nav aria-label="Period" className="flex flex-wrap items-end gap-x-4 gap-y-3 border-b border-slate-200 pb-3">
          <ul className="flex flex-wrap gap-1">
            {TABS.map((key) => (
              <li key={key}>
                <Link
                  to={`?period=${key}`}
                  aria-current={current === key ? "page" : undefined}
                  className={cn("inline-flex h-9 items-center rounded-md px-3 text-sm font-medium", current === key ? "bg-slate-900 text-white" : "text-slate-800 hover:bg-slate-100")}
                >
                  {PERIOD_LABELS[key]}
                </Link>
              </li>
            ))}
          </ul>
          <DayRangeForm
            idPrefix="range"
            label="Chosen range"
            from={overview?.period.key === "range" ? overview.period.firstDay : chosen.from}
            to={overview?.period.key === "range" ? overview.period.lastDay : chosen.to}
            max={today}
            error={rangeError}
            submitLabel="Show range"
            submitVariant={current === "range" ? "default" : "outline"}
          >
            <input type="hidden" name="period" value="range" />
          </DayRangeForm>
        </nav>
        <DayRangeAlert idPrefix="range" error={rangeError} />
        <p className="sr-only" role="status">
          {loading ? "Loading the figures…" : ""}
        </p>
        {overview ? (
          <div aria-busy={loading} className={cn("space-y-6 transition-opacity", loading && "opacity-60")}>
            <OverviewFigures overview={overview} timeZone={timeZone} exportHref={exportHref} />
          </div>
        ) : null}
      </div>
    </main>
  );
}

function Card({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <p className="text-sm text-slate-700">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

function Panel({ children }: { children: React.ReactNode }) {
  return <section className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">{children}</section>;
}

function OverviewFigures({ overview, timeZone, exportHref }: { overview: AudienceOverview; timeZone: string; exportHref: (table: string) => string }) {
  const { period, totals, engagement, conversions } = overview;
  const none = "No page views recorded in this period yet.";
  const storyLink = (s: { articleId: string; title: string }) => (
    <Link to={`/admin/audience/story/${s.articleId}`} className="text-brand-700 hover:underline">
      {s.title}
    </Link>
  );
  return (
    <>
      <p className="text-sm text-slate-700">
        {PERIOD_LABELS[period.key]}: {periodText(period)}
      </p>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Card label="Visitors" value={formatCount(totals.visitors)} testId="audience-visitors" />
        <Card label="Page views" value={formatCount(totals.views)} testId="audience-views" />
        <Card label="Median engaged time" value={formatSeconds(engagement.medianEngagedSeconds)} />
        <Card label="Read to the end" value={formatRate(engagement.readToEndRate)} />
      </div>
      {totals.views === 0 ? <p className="rounded-md bg-slate-50 px-3 py-4 text-slate-800">{none}</p> : null}
      <AudienceChart
        title={period.bucket === "hour" ? "Views and visitors by hour" : "Views and visitors by day"}
        series={overview.series}
        bucket={period.bucket}
        timeZone={timeZone}
        exportHref={exportHref("series")}
      />
      <Panel>
        <AudienceTable
          title="Top stories"
          caption="Top stories"
          columns={["Story", "Author", "Page views", "Visitors", "Median engaged", "Read to end"]}
          numeric={[2, 3, 4, 5]}
          rows={overview.stories.map((s) => [storyLink(s), s.authorName ?? "—", formatCount(s.views), formatCount(s.visitors), formatSeconds(s.medianEngagedSeconds), formatRate(s.readToEndRate)])}
          empty="No story has been read in this period yet."
          exportHref={exportHref("stories")}
        />
      </Panel>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel>
          <AudienceTable
            title="Top sources"
            caption="Top sources"
            columns={["Source", "Site", "Page views", "Visitors"]}
            numeric={[2, 3]}
            rows={overview.sources.map((s) => [SOURCE_LABELS[s.source] ?? s.source, s.host || "—", formatCount(s.views), formatCount(s.visitors)])}
            empty={none}
            exportHref={exportHref("sources")}
          />
        </Panel>
        <Panel>
          <AudienceTable
            title="Campaigns"
            caption="Campaigns (utm tags)"
            columns={["Campaign", "Source", "Medium", "Page views", "Visitors"]}
            numeric={[3, 4]}
            rows={overview.campaigns.map((c) => [c.utmCampaign || "—", c.utmSource || "—", c.utmMedium || "—", formatCount(c.views), formatCount(c.visitors)])}
            empty="No visit came from a link with utm tags in this period."
            exportHref={exportHref("campaigns")}
          />
        </Panel>
        <Panel>
          <AudienceTable
            title="Categories"
            caption="Top categories"
            columns={["Category", "Page views", "Visitors"]}
            numeric={[1, 2]}
            rows={overview.categories.map((c) => [c.name, formatCount(c.views), formatCount(c.visitors)])}
            empty="No story in a category has been read in this period yet."
            exportHref={exportHref("categories")}
          />
        </Panel>
        <Panel>
          <AudienceTable
            title="Authors"
            caption="Top authors"
            columns={["Author", "Page views", "Visitors"]}
            numeric={[1, 2]}
            rows={overview.authors.map((a) => [a.name, formatCount(a.views), formatCount(a.visitors)])}
            empty="No story with a byline has been read in this period yet."
            exportHref={exportHref("authors")}
          />
        </Panel>
        <Panel>
          <AudienceTable
            title="Devices"
            caption="Devices"
            columns={["Device", "Page views", "Visitors"]}
            numeric={[1, 2]}
            rows={overview.devices.map((d) => [DEVICE_LABELS[d.device] ?? d.device, formatCount(d.views), formatCount(d.visitors)])}
            empty={none}
            exportHref={exportHref("devices")}
          />
        </Panel>
        <Panel>
          <h2 className="mb-2 text-lg font-semibold text-slate-900">Sign-ups</h2>
          <AudienceSignUps conversions={conversions} />
          <p className="mt-2 text-xs text-slate-600">Credited to the story and source that brought each reader that day.</p>
        </Panel>
      </div>
    </>
  );
}
