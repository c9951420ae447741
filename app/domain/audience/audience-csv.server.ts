import { csvField, spreadsheetSafe } from "~/domain/newsletters/subscribers-csv.server";

// The CSV exports of /admin/audience (issue 42): one file per table, RFC 4180 (quoted when needed,
// CRLF line ends), every text cell made spreadsheet-safe (a cell starting with = + - @ is a formula to
// a spreadsheet: it leaves with a leading ').

export type CsvCell = string | number | null;

/** A header line, then one line per row; numbers as they are, text made safe and quoted when needed. */
export function toCsv(columns: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const cell = (value: CsvCell) => (typeof value === "number" ? String(value) : csvField(spreadsheetSafe(value ?? "")));
  const lines = [columns.map((c) => csvField(c)).join(","), ...rows.map((row) => row.map(cell).join(","))];
  return `${lines.join("\r\n")}\r\n`;
}

/** The tables "Export CSV" offers: the overview's, and a story report's (series, sources, campaigns). */
export const AUDIENCE_TABLES = ["stories", "sources", "campaigns", "categories", "authors", "devices", "series"] as const;
export type AudienceTable = (typeof AUDIENCE_TABLES)[number];
export const STORY_TABLES = ["series", "sources", "campaigns"] as const satisfies readonly AudienceTable[];

export const isAudienceTable = (value: unknown): value is AudienceTable => typeof value === "string" && (AUDIENCE_TABLES as readonly string[]).includes(value);

/** What one export holds: the figures of a report that has the table. */
export interface AudienceTables {
  series: readonly { at: string; views: number; visitors: number }[];
  sources: readonly { source: string; host: string; views: number; visitors: number }[];
  campaigns: readonly { utmSource: string; utmMedium: string; utmCampaign: string; views: number; visitors: number }[];
  stories?: readonly { articleId: string; title: string; authorName: string | null; categoryName: string | null; views: number; visitors: number; medianEngagedSeconds: number | null; readToEndRate: number | null }[];
  categories?: readonly { name: string; slug: string; views: number; visitors: number }[];
  authors?: readonly { name: string; views: number; visitors: number }[];
  devices?: readonly { device: string; views: number; visitors: number }[];
}

/** One table as CSV; `label` turns a bucket's instant into the site's local time ("2026-11-29 14:00"). */
export function audienceTableCsv(tables: AudienceTables, table: AudienceTable, label: (at: string) => string): string {
  const rate = (r: number | null) => (r === null ? null : Math.round(r * 1000) / 10);
  switch (table) {
    case "series":
      return toCsv(["time", "views", "visitors"], tables.series.map((p) => [label(p.at), p.views, p.visitors]));
    case "sources":
      return toCsv(["source", "host", "views", "visitors"], tables.sources.map((s) => [s.source, s.host, s.views, s.visitors]));
    case "campaigns":
      return toCsv(["utm_source", "utm_medium", "utm_campaign", "views", "visitors"], tables.campaigns.map((c) => [c.utmSource, c.utmMedium, c.utmCampaign, c.views, c.visitors]));
    case "stories":
      return toCsv(
        ["story", "author", "category", "views", "visitors", "median_engaged_seconds", "read_to_end_percent"],
        (tables.stories ?? []).map((s) => [s.title, s.authorName, s.categoryName, s.views, s.visitors, s.medianEngagedSeconds, rate(s.readToEndRate)]),
      );
    case "categories":
      return toCsv(["category", "slug", "views", "visitors"], (tables.categories ?? []).map((c) => [c.name, c.slug, c.views, c.visitors]));
    case "authors":
      return toCsv(["author", "views", "visitors"], (tables.authors ?? []).map((a) => [a.name, a.views, a.visitors]));
    case "devices":
      return toCsv(["device", "views", "visitors"], (tables.devices ?? []).map((d) => [d.device, d.views, d.visitors]));
  }
}
