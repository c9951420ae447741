import { parse } from "csv-parse/sync";
import { isEmailAddress } from "./newsletter-admin.schema";

// The CSV files of /admin/subscribers (issue 30): an import names people and their newsletters; an
// export carries the consent record.

/** The most lines one import reads (a newsroom's list fits; a mistaken upload does not run on). */
export const MAX_SUBSCRIBER_CSV_LINES = 200_000;

export const SUBSCRIBER_CSV_HEADER_MISSING = "The first line must name the columns: an address column (email, e-mail or address), and optionally name and newsletters.";


export interface SubscriberCsvRow {
  line: number;
  email: string;
  name: string | null;
  /** The newsletters as written (slugs or names); empty: the default ones. */
  newsletters: string[];
}

export interface ParsedSubscriberCsv {
  rows: SubscriberCsvRow[];
  problems: { line: number; reason: string }[];
}

const ADDRESS_COLUMNS = ["email", "e-mail", "address", "email address", "e-mail address"];

/**
 * Reads an uploaded CSV (comma-separated, RFC 4180 quoting, a UTF-8 byte-order mark allowed): a header
 * naming the address column and optionally `name` and `newsletters` (slugs or names separated by ; or |),
 * then one person a line. A malformed address, or an address given twice in the file, is a problem
 * with its line number; a file that is no CSV at all is one problem where it broke.
 */
export function parseSubscribersCsv(text: string): ParsedSubscriberCsv {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      record_delimiter: ["\r\n", "\n", "\r"],
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      to_line: MAX_SUBSCRIBER_CSV_LINES + 1,
    }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { rows: [], problems: [{ line, reason: `This is not valid CSV: ${(error as Error).message.replace(/^Invalid [^:]*: /, "")}` }] };
  }
  const [header, ...lines] = records;
  const columns = header?.record.map((name) => name.toLowerCase().trim()) ?? [];
  const address = columns.findIndex((name) => ADDRESS_COLUMNS.includes(name));
  const nameColumn = columns.indexOf("name");
  const newslettersColumn = columns.indexOf("newsletters");
  if (address === -1) return { rows: [], problems: [{ line: header?.info.lines ?? 1, reason: SUBSCRIBER_CSV_HEADER_MISSING }] };
  const parsed: ParsedSubscriberCsv = { rows: [], problems: [] };
  const firstLineOf = new Map<string, number>();
  for (const { record, info } of lines) {
    const line = info.lines;
    const email = (record[address] ?? "").trim();
    if (email === "") {
      parsed.problems.push({ line, reason: "The address is empty." });
      continue;
    }
    if (!isEmailAddress(email)) {
      parsed.problems.push({ line, reason: `“${email.slice(0, 200)}” is not a valid e-mail address.` });
      continue;
    }
    const key = email.toLowerCase();
    const first = firstLineOf.get(key);
    if (first !== undefined) {
      parsed.problems.push({ line, reason: `${email} is already on line ${first}.` });
      continue;
    }
    firstLineOf.set(key, line);
    const name = nameColumn === -1 ? "" : (record[nameColumn] ?? "").trim();
    const list = newslettersColumn === -1 ? "" : (record[newslettersColumn] ?? "");
    parsed.rows.push({
      line,
      email,
      name: name === "" ? null : name.slice(0, 200),
      newsletters: list
        .split(/[;|]/)
        .map((item) => item.trim())
        .filter(Boolean),
    });
  }
  return parsed;
}

/** One CSV field, quoted when it holds a comma, a quote, a line break or leading/trailing spaces (RFC 4180). */
function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A name as typed by a reader: one starting with =, +, - or @ would be a formula to a spreadsheet, so it leaves as text. */
const spreadsheetSafe = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

export const SUBSCRIBER_CSV_COLUMNS = ["email", "name", "status", "newsletters", "consent_source", "consent_at", "confirmed_at", "created_at"] as const;

export interface SubscriberExportRow {
  email: string;
  name: string | null;
  status: string;
  /** The newsletters' slugs. */
  newsletters: string[];
  consentSource: string | null;
  consentAt: Date | null;
  confirmedAt: Date | null;
  createdAt: Date;
}

/** The export: a header line, then one line per person (dates in ISO 8601, UTC), CRLF line ends; read back by parseSubscribersCsv. */
export function subscribersToCsv(rows: readonly SubscriberExportRow[]): string {
  const iso = (date: Date | null) => (date ? date.toISOString() : "");
  const lines = [
    SUBSCRIBER_CSV_COLUMNS.join(","),
    ...rows.map((row) =>
      [row.email, spreadsheetSafe(row.name ?? ""), row.status, row.newsletters.join(";"), row.consentSource ?? "", iso(row.consentAt), iso(row.confirmedAt), iso(row.createdAt)]
        .map(csvField)
        .join(","),
    ),
  ];
  return `${lines.join("\r\n")}\r\n`;
}
