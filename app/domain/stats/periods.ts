/**
 * The dashboard's activity periods and limits (spec §9), safe in the browser. Period boundaries
 * themselves are computed by PostgreSQL in the site's time zone (see stats.server.ts).
 */

export const ACTIVITY_PERIODS = ["today", "month", "year"] as const;
export type ActivityPeriod = (typeof ACTIVITY_PERIODS)[number];

export const DEFAULT_ACTIVITY_PERIOD: ActivityPeriod = "today";

/** Tab labels of the activity panel. */
export const PERIOD_LABELS: Record<ActivityPeriod, string> = {
  today: "Today",
  month: "This Month",
  year: "This Year",
};

/** Spec §8: the activity panel's empty state per period. */
export const PERIOD_EMPTY_STATES: Record<ActivityPeriod, string> = {
  today: "No activity today yet. Start creating content!",
  month: "No activity this month yet.",
  year: "No activity this year yet.",
};

export const NO_COMMENTS_YET =
  "No comments yet. Comments will appear here once users start engaging with your content.";

/** Spec §9: the recent comments dialog shows up to 50. */
export const RECENT_COMMENTS_LIMIT = 50;
/** Spec §9: the top articles list shows 10. */
export const TOP_ARTICLES_LIMIT = 10;
/** Spec §9: the month tab shows up to 10 comments and the year tab up to 15 (today: same cap as month). */
export const PERIOD_COMMENT_LIMITS: Record<ActivityPeriod, number> = { today: 10, month: 10, year: 15 };
/** Articles listed per activity tab; the tab's count still covers every article of the period. */
export const PERIOD_ARTICLE_LIMITS: Record<ActivityPeriod, number> = { today: 10, month: 10, year: 15 };
/** The "Total Articles" dialog lists this many of the newest articles and links to the full list. */
export const ARTICLE_DIALOG_LIMIT = 100;

export function isActivityPeriod(value: unknown): value is ActivityPeriod {
  return typeof value === "string" && (ACTIVITY_PERIODS as readonly string[]).includes(value);
}

/** Numbers as the dashboard shows them: 12,345 (the one helper every count goes through). */
export { formatCount } from "~/lib/numbers";
