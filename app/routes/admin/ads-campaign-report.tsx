import { Download, FileText } from "lucide-react";
import { data, Link, useNavigation } from "react-router";
import { AdPeriodForm } from "~/components/admin/ad-period-form";
import { dayRangeErrorOf } from "~/components/admin/day-range-form";
import { CountCards, countCells, COUNT_COLUMNS, DaysTable, GoalCard } from "~/components/admin/ad-report-parts";
import { AdReportChart } from "~/components/admin/ad-report-chart";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { AudienceTable } from "~/components/admin/audience-table";
import { Button } from "~/components/ui/button";
import { requireCapability } from "~/domain/accounts/guard.server";
import { creativeLabel, periodText } from "~/domain/ads/ad-report-format";
import { campaignReport } from "~/domain/ads/ad-report.server";
import { AD_SLOTS, isAdSlotName } from "~/domain/ads/ad-slots";
import { isAppError } from "~/lib/app-error";
import { cn } from "~/lib/cn";
import { inTimeZone, isoDayOf } from "~/lib/dates";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/ads-campaign-report";

/**
 * /admin/ads/campaigns/:id/report (issue 43): what a campaign got in a period (default: its own days
 * up to today): totals, goal progress and pace, by day, by creative, by slot; the CSV of the same.
 * A period that is no period: 400 with the form's message; an unknown campaign: 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "ads.manage");
  const search = new URL(request.url).searchParams;
  const asked = { from: search.get("from") ?? "", to: search.get("to") ?? "" };
  const today = isoDayOf(inTimeZone(new Date(), context.env.TIME_ZONE));
  try {
    const report = await campaignReport(context.db, params.id, { ...asked, today });
    return { report, asked, periodError: null };
  } catch (error) {
    if (isAppError(error, "invalid_input")) return data({ report: null, asked, periodError: dayRangeErrorOf(error) }, { status: 400 });
    if (isAppError(error)) throw data({ error: error.message }, { status: error.status });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ matches, loaderData, params }) =>
  backOfficeMeta(matches, { title: loaderData?.report ? `Report: ${loaderData.report.campaign.name}` : "Campaign report", path: `/admin/ads/campaigns/${params.id}/report` });

const slotName = (slot: string) => (isAdSlotName(slot) ? `${AD_SLOTS[slot].where} (${slot})` : slot);

export default function CampaignReportPage({ loaderData, params }: Route.ComponentProps) {
  const { report, asked, periodError } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === `/admin/ads/campaigns/${params.id}/report`;
  const back = { to: `/admin/ads/campaigns/${params.id}`, label: "Back to campaign" };
  if (!report) {
    return (
      <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
        <AdminPageHeader title="Campaign report" back={back} />
        <AdPeriodForm from={asked.from} to={asked.to} error={periodError} />
      </main>
    );
  }
  const { campaign, period, totals } = report;
  const query = `from=${period.from}&to=${period.to}`;
  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title={`Report: ${campaign.name}`}
        back={back}
        description={
          <>
            {campaign.advertiser.name} · runs {periodText({ from: campaign.startsOn, to: campaign.endsOn })}
            {campaign.paused ? " · paused" : ""}
          </>
        }
        action={
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <a href={`/admin/ads/campaigns/${campaign.id}/report.csv?${query}`} download>
                <Download className="h-4 w-4" aria-hidden="true" />
                Download CSV
              </a>
            </Button>
            <Button asChild variant="outline">
              <Link to={`/admin/ads/advertisers/${campaign.advertiser.id}/report?${query}`}>
                <FileText className="h-4 w-4" aria-hidden="true" />
                Advertiser's report
              </Link>
            </Button>
          </div>
        }
      />
      <div aria-busy={loading} className={cn("space-y-6", loading && "opacity-60")}>
        <AdPeriodForm from={period.from} to={period.to} error={periodError} />
        <p className="text-sm text-slate-700" data-testid="report-period">
          {periodText(period)} ({period.days === 1 ? "1 day" : `${period.days} days`})
        </p>
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <CountCards totals={totals} prefix="campaign" />
          {report.goal ? (
            <div className="col-span-2 md:col-span-4">
              <GoalCard goal={report.goal} />
            </div>
          ) : null}
        </div>
        {totals.impressions === 0 ? <p className="rounded-md bg-slate-50 px-3 py-4 text-slate-800">No impressions counted in this period yet.</p> : null}
        <section aria-labelledby="by-day-heading" className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="by-day-heading" className="mb-2 text-lg font-semibold text-slate-900">
            By day
          </h2>
          {report.byDay.length > 1 ? <AdReportChart days={report.byDay} /> : null}
          <DaysTable days={report.byDay} totals={totals} caption="The campaign's figures by day" />
        </section>
        <div className="space-y-6">
          <section className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
            <AudienceTable
              title="By creative"
              caption="The campaign's figures by creative"
              columns={["Creative", ...COUNT_COLUMNS]}
              numeric={[1, 2, 3, 4]}
              rows={report.byCreative.map((c) => [
                <>
                  {creativeLabel(c)}
                  {c.archived ? <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">Archived</span> : null}
                </>,
                ...countCells(c),
              ])}
              empty="This campaign has no creatives yet."
            />
          </section>
          <section className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
            <AudienceTable
              title="By slot"
              caption="The campaign's figures by slot"
              columns={["Slot", ...COUNT_COLUMNS]}
              numeric={[1, 2, 3, 4]}
              rows={report.bySlot.map((s) => [slotName(s.slot), ...countCells(s)])}
              empty="This campaign fills no slot."
            />
          </section>
        </div>
      </div>
    </main>
  );
}
