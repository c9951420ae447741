import { CalendarDays, CalendarRange, Clock, Infinity as AllTime } from "lucide-react";
import { figureLabel, MEASURES, viewFigureRows, type FigurePeriod } from "~/domain/stats/figures";
import { formatCount } from "~/domain/stats/periods";
import type { DashboardStats } from "~/domain/stats/stats.schema";

const ICONS: Record<FigurePeriod, typeof Clock> = { today: Clock, month: CalendarDays, year: CalendarRange, allTime: AllTime };

/** Page views (the beacon's rows) in one row: today, this month, this year and all time, one measure. */
export function DashboardViewCards({ stats, timeZone }: { stats: Pick<DashboardStats, "pageViews" | "totals">; timeZone: string }) {
  const row = viewFigureRows(stats).find((r) => r.measure === "pageViews")!;
  return (
    <section aria-labelledby="views-heading">
      <h2 id="views-heading" className="mb-2 text-lg font-semibold text-slate-900">
        {MEASURES.pageViews.label}
      </h2>
      <ul className="grid grid-cols-2 gap-4 lg:grid-cols-4" data-measure="pageViews">
        {row.figures.map(({ period, value }) => {
          const Icon = ICONS[period];
          return (
            <li key={period} className="rounded-lg bg-gradient-to-br from-brand-700 to-brand-900 p-5 text-white shadow-sm">
              <span className="flex items-center justify-between gap-2">
                <span className="text-sm font-medium">{figureLabel("pageViews", period)}</span>
                <Icon className="h-5 w-5 shrink-0" aria-hidden="true" />
              </span>
              <span className="mt-2 block text-3xl font-bold" data-testid={`views-${period}`} data-value={value}>
                {formatCount(value)}
              </span>
            </li>
          );
        })}
      </ul>
      <p className="mt-2 text-xs text-slate-600">
        {MEASURES.pageViews.explanation} Periods follow {timeZone.replaceAll("_", " ")} time.
      </p>
    </section>
  );
}
