import fs from "node:fs/promises";
import path from "node:path";
import type { ImportRow } from "./import-engine.server";

/** Where uploaded exports are kept while they are imported (one folder each, this account's only). */
export const importsDirOf = (dataDir: string) => path.join(path.resolve(dataDir), "imports");

/** Removes an uploaded export once its import is done (a command-line import's own file is never touched). */
export async function removeUploadedExport(dataDir: string, row: Pick<ImportRow, "filePath">): Promise<void> {
  const root = importsDirOf(dataDir);
  const dir = path.dirname(row.filePath);
  if (path.dirname(dir) !== root) return;
  await fs.rm(dir, { recursive: true, force: true });
}


