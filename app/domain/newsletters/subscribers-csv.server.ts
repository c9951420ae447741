import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { isEmailAddress } from "./newsletter-admin.schema";

// The CSV files of the subscribers and members (issues 30 and 40): an import names people and their
// newsletters, and reads Ghost's members export and Substack's subscriber export too (their plans:
// complimentary, paid with a Stripe customer); an export carries the consent record.

/** The most lines one import reads (a newsroom's list fits; a mistaken upload does not run on). */
export const MAX_SUBSCRIBER_CSV_LINES = 200_000;

export const SUBSCRIBER_CSV_HEADER_MISSING = "The first line must name the columns: an address column (email, e-mail or address), and optionally name and newsletters.";


export interface SubscriberCsvRow {
  line: number;
  email: string;
  name: string | null;
  /** The newsletters as written (slugs or names); empty: the default ones. */
  newsletters: string[];
  // ---- a member's fields (issue 40): absent from a plain subscribers file.
  /** Whether they receive e-mail (Ghost's subscribed_to_emails, Substack's email_disabled negated); undefined: yes (a plain file). */
  subscribed?: boolean;
  /** A complimentary plan: the tier as the file names it (null: the first paid tier), until when (null: no end). */
  comp?: { tier: string | null; until: Date | null } | null;
  /** A paying member's Stripe customer (their subscription arrives from Stripe, never from the file). */
  stripeCustomerId?: string | null;
  /** When they signed up, as the old platform says. */
  createdAt?: Date | null;
  /** Why this line is not to be imported though it parsed (deleted in Ghost, a Substack deletion request). */
  skip?: string | null;
  /** What the file said that the import does not keep, for the dry run's report. */
  notes?: string[];
}

export interface ParsedSubscriberCsv {
  rows: SubscriberCsvRow[];
  problems: { line: number; reason: string }[];
}

const ADDRESS_COLUMNS = ["email", "e-mail", "address", "email address", "e-mail address"];

const TRUE_WORDS = ["true", "yes", "1", "y", "on"];
const FALSE_WORDS = ["false", "no", "0", "n", "off"];
/** A yes/no cell: true, false, or undefined when empty or neither. */
function yesNo(cell: string | undefined): boolean | undefined {
  const value = (cell ?? "").trim().toLowerCase();
  if (TRUE_WORDS.includes(value)) return true;
  if (FALSE_WORDS.includes(value)) return false;
  return undefined;
}

const STRIPE_CUSTOMER = /^cus_[A-Za-z0-9]{1,200}$/;
/** Substack's placeholder for a reader who asked to be deleted. */
const SUBSTACK_DELETION = /@deletion-request\.substack\.com$/i;

/**
 * Reads an uploaded CSV (comma-separated, RFC 4180 quoting, a UTF-8 byte-order mark allowed): a header
 * naming the address column and optionally `name` and `newsletters` (slugs or names separated by ; or |),
 * then one person a line. A malformed address, or an address given twice in the file, is a problem
 * with its line number; a file that is no CSV at all is one problem where it broke.
 *
 * Member exports are read by their own columns (issue 40):
 * - Ghost's members export: `subscribed_to_emails`, `complimentary_plan` (true, or a tier's name),
 *   `tiers` (the tier names, the comp's tier), `stripe_customer_id`, `created_at`, `deleted_at` (a
 *   deleted member is skipped), `note` and `labels` (not kept).
 * - Substack's subscriber exports: `email_disabled`, `created_at`, `expiry`, `plan` or `type`
 *   (comp and gift: a complimentary plan until `expiry`; paid: the Stripe customer of
 *   `stripe_customer_id` or `stripe_connected_customer_id`), `active_subscription`, `first_payment_at`.
 * - Frontpage's own members export: `comp_tier`, `comp_until`, `signed_up_at`.
 */
export function parseSubscribersCsv(text: string, now = new Date()): ParsedSubscriberCsv {
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
  if (address === -1) return { rows: [], problems: [{ line: header?.info.lines ?? 1, reason: SUBSCRIBER_CSV_HEADER_MISSING }] };
  const column = (...names: string[]) => columns.findIndex((name) => names.includes(name));
  const col = {
    name: column("name"),
    newsletters: column("newsletters"),
    subscribed: column("subscribed_to_emails", "subscribed"),
    emailDisabled: column("email_disabled"),
    complimentary: column("complimentary_plan"),
    tiers: column("tiers", "import_tier"),
    compTier: column("comp_tier"),
    compUntil: column("comp_until"),
    stripe: column("stripe_customer_id", "stripe_connected_customer_id"),
    createdAt: column("created_at", "signed_up_at"),
    deletedAt: column("deleted_at"),
    plan: column("plan", "type"),
    expiry: column("expiry"),
    note: column("note"),
    labels: column("labels"),
  };
  const cell = (record: string[], index: number) => (index === -1 ? "" : (record[index] ?? "").trim());
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
    const name = cell(record, col.name);
    const list = col.newsletters === -1 ? "" : (record[col.newsletters] ?? "");
    const row: SubscriberCsvRow = {
      line,
      email,
      name: name === "" ? null : name.slice(0, 200),
      newsletters: list
        .split(/[;|]/)
        .map((item) => item.trim())
        .filter(Boolean),
    };
    const problem = readMemberColumns(row, record, col, cell, now);
    if (problem) {
      parsed.problems.push({ line, reason: problem });
      continue;
    }
    parsed.rows.push(row);
  }
  return parsed;
}

type MemberColumns = Record<"subscribed" | "emailDisabled" | "complimentary" | "tiers" | "compTier" | "compUntil" | "stripe" | "createdAt" | "deletedAt" | "plan" | "expiry" | "note" | "labels", number>;

/** Fills a row's member fields from Ghost's, Substack's or our own columns; answers a problem for a line that cannot be imported. */
function readMemberColumns(row: SubscriberCsvRow, record: string[], col: MemberColumns, cell: (record: string[], index: number) => string, now: Date): string | null {
  const date = (index: number, label: string): Date | null | string => {
    const value = cell(record, index);
    if (value === "") return null;
    const time = Date.parse(value);
    return Number.isNaN(time) ? `The ${label} “${value.slice(0, 40)}” is not a date.` : new Date(time);
  };
  const notes: string[] = [];
  // E-mail: Ghost says whether they are subscribed; Substack whether e-mail is disabled.
  const subscribed = yesNo(cell(record, col.subscribed));
  const disabled = yesNo(cell(record, col.emailDisabled));
  if (subscribed !== undefined) row.subscribed = subscribed;
  else if (disabled !== undefined) row.subscribed = !disabled;

  const createdAt = date(col.createdAt, "sign-up date");
  if (typeof createdAt === "string") return createdAt;
  if (createdAt) row.createdAt = createdAt > now ? now : createdAt;

  const deletedAt = date(col.deletedAt, "deletion date");
  if (typeof deletedAt === "string") return deletedAt;
  if (deletedAt) row.skip = "deleted on the old platform";
  if (SUBSTACK_DELETION.test(row.email)) row.skip = "a deletion request on Substack";

  // The plan: a comp (Ghost's complimentary_plan, Substack's comp or gift, our comp_tier), or paid with a Stripe customer.
  const tierNames = cell(record, col.tiers)
    .split(/[,;|]/)
    .map((t) => t.trim())
    .filter(Boolean);
  const complimentary = cell(record, col.complimentary);
  const plan = cell(record, col.plan).toLowerCase();
  const expiry = date(col.expiry, "expiry date");
  if (typeof expiry === "string") return expiry;
  const compUntil = date(col.compUntil, "complimentary plan's end");
  if (typeof compUntil === "string") return compUntil;
  let comp: { tier: string | null; until: Date | null } | null = null;
  if (cell(record, col.compTier) !== "") comp = { tier: cell(record, col.compTier), until: compUntil };
  else if (complimentary !== "" && yesNo(complimentary) !== false) comp = { tier: yesNo(complimentary) === true ? (tierNames[0] ?? null) : complimentary, until: null };
  else if (/^(comp|complimentary|gift)\b/.test(plan)) comp = { tier: null, until: expiry };
  if (comp?.until && comp.until <= now) {
    notes.push(`its complimentary plan ended on ${comp.until.toISOString().slice(0, 10)}: imported as free`);
    comp = null;
  }
  row.comp = comp;

  const stripe = cell(record, col.stripe);
  if (stripe !== "") {
    if (!STRIPE_CUSTOMER.test(stripe)) return `“${stripe.slice(0, 60)}” is not a Stripe customer id (cus_…).`;
    if (comp) notes.push("its Stripe customer is not kept: the plan is complimentary");
    else if (plan === "free") notes.push("its Stripe customer is not kept: the plan is free");
    else row.stripeCustomerId = stripe;
  }
  if (cell(record, col.note) !== "" || cell(record, col.labels) !== "") notes.push("its note and labels are not kept");
  if (notes.length > 0) row.notes = notes;
  return null;
}

/** One CSV field, quoted when it holds a comma, a quote, a line break or leading/trailing spaces (RFC 4180). */
export function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A name as typed by a reader: one starting with =, +, - or @ would be a formula to a spreadsheet, so it leaves as text. */
export const spreadsheetSafe = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

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

/** The fingerprint of an uploaded file: a dry run answers it, and the import of the same file must carry it back. */
export function csvDigest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
