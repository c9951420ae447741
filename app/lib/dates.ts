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

/** A publication time as the back office shows it ("Scheduled for …", the scheduling toast), in the site's time zone. */
export const formatPublishDate = (date: Date | string, timeZone?: string) => format(inTimeZone(date, timeZone), "MMM d, yyyy 'at' h:mm a");

/** A moment as the value of a `datetime-local` input showing the site's time zone. */
export const toDateTimeLocal = (date: Date | string, timeZone?: string) => format(inTimeZone(date, timeZone), "yyyy-MM-dd'T'HH:mm");

const DATE_TIME_LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The moment a `datetime-local` value ("2026-11-23T14:30", seconds optional) names on the wall
 * clock of `timeZone`; null when it is not such a value or not a real date (2026-02-30, 25:00).
 * Around a daylight-saving change (a skipped or repeated hour) it is one of the two readings.
 */
export function fromDateTimeLocal(value: string, timeZone: string = DEFAULT_TIME_ZONE): Date | null {
  const m = DATE_TIME_LOCAL.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  // The zone's offset at a moment: its wall clock there, read as if it were UTC, minus the moment.
  const offsetAt = (ms: number) => {
    const local = inTimeZone(new Date(ms), timeZone);
    return Date.UTC(local.getFullYear(), local.getMonth(), local.getDate(), local.getHours(), local.getMinutes(), local.getSeconds()) - ms;
  };
  // Guess with the offset at the wall time read as UTC, then correct with the offset at the guess.
  return new Date(wall - offsetAt(wall - offsetAt(wall)));
}

/** The site's time zone (TIME_ZONE), from the root loader. */
export function useSiteTimeZone(): string {
  const root = useRouteLoaderData("root") as { timeZone?: string } | undefined;
  return root?.timeZone ?? DEFAULT_TIME_ZONE;
}
