import { useRouteLoaderData } from "react-router";

export const DEFAULT_TIME_ZONE = "America/New_York";

/** One formatter per zone: making an Intl.DateTimeFormat costs far more than using one (a page formats dozens of dates). */
const wallClockFormats = new Map<string, Intl.DateTimeFormat>();
function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h23" });
    // A zone is a setting: a handful at most, but never let a stream of odd values grow the map.
    if (wallClockFormats.size > 50) wallClockFormats.clear();
    wallClockFormats.set(timeZone, format);
  }
  return format;
}

/**
 * The wall-clock time of `date` in `timeZone`, as a Date whose local fields hold it: dates render the
 * same on the server and in every reader's browser (no hydration mismatch), in the site's zone.
 */
export function inTimeZone(date: Date | string, timeZone: string = DEFAULT_TIME_ZONE): Date {
  const instant = new Date(date).getTime();
  const key = `${timeZone} ${instant}`;
  let wall = wallClocks.get(key);
  if (wall === undefined) {
    const parts = wallClockFormat(timeZone).formatToParts(instant);
    const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    wall = new Date(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")).getTime();
    if (wallClocks.size >= MAX_WALL_CLOCKS) wallClocks.clear();
    wallClocks.set(key, wall);
  }
  return new Date(wall);
}

/**
 * The wall clocks found lately, by zone and instant: formatToParts is slow (issue 13: 3% of an
 * article's render went to it), and a page shows the same stories' dates render after render.
 */
const wallClocks = new Map<string, number>();
const MAX_WALL_CLOCKS = 20_000;

/**
 * The instant at which the wall clock in `timeZone` reads `local` ("YYYY-MM-DDTHH:mm", what a
 * datetime-local field sends), or null when `local` is no such date and time. In a daylight-saving
 * gap the clock's reading after the jump is taken.
 */
export function fromDateTimeLocal(local: string, timeZone: string = DEFAULT_TIME_ZONE): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second = 0] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const wanted = Date.UTC(year!, month! - 1, day!, hour!, minute!, second);
  const check = new Date(wanted);
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day! || hour! > 23 || minute! > 59 || second > 59) return null;
  // The zone's offset half a day either side of that time: one of them is the offset in force then.
  const offsetAt = (instant: number) => {
    const wall = inTimeZone(new Date(instant), timeZone);
    return Date.UTC(wall.getFullYear(), wall.getMonth(), wall.getDate(), wall.getHours(), wall.getMinutes(), wall.getSeconds()) - instant;
  };
  const before = wanted - offsetAt(wanted - 12 * 3600_000);
  const after = wanted - offsetAt(wanted + 12 * 3600_000);
  for (const instant of [before, after]) if (offsetAt(instant) === wanted - instant) return new Date(instant);
  // A reading the clock skips (a daylight-saving gap): the same time on the clock before the jump.
  return new Date(before);
}

// The spec's few fixed English formats, written from a wall-clock Date's fields (inTimeZone did the
// zone): the same text on the server and in every browser, and no date library in reader pages
// (issue 13: date-fns' format and its locale were 6 KB of every page's JavaScript).
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const pad = (n: number) => String(n).padStart(2, "0");
/** "November" ('MMMM'); its first three letters are 'MMM'. */
const monthOf = (wall: Date) => MONTHS[wall.getMonth()]!;
/** "2026-11-25" ('yyyy-MM-dd') of a wall-clock Date. */
export const isoDayOf = (wall: Date) => `${wall.getFullYear()}-${pad(wall.getMonth() + 1)}-${pad(wall.getDate())}`;
/** "November 25, 2026" ('MMMM d, yyyy') of a wall-clock Date. */
export const longDayOf = (wall: Date) => `${monthOf(wall)} ${wall.getDate()}, ${wall.getFullYear()}`;

/** `date` as a datetime-local field's value ("YYYY-MM-DDTHH:mm") on the wall clock of `timeZone`. */
export const toDateTimeLocal = (date: Date | string, timeZone?: string) => {
  const wall = inTimeZone(date, timeZone);
  return `${isoDayOf(wall)}T${pad(wall.getHours())}:${pad(wall.getMinutes())}`;
};

/** Spec date formats, in the site's time zone. */
const shortDayOf = (wall: Date) => `${monthOf(wall).slice(0, 3)} ${wall.getDate()}, ${wall.getFullYear()}`;
/** "Nov 25, 2026" ('MMM d, yyyy'). */
export const formatCardDate = (date: Date | string, timeZone?: string) => shortDayOf(inTimeZone(date, timeZone));
/** "November 25, 2026" ('MMMM d, yyyy'). */
export const formatArticleDate = (date: Date | string, timeZone?: string) => longDayOf(inTimeZone(date, timeZone));
/** "Nov 25, 2026 at 3:05 PM" ('MMM d, yyyy 'at' h:mm a'). */
export const formatCommentDate = (date: Date | string, timeZone?: string) => {
  const wall = inTimeZone(date, timeZone);
  const hours = wall.getHours();
  return `${shortDayOf(wall)} at ${hours % 12 || 12}:${pad(wall.getMinutes())} ${hours < 12 ? "AM" : "PM"}`;
};

/** A publication time as the back office shows it ("Scheduled for …", the scheduling toast): the comments' date-and-time format. */
export const formatPublishDate = formatCommentDate;

/** The site's time zone (TIME_ZONE), from the root loader. */
export function useSiteTimeZone(): string {
  return siteTimeZoneOf(useRouteLoaderData("root") as RootTimeZone);
}

type RootTimeZone = { timeZone?: string } | undefined;
/** The site's zone from the root loader's data (the default before it has one). */
export const siteTimeZoneOf = (root: RootTimeZone) => root?.timeZone ?? DEFAULT_TIME_ZONE;
