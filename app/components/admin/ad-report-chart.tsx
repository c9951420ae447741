import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AdDayRow } from "~/domain/ads/ad-report-format";
import { formatCount } from "~/lib/numbers";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const shortDay = (day: string) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;

/**
 * A campaign's impressions and viewable impressions by day (issue 43), for the eye only (recharts,
 * as the audience screens, decision 0059): the by-day table beside it holds the same figures.
 */
export function AdReportChart({ days }: { days: readonly AdDayRow[] }) {
  const points = days.map((d) => ({ label: shortDay(d.day), impressions: d.impressions, viewable: d.viewable }));
  return (
    <div className="h-56 w-full" aria-hidden="true" data-testid="ad-report-chart">
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 224 }}>
        <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: -12 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#475569" }} interval="preserveStartEnd" minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: "#475569" }} />
          <Tooltip formatter={(value) => formatCount(Number(value))} />
          <Legend />
          <Line type="linear" dataKey="impressions" name="Impressions" stroke="#1d4ed8" strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line type="linear" dataKey="viewable" name="Viewable" stroke="#b45309" strokeWidth={2} dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
