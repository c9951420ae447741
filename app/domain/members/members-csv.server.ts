import { csvField, spreadsheetSafe } from "~/domain/newsletters/subscribers-csv.server";
import type { MemberExportRow } from "./members-admin.server";

/** The members export's columns: the import reads them back (comp_tier, comp_until, newsletters, signed_up_at). */
export const MEMBER_CSV_COLUMNS = ["email", "name", "status", "tiers", "comp_tier", "comp_until", "newsletters", "email_state", "signed_up_at"] as const;

/** The export: a header line, then one line per member (dates in ISO 8601, UTC), CRLF line ends (RFC 4180, as the subscribers' export). */
export function membersToCsv(rows: readonly MemberExportRow[]): string {
  const lines = [
    MEMBER_CSV_COLUMNS.join(","),
    ...rows.map((row) =>
      [
        row.email,
        spreadsheetSafe(row.name ?? ""),
        row.memberStatus,
        row.tiers.join(";"),
        row.compTier ?? "",
        row.compUntil?.toISOString() ?? "",
        row.newsletters.join(";"),
        row.emailState,
        row.createdAt.toISOString(),
      ]
        .map(csvField)
        .join(","),
    ),
  ];
  return `${lines.join("\r\n")}\r\n`;
}
