import type { AudienceDevice, AudienceSource } from "~/db/schema";
import { inTimeZone, isoDayOf } from "~/lib/dates";
import type { AudiencePeriod, AudiencePeriodKey } from "./audience-report.types";

// How the newsroom's audience screens write their figures (issue 42): browser-safe, the same text on
// the server and in the browser, every time in the site's zone.

export const PERIOD_LABELS: Record<AudiencePeriodKey, string> = { today: "Today", "7d": "7 days", "30d": "30 days", range: "Chosen range" };

export const SOURCE_LABELS: Record<AudienceSource, string> = {
  search: "Search",
  social: "Social",
  newsletter: "Newsletter",
  other: "Other sites",
  direct: "Direct",
  internal: "This site",
};

export const DEVICE_LABELS: Record<AudienceDevice, string> = { desktop: "Desktop", phone: "Phone", tablet: "Tablet" };

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** A chart bucket's label: "14:00" for an hour, "Nov 29" for a day, on the site's clock. */
export function bucketLabel(at: string, bucket: AudiencePeriod["bucket"], timeZone: string): string {
  const wall = inTimeZone(at, timeZone);
  return bucket === "hour" ? `${pad(wall.getHours())}:00` : `${MONTHS[wall.getMonth()]} ${wall.getDate()}`;
}

/** A bucket's start as a CSV cell: "2026-11-29 14:00" on the site's clock. */
export function localTimeLabel(at: string, timeZone: string): string {
  const wall = inTimeZone(at, timeZone);
  return `${isoDayOf(wall)} ${pad(wall.getHours())}:${pad(wall.getMinutes())}`;
}

/** What a period covers, for people: "Nov 29, 2026" or "Nov 23 – Nov 29, 2026". */
export function periodText(period: Pick<AudiencePeriod, "firstDay" | "lastDay">): string {
  const day = (iso: string) => {
    const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
    return { text: `${MONTHS[m - 1]} ${d}`, year: y };
  };
  const first = day(period.firstDay);
  const last = day(period.lastDay);
  if (period.firstDay === period.lastDay) return `${last.text}, ${last.year}`;
  return first.year === last.year ? `${first.text} – ${last.text}, ${last.year}` : `${first.text}, ${first.year} – ${last.text}, ${last.year}`;
}

/** Engaged seconds as "45 s" or "2 min 5 s"; "—" when nothing reported. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const rest = s % 60;
  return rest === 0 ? `${Math.floor(s / 60)} min` : `${Math.floor(s / 60)} min ${rest} s`;
}

/** A rate 0..1 as "45%"; "—" when nothing was measured. */
export function formatRate(rate: number | null): string {
  return rate === null ? "—" : `${Math.round(rate * 100)}%`;
}

/** The query string of a period (what /admin/audience and its exports read). */
export function periodQuery(period: Pick<AudiencePeriod, "key" | "firstDay" | "lastDay">): string {
  return period.key === "range" ? `period=range&from=${period.firstDay}&to=${period.lastDay}` : `period=${period.key}`;
}

/** The file name of an export: "audience-stories-2026-11-23-to-2026-11-29.csv". */
export function exportFileName(table: string, period: Pick<AudiencePeriod, "firstDay" | "lastDay">, story?: string): string {
  const days = period.firstDay === period.lastDay ? period.firstDay : `${period.firstDay}-to-${period.lastDay}`;
  return `audience-${story ? `${story}-` : ""}${table}-${days}.csv`;
}
