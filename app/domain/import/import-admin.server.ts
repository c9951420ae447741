import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { importMissingImages, imports } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { AppError } from "~/lib/app-error";
import type { Storage } from "~/lib/storage.server";
import { receiveMultipartFile } from "~/lib/uploads.server";
import { importsDirOf, keepUploadedExport, removeUploadedExport } from "./import-files.server";
import { enqueueImport } from "./import-job.server";
import { createImport, getImport, pinStickyByDefault, type ImportReport, type ImportRow, type ImportSummary } from "./import-engine.server";
import { missingImageCount } from "./import-media-retry.server";
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

/**
 * "Pin sticky posts as top stories" as the screen posts it: "yes", "no", or nothing (then the site's
 * default: pinStickyByDefault). Anything else is refused.
 */
export function pinStickyChoice(value: string): boolean | undefined {
  if (value === "yes") return true;
  if (value === "no") return false;
  if (value === "") return undefined;
  throw new AppError("invalid_input", "Say yes or no to pinning sticky posts.", { field: "pinSticky" });
}

/**
 * "Start import": the import of a dry run's file, once its dry run has ended well. `pinSticky`: whether
 * sticky posts become top stories (unsaid: only on a site with no story yet). Returns the import's id.
 */
export async function startImport(db: Db, dryRunId: string, actor: Actor, choices: { pinSticky?: boolean } = {}): Promise<string> {
  const dryRun = await getImport(db, dryRunId);
  if (!dryRun || !dryRun.dryRun) throw new AppError("not_found", IMPORT_NOT_FOUND);
  if (dryRun.status !== "done") throw new AppError("invalid_input", DRY_RUN_FIRST, { status: 409 });
  return db.transaction(async (tx) => {
    // One import per uploaded file: a second press (or a second tab) finds the first.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`import-start:${dryRun.filePath}`}))`);
    const [started] = await tx.select({ id: imports.id }).from(imports).where(sql`${imports.filePath} = ${dryRun.filePath} and not ${imports.dryRun} and not ${imports.retryMedia}`);
    if (started) throw new AppError("invalid_input", ALREADY_IMPORTED, { status: 409 });
    const id = await createImport(tx, {
      kind: dryRun.kind,
      fileName: dryRun.fileName,
      filePath: dryRun.filePath,
      mediaDir: null,
      dryRun: false,
      createdById: actor.id,
      pinSticky: choices.pinSticky,
    });
    await enqueueImport(tx, id);
    const [row] = await tx.select({ pinSticky: imports.pinSticky }).from(imports).where(eq(imports.id, id));
    await recordActivity(tx, actor, { kind: "import.start", objectType: "import", objectId: id, objectLabel: dryRun.fileName, details: { pinSticky: row!.pinSticky } });
    return id;
  });
}

export const NOTHING_TO_RETRY = "Every image of this site is in: there is nothing to retry.";
export const RETRY_UNDER_WAY = "A retry of this site's missing images is already under way.";
export const RETRY_NOT_YET = "Wait until this import has ended: its missing images are known then.";

/**
 * "Retry missing images" of the site an import (or an earlier retry) brought in (issue 39): queued as
 * an import of its own, which fetches the images the site's stories still lack and puts them in place.
 * Returns the retry's id.
 */
export async function startMediaRetry(db: Db, importId: string, actor: Actor): Promise<string> {
  const imported = await getImport(db, importId);
  const source = (imported?.summary as ImportSummary | undefined)?.source;
  if (!imported || imported.dryRun || !source) throw new AppError("not_found", IMPORT_NOT_FOUND);
  if (imported.status === "waiting" || imported.status === "running") throw new AppError("invalid_input", RETRY_NOT_YET, { status: 409 });
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`import-retry-media:${source}`}))`);
    const [missing] = await tx.select({ id: importMissingImages.id }).from(importMissingImages).where(eq(importMissingImages.source, source)).limit(1);
    if (!missing) throw new AppError("invalid_input", NOTHING_TO_RETRY, { status: 409 });
    const [underWay] = await tx
      .select({ id: imports.id })
      .from(imports)
      .where(sql`${imports.retryMedia} and ${imports.status} in ('waiting', 'running') and ${imports.summary}->>'source' = ${source}`);
    if (underWay) throw new AppError("invalid_input", RETRY_UNDER_WAY, { status: 409 });
    const id = await createImport(tx, {
      kind: imported.kind,
      fileName: imported.fileName,
      filePath: imported.filePath,
      mediaDir: imported.mediaDir,
      dryRun: false,
      createdById: actor.id,
      retryMedia: { source },
    });
    await enqueueImport(tx, id);
    await recordActivity(tx, actor, { kind: "import.retry_media", objectType: "import", objectId: id, objectLabel: imported.fileName, details: { source } });
    return id;
  });
}

/** An imported story that shows an image without alt text, for the Import screen's list (with its edit link). */
export interface StoryWithoutAlt {
  title: string;
  editPath: string;
  images: number;
}

/**
 * The imported site's stories and pages that still show an image without alt text (issue 39), as they
 * are now: one an editor has described since is no longer listed. The first `limit`, and how many in all.
 */
export async function storiesWithoutAlt(db: Db, source: string, limit = 50): Promise<{ stories: StoryWithoutAlt[]; total: number }> {
  // Images in the story document with an empty alt, and a featured image without one.
  const noAlt = (doc: string) => sql.raw(`jsonb_path_query_array(${doc}, 'strict $.**?(@.type == "storyImage" && @.attrs.alt == "")')`);
  const result = await db.execute<{ kind: "article" | "page"; id: string; title: string; images: number; total: number }>(sql`
    with found as (
      select 'article' as kind, a.id, a.title,
        jsonb_array_length(${noAlt("a.content_doc")}) + case when a.featured_image is not null and coalesce(a.featured_image_alt, '') = '' then 1 else 0 end as images
      from imported_rows r join articles a on a.id::text = r.target_id
      where r.source = ${source} and r.source_type = 'post'
      union all
      select 'page', p.id, p.title, jsonb_array_length(${noAlt("p.content_doc")})
      from imported_rows r join pages p on p.id::text = r.target_id
      where r.source = ${source} and r.source_type = 'page'
    )
    select kind, id, title, images, count(*) over ()::int as total from found where images > 0 order by title, id limit ${limit}`);
  return {
    stories: result.rows.map((r) => ({ title: r.title, editPath: r.kind === "article" ? `/admin/articles/edit/${r.id}` : `/admin/pages/edit/${r.id}`, images: Number(r.images) })),
    total: result.rows[0]?.total ?? 0,
  };
}

/** The newest imports and dry runs, for the screen's list. */
export async function listImports(db: Db, limit = 20): Promise<ImportRow[]> {
  return db.select().from(imports).orderBy(desc(imports.createdAt)).limit(limit);
}

/** The real import made from a dry run's file, if one was started. */
export async function importOfFile(db: Db, filePath: string): Promise<ImportRow | null> {
  const [row] = await db.select().from(imports).where(sql`${imports.filePath} = ${filePath} and not ${imports.dryRun} and not ${imports.retryMedia}`);
  return row ?? null;
}

/** What the Import screen shows beside an import's report (issue 39), as things are now. */
export interface ImportFollowUps {
  /** A dry run's sticky posts, as its notes name them. */
  stickyPosts: string[];
  /** The Start import dialog's "Pin sticky posts" to begin with. */
  pinStickyByDefault: boolean;
  /** Images the imported site's stories still lack ("Retry missing images" is offered when any). */
  missingImages: number;
  /** The imported stories that still show an image without alt text. */
  withoutAlt: { stories: StoryWithoutAlt[]; total: number };
}

export async function importFollowUps(db: Db, report: ImportReport): Promise<ImportFollowUps> {
  const source = report.summary.source;
  const ended = report.status === "done" || report.status === "failed";
  const imported = !report.dryRun && ended && source;
  return {
    stickyPosts: report.dryRun ? report.notes.filter((n) => n.kind === "sticky").map((n) => n.what) : [],
    pinStickyByDefault: report.dryRun && report.status === "done" ? await pinStickyByDefault(db) : false,
    missingImages: imported ? await missingImageCount(db, source) : 0,
    withoutAlt: imported && report.summary.imagesWithoutAlt ? await storiesWithoutAlt(db, source) : { stories: [], total: 0 },
  };
}
