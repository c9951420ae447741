import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { bucketLabel } from "~/domain/audience/audience-format";
import type { AudiencePeriod, AudienceSeriesPoint } from "~/domain/audience/audience-report.types";
import { formatCount } from "~/lib/numbers";
import { AudienceTable } from "./audience-table";

/**
 * Views and visitors over time (issue 42): a line chart (recharts, decision 0059), drawn for the eye
 * only, and the same figures as a table behind it for screen readers and keyboards ("Show as table").
 */
export function AudienceChart({
  title,
  series,
  bucket,
  timeZone,
  exportHref,
}: {
  title: string;
  series: readonly AudienceSeriesPoint[];
  bucket: AudiencePeriod["bucket"];
  timeZone: string;
  exportHref?: string;
}) {
  const points = series.map((p) => ({ label: bucketLabel(p.at, bucket, timeZone), views: p.views, visitors: p.visitors }));
  const headingId = `chart-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3 h-64 w-full" aria-hidden="true" data-testid="audience-chart">
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 256 }}>
          <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: -12 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#475569" }} interval="preserveStartEnd" minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: "#475569" }} />
            <Tooltip formatter={(value) => formatCount(Number(value))} />
            <Legend />
            <Line type="linear" dataKey="views" name="Page views" stroke="#1d4ed8" strokeWidth={2} dot={false} isAnimationActive={false} />
            <Line type="linear" dataKey="visitors" name="Visitors" stroke="#b45309" strokeWidth={2} dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium text-brand-700">Show as table</summary>
        <AudienceTable
          caption={`${title}, as a table`}
          columns={[bucket === "hour" ? "Hour" : "Day", "Page views", "Visitors"]}
          rows={points.map((p) => [p.label, formatCount(p.views), formatCount(p.visitors)])}
          numeric={[1, 2]}
          empty="No page views recorded in this period yet."
          exportHref={exportHref}
        />
      </details>
    </section>
  );
}
