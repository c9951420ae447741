import { data, Link, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { AudienceChart } from "~/components/admin/audience-chart";
import { AudienceTable } from "~/components/admin/audience-table";
import { requireCapability } from "~/domain/accounts/guard.server";
import { checkStoryAudienceAccess } from "~/domain/audience/audience-access.server";
import { formatRate, formatSeconds, PERIOD_LABELS, periodQuery, periodText, SOURCE_LABELS } from "~/domain/audience/audience-format";
import { audiencePeriodOf, audienceStoryReport } from "~/domain/audience/audience-report.server";
import type { AudienceEngagement, AudiencePeriodKey } from "~/domain/audience/audience-report.types";
import { isAppError } from "~/lib/app-error";
import { cn } from "~/lib/cn";
import { formatPublishDate } from "~/lib/dates";
import { formatCount, formatQuantity } from "~/lib/numbers";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/audience-story";
import { AudienceSignUps } from "~/components/admin/audience-sign-ups";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "audience.view");
  const timeZone = context.env.TIME_ZONE;
  const now = new Date();
  try {
    // An author asking for another's story is refused here (403), before a figure is read.
    await checkStoryAudienceAccess(context.db, user, params.id);
    const search = new URL(request.url).searchParams;
    const asked = search.has("period");
    // No period asked: since the story's publication, up to today.
    const report = await audienceStoryReport(context.db, params.id, asked ? audiencePeriodOf(search, timeZone, now) : null, timeZone, { now });
    return { report, timeZone, sincePublication: !asked, published: report.article.publishedAt ? formatPublishDate(report.article.publishedAt, timeZone) : null };
  } catch (error) {
    if (isAppError(error)) throw data({ error: error.message }, { status: error.status });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) =>
  backOfficeMeta(matches, { title: loaderData ? `Audience: ${loaderData.report.article.title}` : "Audience", path: `/admin/audience/story/${params.id}` });

const TABS: AudiencePeriodKey[] = ["today", "7d", "30d"];

function DepthBars({ engagement }: { engagement: AudienceEngagement }) {
  if (engagement.reads === 0) {
    return <p className="rounded-md bg-slate-50 px-3 py-4 text-sm text-slate-700">No reader's browser has reported reading this story in this period yet.</p>;
  }
  return (
    <ul className="space-y-2" aria-label="How far readers read">
      {([25, 50, 75, 100] as const).map((quarter) => {
        const share = engagement.depth[quarter] ?? 0;
        const count = Math.round(share * engagement.reads);
        return (
          <li key={quarter} className="grid grid-cols-[3.5rem_1fr_auto] items-center gap-2 text-sm" data-testid={`depth-${quarter}`}>
            <span className="text-slate-700">{quarter === 100 ? "The end" : `${quarter}%`}</span>
            <span className="h-3 overflow-hidden rounded bg-slate-100" aria-hidden="true">
              <span className="block h-full rounded bg-brand-700" style={{ width: `${Math.round(share * 100)}%` }} />
            </span>
            <span className="tabular-nums text-slate-900">
              {formatCount(count)} ({formatRate(share)})
            </span>
          </li>
        );
      })}
    </ul>
  );
}

export default function AudienceStoryPage({ loaderData }: Route.ComponentProps) {
  const { report, timeZone, published } = loaderData;
  const { article, period, totals, engagement, conversions } = report;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === `/admin/audience/story/${article.id}`;
  const current = loaderData.sincePublication ? "since" : period.key;
  const exportHref = (table: string) => `/admin/audience/export?story=${article.id}&table=${table}&${periodQuery(period)}`;
  const readToEnd = Math.round((engagement.depth[100] ?? 0) * engagement.reads);
  const none = "No page views recorded in this period yet.";
  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title={article.title}
        back={{ to: "/admin/audience", label: "Back to Audience" }}
        description={
          <>
            {[article.authorName, article.categoryName, published ? `published ${published}` : article.status === "published" ? null : "not published"].filter(Boolean).join(" · ")}
            {article.status === "published" ? (
              <>
                {" · "}
                <a href={`/article/${article.slug}`} className="text-brand-700 underline">
                  View story
                </a>
              </>
            ) : null}
          </>
        }
      />
      <div aria-busy={loading} className={cn("space-y-6", loading && "opacity-60")}>
        <nav aria-label="Period">
          <ul className="flex flex-wrap gap-1 border-b border-slate-200 pb-3">
            {[["since", "Since publication", "?"] as const, ...TABS.map((k) => [k, PERIOD_LABELS[k], `?period=${k}`] as const)].map(([key, label, to]) => (
              <li key={key}>
                <Link
                  to={to}
                  aria-current={current === key ? "page" : undefined}
                  className={cn("inline-flex h-9 items-center rounded-md px-3 text-sm font-medium", current === key ? "bg-slate-900 text-white" : "text-slate-800 hover:bg-slate-100")}
                >
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="text-sm text-slate-700">{periodText(period)}</p>
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {(
            [
              ["Page views", formatCount(totals.views), "story-views"],
              ["Visitors", formatCount(totals.visitors), "story-visitors"],
              ["Median engaged time", formatSeconds(engagement.medianEngagedSeconds), "story-engaged"],
              ["Read to the end", engagement.reads > 0 ? `${formatCount(readToEnd)} (${formatRate(engagement.readToEndRate)})` : "—", "story-read-to-end"],
            ] as const
          ).map(([label, value, testId]) => (
            <div key={label} className="rounded-lg border border-slate-200 bg-white p-4">
              <p className="text-sm text-slate-700">{label}</p>
              <p className="mt-1 text-2xl font-bold tabular-nums text-slate-900" data-testid={testId}>
                {value}
              </p>
            </div>
          ))}
        </div>
        {totals.views === 0 ? <p className="rounded-md bg-slate-50 px-3 py-4 text-slate-800">{none}</p> : null}
        <AudienceChart
          title={period.bucket === "hour" ? "Views and visitors by hour" : "Views and visitors by day"}
          series={report.series}
          bucket={period.bucket}
          timeZone={timeZone}
          exportHref={exportHref("series")}
        />
        <div className="grid gap-6 lg:grid-cols-2">
          <section className="min-w-0 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="depth-heading">
            <h2 id="depth-heading" className="mb-1 text-lg font-semibold text-slate-900">
              How far readers read
            </h2>
            <p className="mb-3 text-sm text-slate-700">
              {engagement.reads > 0 ? `Of ${formatQuantity(engagement.reads, "read")} reported by readers' browsers.` : "From readers' browsers with JavaScript."}
            </p>
            <DepthBars engagement={engagement} />
          </section>
          <section className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="mb-2 text-lg font-semibold text-slate-900">Sign-ups it brought</h2>
            <AudienceSignUps conversions={conversions} />
          </section>
          <section className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
            <AudienceTable
              title="Sources"
              caption="The story's sources"
              columns={["Source", "Site", "Page views", "Visitors"]}
              numeric={[2, 3]}
              rows={report.sources.map((s) => [SOURCE_LABELS[s.source] ?? s.source, s.host || "—", formatCount(s.views), formatCount(s.visitors)])}
              empty={none}
              exportHref={exportHref("sources")}
            />
          </section>
          <section className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
            <AudienceTable
              title="Campaigns"
              caption="The story's campaigns (utm tags)"
              columns={["Campaign", "Source", "Medium", "Page views", "Visitors"]}
              numeric={[3, 4]}
              rows={report.campaigns.map((c) => [c.utmCampaign || "—", c.utmSource || "—", c.utmMedium || "—", formatCount(c.views), formatCount(c.visitors)])}
              empty="No visit came from a link with utm tags in this period."
              exportHref={exportHref("campaigns")}
            />
          </section>
        </div>
      </div>
    </main>
  );
}
