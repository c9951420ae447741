import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { desc, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { imports } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { AppError } from "~/lib/app-error";
import type { Storage } from "~/lib/storage.server";
import { receiveMultipartFile } from "~/lib/uploads.server";
import { importsDirOf, keepUploadedExport, removeUploadedExport } from "./import-files.server";
import { enqueueImport } from "./import-job.server";
import { getImport, type ImportRow } from "./import-engine.server";
import { detectExportKind } from "./read-export.server";

// /admin/import (issue 29): an export uploaded into DATA_DIR/imports (or the shared store), its dry run, then the import
// itself, each a job of the queue (import-job.server.ts); the screen shows their progress and notes.

/** The largest export taken from the browser (a WordPress export of ten years is some hundreds of MB). */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024 * 1024;

export const IMPORT_NOT_FOUND = "This import no longer exists.";
export const DRY_RUN_FIRST = "Run the dry run to its end first: the import starts from its report.";
export const ALREADY_IMPORTED = "This file's import has already been started.";

/**
 * Receives an uploaded export, recognises it (WordPress WXR or Ghost JSON: anything else is refused in
 * one line and removed) and queues its dry run. Returns the dry run's id.
 */
export async function uploadExport(db: Db, storage: Storage, dataDir: string, request: Request, actor: Actor): Promise<string> {
  const dir = path.join(importsDirOf(dataDir), randomUUID());
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, "export");
  try {
    const received = await receiveMultipartFile(request, file, {
      maxBytes: IMPORT_MAX_BYTES,
      declaredLimit: IMPORT_MAX_BYTES + 64 * 1024,
      tooLarge: () => new AppError("too_large", "The export is larger than 2 GB: import it with `npm run import` on the server instead."),
    });
    // An ImportFileError is the form's refusal beside the file field.
    const kind = await detectExportKind(file);
    const fileName = path.basename(received.originalName).slice(0, 200) || "export";
    // Where every machine's job runner finds it (a shared store: issue 32).
    const filePath = await keepUploadedExport(storage, file);
    if (filePath !== file) await fs.rm(dir, { recursive: true, force: true });
    try {
      return await db.transaction(async (tx) => {
        const [row] = await tx.insert(imports).values({ kind, fileName, filePath, mediaDir: null, dryRun: true, createdById: actor.id }).returning({ id: imports.id });
        await enqueueImport(tx, row!.id);
        return row!.id;
      });
    } catch (error) {
      await removeUploadedExport(storage, dataDir, { filePath }).catch(() => {});
      throw error;
    }
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** "Start import": the import of a dry run's file, once its dry run has ended well. Returns the import's id. */
export async function startImport(db: Db, dryRunId: string, actor: Actor): Promise<string> {
  const dryRun = await getImport(db, dryRunId);
  if (!dryRun || !dryRun.dryRun) throw new AppError("not_found", IMPORT_NOT_FOUND);
  if (dryRun.status !== "done") throw new AppError("invalid_input", DRY_RUN_FIRST, { status: 409 });
  return db.transaction(async (tx) => {
    // One import per uploaded file: a second press (or a second tab) finds the first.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`import-start:${dryRun.filePath}`}))`);
    const [started] = await tx.select({ id: imports.id }).from(imports).where(sql`${imports.filePath} = ${dryRun.filePath} and not ${imports.dryRun}`);
    if (started) throw new AppError("invalid_input", ALREADY_IMPORTED, { status: 409 });
    const [row] = await tx
      .insert(imports)
      .values({ kind: dryRun.kind, fileName: dryRun.fileName, filePath: dryRun.filePath, mediaDir: null, dryRun: false, createdById: actor.id })
      .returning({ id: imports.id });
    await enqueueImport(tx, row!.id);
    await recordActivity(tx, actor, { kind: "import.start", objectType: "import", objectId: row!.id, objectLabel: dryRun.fileName });
    return row!.id;
  });
}

/** The newest imports and dry runs, for the screen's list. */
export async function listImports(db: Db, limit = 20): Promise<ImportRow[]> {
  return db.select().from(imports).orderBy(desc(imports.createdAt)).limit(limit);
}

/** The real import made from a dry run's file, if one was started. */
export async function importOfFile(db: Db, filePath: string): Promise<ImportRow | null> {
  const [row] = await db.select().from(imports).where(sql`${imports.filePath} = ${filePath} and not ${imports.dryRun}`);
  return row ?? null;
}
