import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { Storage } from "~/lib/storage.server";
import type { ImportRow } from "./import-engine.server";

/** Where uploaded exports are kept while they are imported (one folder each, this account's only). */
export const importsDirOf = (dataDir: string) => path.join(path.resolve(dataDir), "imports");

/**
 * An uploaded export kept in the store (S3) rather than on the disk of the machine that received it:
 * its row's filePath is this prefix and the object's name. Any machine's job runner may run its import
 * (issue 32), so the file must be where all of them read.
 */
const STORED_EXPORT = "storage:imports/";

const storedName = (filePath: string) => (filePath.startsWith(STORED_EXPORT) ? filePath.slice(STORED_EXPORT.length) : null);

/**
 * Keeps a received export (`file`, in DATA_DIR/imports/<id>/) where the import will read it: with a
 * store on this disk (one machine), where it is; with a shared store (S3), moved into its private
 * "imports" place. Answers the filePath to record.
 */
export async function keepUploadedExport(storage: Storage, file: string): Promise<string> {
  if (storage.localPath("imports", "probe") !== null) return file;
  const name = randomUUID();
  await storage.put("imports", name, file, "application/octet-stream");
  return STORED_EXPORT + name;
}

/**
 * The export of `filePath` as a file on this machine: itself, or a copy of the stored object in
 * DATA_DIR/imports/<name>/ (fetched once, kept while the import reads it). `release` removes the copy.
 */
export async function localExportFile(storage: Storage, dataDir: string, filePath: string): Promise<{ file: string; release: () => Promise<void> }> {
  const name = storedName(filePath);
  if (name === null) return { file: filePath, release: async () => {} };
  const dir = path.join(importsDirOf(dataDir), name);
  const file = path.join(dir, "export");
  const release = () => fs.rm(dir, { recursive: true, force: true });
  try {
    await fs.access(file);
    return { file, release };
  } catch {
    // Not here yet: fetched below.
  }
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const object = await storage.fetchObject("imports", name);
  if (!object?.body) throw new Error(`the uploaded export ${name} is no longer in the store`);
  const partial = `${file}.part`;
  await pipeline(Readable.fromWeb(object.body as WebReadableStream), createWriteStream(partial, { mode: 0o600 }));
  await fs.rename(partial, file);
  return { file, release };
}

/** Removes an uploaded export once its import is done (a command-line import's own file is never touched). */
export async function removeUploadedExport(storage: Storage, dataDir: string, row: Pick<ImportRow, "filePath">): Promise<void> {
  const name = storedName(row.filePath);
  if (name !== null) {
    await storage.delete("imports", name);
    await fs.rm(path.join(importsDirOf(dataDir), name), { recursive: true, force: true });
    return;
  }
  const root = importsDirOf(dataDir);
  const dir = path.dirname(row.filePath);
  if (path.dirname(dir) !== root) return;
  await fs.rm(dir, { recursive: true, force: true });
}
