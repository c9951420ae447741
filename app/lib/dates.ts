import { format } from "date-fns";
import { useRouteLoaderData } from "react-router";

export const DEFAULT_TIME_ZONE = "America/New_York";

/**
 * The wall-clock time of `date` in `timeZone`, as a Date whose local fields hold it: dates render the
 * same on the server and in every reader's browser (no hydration mismatch), in the site's zone.
 */
export function inTimeZone(date: Date | string, timeZone: string = DEFAULT_TIME_ZONE): Date {
  const d = new Date(date);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    hourCycle: "h23",
  }).formatToParts(d);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return new Date(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
}

/** Spec date formats, in the site's time zone. */
export const formatCardDate = (date: Date | string, timeZone?: string) => format(inTimeZone(date, timeZone), "MMM d, yyyy");
export const formatArticleDate = (date: Date | string, timeZone?: string) => format(inTimeZone(date, timeZone), "MMMM d, yyyy");
export const formatCommentDate = (date: Date | string, timeZone?: string) =>
  format(inTimeZone(date, timeZone), "MMM d, yyyy 'at' h:mm a");

/** The site's time zone (TIME_ZONE), from the root loader. */
export function useSiteTimeZone(): string {
  const root = useRouteLoaderData("root") as { timeZone?: string } | undefined;
  return root?.timeZone ?? DEFAULT_TIME_ZONE;
}
