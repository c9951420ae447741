/**
 * Which reader an export file needs (issue 29), from its first bytes, and the one entry point the
 * import engine calls: `readExport(await detectExportKind(file), file)`.
 */
import fs from "node:fs/promises";
import { readGhostExport } from "./ghost-reader.server";
import { ImportFileError, type ImportRecord, type ImportSourceKind } from "./import-records";
import { readWordPressExport } from "./wordpress-reader.server";

/** How many bytes are looked at: enough for a BOM, blank lines and an XML declaration or a "{". */
const SNIFF_BYTES = 4096;

/**
 * "wordpress" for XML (a WXR file), "ghost" for JSON; ImportFileError (one line) for anything else.
 * Only the kind is decided here: each reader refuses, in its own words, a file of the right syntax that
 * is not its export (an HTML page, an RSS feed without the wp namespace, JSON that is not Ghost's).
 */
export async function detectExportKind(file: string): Promise<ImportSourceKind> {
  const handle = await fs.open(file, "r");
  let head: string;
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    head = buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
  const start = head.replace(/^\uFEFF/, "").trimStart();
  if (start === "") throw new ImportFileError("This file is empty: it is neither a WordPress export (WXR) nor a Ghost export (JSON).");
  if (start.startsWith("<")) return "wordpress";
  if (start.startsWith("{")) return "ghost";
  throw new ImportFileError("This file is neither a WordPress export (WXR, XML) nor a Ghost export (JSON).");
}

/** The records of an export file of the given kind (see wordpress-reader.server and ghost-reader.server). */
export function readExport(kind: ImportSourceKind, file: string): AsyncGenerator<ImportRecord> {
  return kind === "wordpress" ? readWordPressExport(file) : readGhostExport(file);
}
