import { Download } from "lucide-react";
import { data, Link, useNavigation } from "react-router";
import { AdPeriodForm } from "~/components/admin/ad-period-form";
import { dayRangeErrorOf } from "~/components/admin/day-range-form";
import { CountCards, countCells, COUNT_COLUMNS, DaysTable } from "~/components/admin/ad-report-parts";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { AudienceTable } from "~/components/admin/audience-table";
import { PrintButton } from "~/components/admin/print-button";
import { Button } from "~/components/ui/button";
import { requireCapability } from "~/domain/accounts/guard.server";
import { periodText } from "~/domain/ads/ad-report-format";
import { advertiserReport } from "~/domain/ads/ad-report.server";
import { getSettings } from "~/domain/settings/settings.server";
import { isAppError } from "~/lib/app-error";
import { cn } from "~/lib/cn";
import { formatPublishDate, inTimeZone, isoDayOf } from "~/lib/dates";
import { formatCount } from "~/lib/numbers";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/ads-advertiser-report";

/**
 * /admin/ads/advertisers/:id/report?from&to (issue 43): the report the newsroom sends an advertiser
 * for a period (default: the last 30 days): each of its campaigns' totals and days, the grand totals,
 * made for paper (the back office's chrome and the form are not printed) and as CSV.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "ads.manage");
  const search = new URL(request.url).searchParams;
  const asked = { from: search.get("from") ?? "", to: search.get("to") ?? "" };
  const now = new Date();
  const timeZone = context.env.TIME_ZONE;
  const today = isoDayOf(inTimeZone(now, timeZone));
  try {
    const report = await advertiserReport(context.db, params.id, { ...asked, today });
    const { siteName } = await getSettings(context.db);
    return { report, siteName, generatedAt: formatPublishDate(now, timeZone), asked, periodError: null };
  } catch (error) {
    if (isAppError(error, "invalid_input")) return data({ report: null, siteName: "", generatedAt: "", asked, periodError: dayRangeErrorOf(error) }, { status: 400 });
    if (isAppError(error)) throw data({ error: error.message }, { status: error.status });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) =>
  backOfficeMeta(matches, {
    title: loaderData?.report ? `Advertising report: ${loaderData.report.advertiser.name}` : "Advertising report",
    path: `/admin/ads/advertisers/${params.id}/report`,
  });

export default function AdvertiserReportPage({ loaderData, params }: Route.ComponentProps) {
  const { report, siteName, generatedAt, asked, periodError } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === `/admin/ads/advertisers/${params.id}/report`;
  const back = { to: `/admin/ads/advertisers/${params.id}`, label: "Back to advertiser" };
  if (!report) {
    return (
      <main className="mx-auto w-full min-w-0 max-w-5xl flex-1 px-4 py-8">
        <AdminPageHeader title="Advertising report" back={back} />
        <AdPeriodForm from={asked.from} to={asked.to} error={periodError} />
      </main>
    );
  }
  const { advertiser, period, campaigns, totals } = report;
  const query = `from=${period.from}&to=${period.to}`;
  return (
    <main className="mx-auto w-full min-w-0 max-w-5xl flex-1 px-4 py-8 print:max-w-none print:p-0">
      <div className="print:hidden">
        <AdminPageHeader
          title="Advertising report"
          back={back}
          description="Print it, or save it as a PDF from the print dialog, to send to the advertiser."
          action={
            <div className="flex flex-wrap gap-2">
              <PrintButton />
              <Button asChild variant="outline">
                <a href={`/admin/ads/advertisers/${advertiser.id}/report.csv?${query}`} download>
                  <Download className="h-4 w-4" aria-hidden="true" />
                  Download CSV
                </a>
              </Button>
            </div>
          }
        />
        <AdPeriodForm from={period.from} to={period.to} error={periodError} />
      </div>
      <article
        aria-labelledby="report-heading"
        aria-busy={loading}
        className={cn("mt-6 space-y-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6 print:mt-0 print:rounded-none print:border-0 print:p-0", loading && "opacity-60")}
        data-testid="advertiser-report"
      >
        <header className="border-b border-slate-200 pb-4">
          <p className="text-sm font-semibold tracking-wide text-slate-700 uppercase" data-testid="report-newsroom">
            {siteName}
          </p>
          <h2 id="report-heading" className="mt-1 text-2xl font-bold break-words text-slate-900">
            Advertising report: {advertiser.name}
          </h2>
          <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm text-slate-800 sm:grid-cols-[auto_1fr]">
            <dt className="font-medium">Period</dt>
            <dd data-testid="report-period">
              {periodText(period)} ({period.days === 1 ? "1 day" : `${period.days} days`})
            </dd>
            {advertiser.contactName || advertiser.contactEmail ? (
              <>
                <dt className="font-medium">Contact</dt>
                <dd className="break-words">{[advertiser.contactName, advertiser.contactEmail].filter(Boolean).join(", ")}</dd>
              </>
            ) : null}
            <dt className="font-medium">Generated</dt>
            <dd>{generatedAt}</dd>
          </dl>
        </header>
        <section aria-labelledby="totals-heading" className="space-y-3">
          <h3 id="totals-heading" className="text-lg font-semibold text-slate-900">
            All campaigns
          </h3>
          <div className="grid grid-cols-2 gap-3 md:grid-cols-4 print:grid-cols-4">
            <CountCards totals={totals} prefix="advertiser" />
          </div>
          {campaigns.length === 0 ? (
            <p className="rounded-md bg-slate-50 px-3 py-4 text-slate-800">No campaign of this advertiser ran in this period.</p>
          ) : (
            <AudienceTable
              caption="Each campaign's totals in the period"
              columns={["Campaign", "Runs", ...COUNT_COLUMNS]}
              numeric={[2, 3, 4, 5]}
              rows={[
                ...campaigns.map(({ campaign, totals: t }) => [campaign.name, periodText({ from: campaign.startsOn, to: campaign.endsOn }), ...countCells(t)]),
                ["Total", "", ...countCells(totals)].map((cell, i) => <strong key={i}>{cell}</strong>),
              ]}
              empty=""
            />
          )}
        </section>
        {campaigns.map(({ campaign, totals: t, byDay }) => (
          <section key={campaign.id} aria-labelledby={`campaign-${campaign.id}`} className="space-y-2 border-t border-slate-200 pt-4" data-testid="report-campaign">
            <h3 id={`campaign-${campaign.id}`} className="text-lg font-semibold break-words text-slate-900">
              {campaign.name}
            </h3>
            <p className="text-sm text-slate-700">
              Runs {periodText({ from: campaign.startsOn, to: campaign.endsOn })}
              {campaign.impressionGoal ? ` · ${formatCount(campaign.impressionGoal)} impressions booked` : ""}
              <span className="print:hidden">
                {" · "}
                <Link to={`/admin/ads/campaigns/${campaign.id}/report?${query}`} className="text-brand-700 underline">
                  Campaign report
                </Link>
              </span>
            </p>
            <DaysTable days={byDay} totals={t} caption={`${campaign.name}: figures by day`} />
          </section>
        ))}
        <p className="border-t border-slate-200 pt-3 text-xs text-slate-700">
          Impressions are counted when an ad is served to a reader (not to bots or prefetches); viewable impressions when at least half of it was in view for a second;
          clicks once per reader a day. CTR is clicks divided by impressions.
        </p>
      </article>
    </main>
  );
}
