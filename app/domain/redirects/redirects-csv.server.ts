import { parse } from "csv-parse/sync";
import type { RedirectRowInput } from "./redirects.server";
import type { RedirectStatusCode } from "./redirects.schema";

// The CSV files of /admin/redirects (issue 29): columns from,to,status with a header line.

/** The most lines one import reads (an importer's map of a large site fits; a mistaken upload does not run on). */
export const MAX_CSV_LINES = 50_000;

export const CSV_HEADER_MISSING = "The first line must name the columns: from,to,status (status may be left out).";

export interface ParsedCsv {
  rows: (RedirectRowInput & { line: number })[];
  problems: { line: number; reason: string }[];
}

/**
 * Reads an uploaded CSV (comma-separated, RFC 4180 quoting, a UTF-8 byte-order mark allowed): a header
 * naming `from` and `to` (and `status`, else every row is 301), in any order, then one redirect a line.
 * A line with a missing field or a status other than 301/302 is a problem with its line number; a file
 * that is no CSV at all is one problem at the line where it broke.
 */
export function parseRedirectsCsv(text: string): ParsedCsv {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, info: true, record_delimiter: ["\r\n", "\n", "\r"], relax_column_count: true, skip_empty_lines: true, trim: true, to_line: MAX_CSV_LINES + 1 }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { rows: [], problems: [{ line, reason: `This is not valid CSV: ${(error as Error).message.replace(/^Invalid [^:]*: /, "")}` }] };
  }
  const [header, ...lines] = records;
  const columns = header?.record.map((name) => name.toLowerCase()) ?? [];
  const from = columns.indexOf("from");
  const to = columns.indexOf("to");
  const status = columns.indexOf("status");
  if (from === -1 || to === -1) return { rows: [], problems: [{ line: header?.info.lines ?? 1, reason: CSV_HEADER_MISSING }] };
  const parsed: ParsedCsv = { rows: [], problems: [] };
  for (const { record, info } of lines) {
    const line = info.lines;
    const fromPath = record[from] ?? "";
    const toPath = record[to] ?? "";
    const statusText = status === -1 ? "" : (record[status] ?? "");
    if (fromPath === "") parsed.problems.push({ line, reason: "The old address (from) is empty." });
    else if (toPath === "") parsed.problems.push({ line, reason: "The new address (to) is empty." });
    else if (statusText !== "" && statusText !== "301" && statusText !== "302") parsed.problems.push({ line, reason: `The status must be 301 or 302, not “${statusText}”.` });
    else parsed.rows.push({ line, fromPath, toPath, statusCode: (statusText === "302" ? 302 : 301) as RedirectStatusCode });
  }
  return parsed;
}

/** One CSV field, quoted when it holds a comma, a quote, a line break or leading/trailing spaces (RFC 4180). */
function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The export: the header line, then one line per redirect, CRLF line ends (RFC 4180), read back by parseRedirectsCsv. */
export function redirectsToCsv(rows: readonly { fromPath: string; toPath: string; statusCode: number }[]): string {
  const lines = ["from,to,status", ...rows.map((row) => [row.fromPath, row.toPath, String(row.statusCode)].map(csvField).join(","))];
  return `${lines.join("\r\n")}\r\n`;
}
