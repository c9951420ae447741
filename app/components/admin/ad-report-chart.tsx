import type { AdDayRow } from "~/domain/ads/ad-report-format";
import { CountLinesChart } from "./count-lines-chart";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const shortDay = (day: string) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;

/**
 * A campaign's impressions and viewable impressions by day (issue 43), for the eye only (recharts,
 * as the audience screens, decision 0059): the by-day table beside it holds the same figures.
 */
export function AdReportChart({ days }: { days: readonly AdDayRow[] }) {
  const points = days.map((d) => ({ label: shortDay(d.day), impressions: d.impressions, viewable: d.viewable }));
  return (
    <CountLinesChart
      points={points}
      lines={[
        { key: "impressions", name: "Impressions", stroke: "#1d4ed8" },
        { key: "viewable", name: "Viewable", stroke: "#b45309" },
      ]}
      height={224}
      className="h-56 w-full"
      testId="ad-report-chart"
    />
  );
}
