import { slugify } from "~/lib/slugs";
import { toCsv } from "~/domain/audience/audience-csv.server";
import { creativeLabel, ctrPercent } from "./ad-report-format";
import type { AdCountLine, AdPeriod } from "./ad-report.server";

// The ads reports' CSV files (issue 43): one line per day × creative × slot, written by the project's
// one CSV writer (audience-csv.server.ts: RFC 4180, CRLF, every text cell spreadsheet-safe).

export const AD_CSV_COLUMNS = ["date", "campaign", "advertiser", "creative", "slot", "impressions", "viewable", "clicks", "ctr_percent"] as const;

export function adReportCsv(lines: readonly AdCountLine[]): string {
  return toCsv(
    AD_CSV_COLUMNS,
    lines.map((l) => [
      l.day,
      l.campaign,
      l.advertiser,
      `${creativeLabel(l.creative)}${l.creative.archived ? " (archived)" : ""}`,
      l.slot,
      l.impressions,
      l.viewable,
      l.clicks,
      ctrPercent(l),
    ]),
  );
}

/** "ads-<name>-2026-11-01-to-2026-11-30.csv" (the name's slug; "report" when it has none). */
export function adReportFileName(name: string, period: AdPeriod): string {
  const days = period.from === period.to ? period.from : `${period.from}-to-${period.to}`;
  return `ads-${slugify(name).slice(0, 60) || "report"}-${days}.csv`;
}
