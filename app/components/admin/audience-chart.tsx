import { bucketLabel } from "~/domain/audience/audience-format";
import type { AudiencePeriod, AudienceSeriesPoint } from "~/domain/audience/audience-report.types";
import { formatCount } from "~/lib/numbers";
import { AudienceTable } from "./audience-table";
import { CountLinesChart } from "./count-lines-chart";

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
      <CountLinesChart
        points={points}
        lines={[
          { key: "views", name: "Page views", stroke: "#1d4ed8" },
          { key: "visitors", name: "Visitors", stroke: "#b45309" },
        ]}
        height={256}
        className="mt-3 h-64 w-full"
        testId="audience-chart"
      />
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
