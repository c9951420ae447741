import { requireCapability } from "~/domain/accounts/guard.server";
import { adReportCsv, adReportFileName } from "~/domain/ads/ad-report-csv.server";
import { adCountLines, advertiserAndPeriod } from "~/domain/ads/ad-report.server";
import { inTimeZone, isoDayOf } from "~/lib/dates";
import { refuse } from "~/lib/forms";
import type { Route } from "./+types/ads-advertiser-report-csv";

/**
 * GET /admin/ads/advertisers/:id/report.csv?from&to (issue 43): every counted line of the advertiser's
 * campaigns in the period (default: the last 30 days), day × campaign × creative × slot. Bad period: 400; unknown advertiser: 404.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "ads.manage");
  const search = new URL(request.url).searchParams;
  const today = isoDayOf(inTimeZone(new Date(), context.env.TIME_ZONE));
  try {
    const { advertiser, period } = await advertiserAndPeriod(context.db, params.id, { from: search.get("from"), to: search.get("to"), today });
    const csv = adReportCsv(await adCountLines(context.db, { advertiserId: advertiser.id }, period));
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${adReportFileName(advertiser.name, period)}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    return refuse(error);
  }
}
