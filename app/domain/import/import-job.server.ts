import { eq } from "drizzle-orm";
import type { Task, TaskList } from "graphile-worker";
import type { Db } from "~/db/client.server";
import { isDatabaseUnavailable } from "~/db/pg-errors";
import { user } from "~/db/schema";
import { actorName, SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { enqueueJob } from "~/lib/job-queue.server";
import { localExportFile, removeUploadedExport } from "./import-files.server";
import { getImport, ImportBusyError, importsToResume, runImport, type ImportServices } from "./import-engine.server";

// An import as a job of the one queue (decision 0032): added by /admin/import's "Start import" (and
// its dry run, and "Retry missing images"), run by the site's job runner, and added again at start for an import a restart cut
// off: it goes on where it stopped (imported_rows). Never two at once: the imports table lets one row
// be "running" (imports_one_running), and a job that finds another import running waits and looks
// again. (Not a graphile-worker named queue: a job locked by a killed runner would hold such a queue
// for its four-hour lock timeout, and the resumed import with it.)

export const IMPORT_TASK = "import-run";
/** While another import runs, a job waits this long and looks again. */
const BUSY_RETRY_MS = 30_000;

export async function enqueueImport(db: Parameters<typeof enqueueJob>[0], importId: string, runAt?: Date): Promise<void> {
  await enqueueJob(db, IMPORT_TASK, { importId }, { key: `import:${importId}`, maxAttempts: 5, runAt });
}

/** Who an import acts as in History and the activity log: the person who started it. */
async function importActor(db: Db, userId: string | null): Promise<Actor> {
  if (!userId) return { id: null, name: "Import" };
  const [row] = await db.select({ id: user.id, email: user.email, name: user.name }).from(user).where(eq(user.id, userId));
  return row ? { id: row.id, name: actorName(row) } : { ...SYSTEM_ACTOR, name: "Import" };
}

/**
 * The import task, and `stop()` for shutdown: an import under way stops between two stories and is
 * left "waiting", so the next start resumes it at once (the job queue waits for jobs under way, and
 * an import can take minutes).
 */
export function importTasks(services: Omit<ImportServices, "signal"> & { dataDir: string }): { tasks: TaskList; stop(): void } {
  const controller = new AbortController();
  // Imports whose run here was cut off by the database going away: the next try here takes them over.
  const interrupted = new Set<string>();
  const task: Task = async (payload) => {
    const importId = (payload as { importId?: unknown }).importId;
    if (typeof importId !== "string") return;
    const row = await getImport(services.db, importId);
    if (!row) return;
    // An export kept in the shared store is copied to this machine for the run, and the copy removed after it.
    let release = async () => {};
    const exportFile = async (filePath: string) => {
      const local = await localExportFile(services.storage, services.dataDir, filePath);
      release = local.release;
      return local.file;
    };
    try {
      const takeOver = interrupted.delete(importId);
      let finished: Awaited<ReturnType<typeof runImport>>;
      try {
        finished = await runImport({ ...services, signal: controller.signal, exportFile, takeOver }, importId, await importActor(services.db, row.createdById));
      } catch (error) {
        if (isDatabaseUnavailable(error)) interrupted.add(importId);
        throw error;
      }
      // An uploaded export is removed once imported (its dry run's report stays readable).
      if (finished?.status === "done" && !finished.dryRun && !finished.retryMedia) await removeUploadedExport(services.storage, services.dataDir, finished);
    } catch (error) {
      if (!(error instanceof ImportBusyError)) throw error;
      await enqueueImport(services.db, importId, new Date(Date.now() + BUSY_RETRY_MS));
    } finally {
      await release().catch(() => {});
    }
  };
  return { tasks: { [IMPORT_TASK]: task }, stop: () => controller.abort() };
}

/** At start: the imports a stop cut off (or that never began) are queued again. */
export async function resumeImports(db: Db): Promise<number> {
  const waiting = await importsToResume(db);
  for (const { id, runAt } of waiting) await enqueueImport(db, id, runAt);
  return waiting.length;
}
