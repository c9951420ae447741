import { AD_SIZES, isAdSize } from "./ad-slots";

// How the ads reports (issue 43) write their figures: browser-safe, the same text on the server, in
// the browser, on paper and in the CSV files.

/** The counts of a row, a day, a creative, a campaign; `viewable` is already at most `impressions`. */
export interface AdCounts {
  impressions: number;
  viewable: number;
  clicks: number;
}

/** One day's counts (YYYY-MM-DD, the site's zone). */
export interface AdDayRow extends AdCounts {
  day: string;
}

export const NO_COUNTS: AdCounts = { impressions: 0, viewable: 0, clicks: 0 };

export const addCounts = (a: AdCounts, b: AdCounts): AdCounts => ({ impressions: a.impressions + b.impressions, viewable: a.viewable + b.viewable, clicks: a.clicks + b.clicks });

/** Clicks per impression as a percent to two decimals ("1.25%"); "—" when nothing was served. */
export function formatCtr(counts: Pick<AdCounts, "impressions" | "clicks">): string {
  return counts.impressions > 0 ? `${((counts.clicks / counts.impressions) * 100).toFixed(2)}%` : "—";
}

/** The CTR as a number for a CSV cell (percent, two decimals), or null when nothing was served. */
export function ctrPercent(counts: Pick<AdCounts, "impressions" | "clicks">): number | null {
  return counts.impressions > 0 ? Math.round((counts.clicks / counts.impressions) * 10_000) / 100 : null;
}

/** The share of impressions seen (half in view for a second), to one decimal ("62.5%"); "—" when nothing was served. */
export function formatViewability(counts: Pick<AdCounts, "impressions" | "viewable">): string {
  return counts.impressions > 0 ? `${((counts.viewable / counts.impressions) * 100).toFixed(1)}%` : "—";
}

/** What a creative is, for a table or a CSV cell: "Image, box: Ford Fiesta on the quay" / "Text, banner: Spring sale". */
export function creativeLabel(creative: { kind: string; size: string; headline: string; alt: string }): string {
  const kind = creative.kind === "image" ? "Image" : "Text";
  const size = isAdSize(creative.size) ? AD_SIZES[creative.size].label.split(" ")[0]!.toLowerCase() : creative.size;
  const words = (creative.kind === "image" ? creative.alt : creative.headline).trim();
  return `${kind}, ${size}${words ? `: ${words}` : ""}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A day (YYYY-MM-DD) for people: "Nov 29, 2026". */
export function dayText(day: string): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** A period for people: "Nov 29, 2026" or "Nov 23, 2026 – Dec 5, 2026". */
export function periodText(period: { from: string; to: string }): string {
  return period.from === period.to ? dayText(period.from) : `${dayText(period.from)} – ${dayText(period.to)}`;
}

/** How a campaign with an impression goal is doing against an even pace over its days. */
export type AdPace = "not started" | "ahead" | "behind" | "met" | "missed";

export const PACE_TEXT: Record<AdPace, string> = {
  "not started": "Not started yet",
  ahead: "Ahead of pace",
  behind: "Behind pace",
  met: "Goal met",
  missed: "Ended short of its goal",
};
