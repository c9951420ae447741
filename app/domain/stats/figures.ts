// The dashboard's view figures (issue 27), safe in the browser: each row is ONE measure, labelled with
// what it counts, so its periods can be compared — All time ≥ This year ≥ This month ≥ Today.
// (Before, "Total Site Views" summed the article counters while "Views This Year" counted page views:
// 90,226 beside 90,242.)
import type { DashboardStats } from "./stats.schema";

export type Measure = "articleViews" | "pageViews";
export type FigurePeriod = "today" | "month" | "year" | "allTime";

export const MEASURES: Record<Measure, { label: string; explanation: string }> = {
  pageViews: {
    label: "Page views",
    explanation: "Every page a reader loaded (the page-view beacon), counted by when it happened.",
  },
  articleViews: {
    label: "Article views",
    explanation: "The sum of every article's own view counter, shown on the article. It keeps no times, so it has no periods.",
  },
};

export const FIGURE_PERIOD_LABELS: Record<FigurePeriod, string> = {
  today: "Today",
  month: "This Month",
  year: "This Year",
  allTime: "All Time",
};

export interface Figure {
  period: FigurePeriod;
  value: number;
}

export interface FigureRow {
  measure: Measure;
  /** Shortest period first: Today, This Month, This Year, All Time. */
  figures: Figure[];
}

/** The rows the dashboard shows, one measure each. */
export function viewFigureRows(stats: Pick<DashboardStats, "pageViews" | "totals">): FigureRow[] {
  const { pageViews, totals } = stats;
  return [
    {
      measure: "pageViews",
      figures: [
        { period: "today", value: pageViews.today },
        { period: "month", value: pageViews.month },
        { period: "year", value: pageViews.year },
        { period: "allTime", value: pageViews.allTime },
      ],
    },
    { measure: "articleViews", figures: [{ period: "allTime", value: totals.articleViews }] },
  ];
}

/** "Page Views Today", "Article Views All Time": a figure's label names its measure. */
export function figureLabel(measure: Measure, period: FigurePeriod): string {
  const name = MEASURES[measure].label.replace(/\b\w/g, (c) => c.toUpperCase());
  return `${name} ${FIGURE_PERIOD_LABELS[period]}`;
}
