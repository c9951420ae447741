import { requireCapability } from "~/domain/accounts/guard.server";
import { adReportCsv, adReportFileName } from "~/domain/ads/ad-report-csv.server";
import { adCountLines, campaignAndPeriod } from "~/domain/ads/ad-report.server";
import { refuse } from "~/lib/forms";
import { inTimeZone, isoDayOf } from "~/lib/dates";
import type { Route } from "./+types/ads-campaign-report-csv";

/**
 * GET /admin/ads/campaigns/:id/report.csv?from&to (issue 43): the campaign's counts in the period (the
 * report's default when none is asked), one line per day × creative × slot. Bad period: 400; unknown campaign: 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "ads.manage");
  const search = new URL(request.url).searchParams;
  const today = isoDayOf(inTimeZone(new Date(), context.env.TIME_ZONE));
  try {
    const { campaign, period } = await campaignAndPeriod(context.db, params.id, { from: search.get("from"), to: search.get("to"), today });
    const csv = adReportCsv(await adCountLines(context.db, { campaignId: campaign.id }, period));
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${adReportFileName(`${campaign.advertiser.name} ${campaign.name}`, period)}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    return refuse(error);
  }
}
