import { CalendarDays, CalendarRange, Clock } from "lucide-react";
import type { PeriodFigures } from "~/domain/stats/stats.schema";
import { formatCount } from "~/domain/stats/periods";

const CARDS = [
  { key: "today", label: "Views Today", icon: Clock },
  { key: "month", label: "Views This Month", icon: CalendarDays },
  { key: "year", label: "Views This Year", icon: CalendarRange },
] as const;

/** Page views by when they happened, in the site's time zone. */
export function DashboardViewCards({ pageViews, timeZone }: { pageViews: PeriodFigures; timeZone: string }) {
  return (
    <section aria-labelledby="views-heading">
      <h2 id="views-heading" className="sr-only">
        Page views
      </h2>
      <ul className="grid gap-4 sm:grid-cols-3">
        {CARDS.map(({ key, label, icon: Icon }) => (
          <li key={key} className="rounded-lg bg-gradient-to-br from-brand-700 to-brand-900 p-5 text-white shadow-sm">
            <span className="flex items-center justify-between">
              <span className="text-sm font-medium">{label}</span>
              <Icon className="h-5 w-5" aria-hidden="true" />
            </span>
            <span className="mt-2 block text-3xl font-bold" data-testid={`views-${key}`}>
              {formatCount(pageViews[key])}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-xs text-slate-600">Counted by when each page view happened ({timeZone.replaceAll("_", " ")} time).</p>
    </section>
  );
}
