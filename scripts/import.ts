import { existsSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import pino from "pino";
import { and, eq, inArray } from "drizzle-orm";
import { imports } from "../app/db/schema";
import { createImport, getImport, ImportBusyError, importReport, runImport, sourceOfExport, type ImportReport, type ImportSummary } from "../app/domain/import/import-engine.server";
import { ImportFileError } from "../app/domain/import/import-records";
import { isAppError } from "../app/lib/app-error";
import { loadEnv } from "../app/lib/env.server";
import { storageFromEnv } from "../app/lib/storage-from-env.server";
import { checkRedirects } from "../app/domain/import/check-redirects.server";
import { openCliDatabase, runCommand } from "./cli";
import { IMPORT_USAGE as USAGE, parseImportArgs } from "./import-args";

// `npm run import -- wordpress <export.xml> [--media-dir <folder>] [--dry-run]`,
// `npm run import -- ghost <export.json> [--dry-run]` and `npm run import -- check-redirects <report.json>`:
// the import of issue 29 from the command line, into the site's own database (joined while the server
// runs). The import is the same row and run as /admin/import's: cut off, it is resumed by the site's
// job runner or by the same command again, and nothing is imported twice. `--pin-sticky` /
// `--no-pin-sticky` and `--retry-media` are issue 39's choices (scripts/import-args.ts).

const out = (line: string) => console.log(line);
const err = (line: string) => console.error(line);

function summaryLines(summary: ImportSummary, retryMedia: boolean): string[] {
  const withoutAlt = summary.imagesWithoutAlt ? [`images without alt text: ${summary.imagesWithoutAlt} (each in the report: describe them in their stories)`] : [];
  if (retryMedia) return [`images fetched: ${summary.images}; still missing: ${summary.missingImages ?? 0}`, ...withoutAlt];
  const verb = summary.dryRun ? "would import" : "imported";
  const sticky = !summary.sticky
    ? []
    : summary.dryRun
      ? [`sticky posts: ${summary.sticky} (pinned as top stories with --pin-sticky)`]
      : [`sticky posts: ${summary.sticky}; pinned as top stories: ${summary.pinned ?? 0}`];
  const missing = summary.missingImages ? [`images still missing: ${summary.missingImages} (fetched again by the same command with --retry-media)`] : [];
  return [
    `${verb}: ${summary.posts} posts, ${summary.pages} pages, ${summary.comments} comments, ${summary.authors} new authors, ${summary.categories} new categories, ${summary.images} images`,
    `redirects: ${summary.redirects}; already imported before: ${summary.unchanged}; skipped: ${summary.skipped}`,
    ...sticky,
    ...missing,
    ...withoutAlt,
  ];
}

async function main(): Promise<number> {
  const parsed = parseImportArgs(process.argv.slice(2));
  if ("error" in parsed) {
    err(`Error: ${parsed.error}.\n\n${USAGE}`);
    return 2;
  }
  if (parsed.usage) {
    out(USAGE);
    return parsed.code;
  }
  const { command, file, retryMedia } = parsed.args;
  const filePath = path.resolve(file);
  if (!existsSync(filePath) || !statSync(filePath).isFile()) {
    err(`Error: there is no file ${filePath}.`);
    return 2;
  }

  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (isAppError(error, "invalid_config")) {
      err(error.message);
      return 2;
    }
    throw error;
  }

  if (command === "check-redirects") {
    const report = JSON.parse(await fs.readFile(filePath, "utf8")) as ImportReport;
    const base = parsed.args.url ?? env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
    const result = await checkRedirects(base, report.redirects ?? [], (line) => out(line));
    out(`${result.ok} of ${result.total} old addresses answer 301 to a page that answers 200.`);
    return result.ok === result.total ? 0 : 1;
  }

  const mediaDir = parsed.args.mediaDir ? path.resolve(parsed.args.mediaDir) : null;
  if (mediaDir && !existsSync(mediaDir)) {
    err(`Error: there is no folder ${mediaDir}.`);
    return 2;
  }
  const log = pino({ level: env.LOG_LEVEL === "info" ? "warn" : env.LOG_LEVEL }, pino.destination(2));
  const database = await openCliDatabase(env, log, { mayCreate: true, poolSize: 6 }, err);
  if (!database) return 1;
  const { db } = database;
  try {
    const kind = command as "wordpress" | "ghost";
    const { dryRun, skipMedia, pinSticky } = parsed.args;
    // "Retry missing images" of the site this export is of (its stories were imported before).
    let source: string | null = null;
    if (retryMedia) {
      try {
        source = await sourceOfExport(kind, filePath);
      } catch (error) {
        if (!(error instanceof ImportFileError)) throw error;
        err(error.message);
        return 1;
      }
    }
    // The same file's import (or retry), cut off before: taken up again rather than started twice.
    const [unfinished] = dryRun
      ? []
      : await db
          .select({ id: imports.id })
          .from(imports)
          .where(
            and(
              eq(imports.filePath, filePath),
              eq(imports.kind, kind),
              eq(imports.dryRun, false),
              eq(imports.retryMedia, retryMedia),
              inArray(imports.status, ["waiting", "running"]),
            ),
          )
          .limit(1);
    const id =
      unfinished?.id ??
      (await createImport(db, {
        kind,
        fileName: path.basename(filePath),
        filePath,
        mediaDir,
        skipMedia,
        dryRun,
        createdById: null,
        pinSticky,
        ...(source ? { retryMedia: { source } } : {}),
      }));
    if (unfinished) out(`Going on with the ${retryMedia ? "retry of the missing images" : "import"} of ${path.basename(filePath)} a stop cut off (${id}).`);

    const progress = setInterval(() => {
      void getImport(db, id).then((row) => row?.phase && err(`${row.phase}: ${row.done} of ${row.total}`));
    }, 2000);
    let row;
    try {
      row = await runImport({ db, storage: storageFromEnv(env), log, allowPrivateHosts: env.IMPORT_ALLOW_PRIVATE_HOSTS, publicUrl: env.publicUrl }, id, { id: null, name: "Import (command line)" });
    } catch (error) {
      if (error instanceof ImportBusyError) {
        err(error.message);
        return 1;
      }
      throw error;
    } finally {
      clearInterval(progress);
    }
    if (!row) {
      err("This import is running in another process (its heartbeat is fresh): not started twice.");
      return 1;
    }
    const report = await importReport(db, id);
    const reportFile = path.resolve(parsed.args.report ?? `import-report-${id}.json`);
    await fs.writeFile(reportFile, JSON.stringify(report, null, 2));
    if (row.status === "failed") {
      err(row.error ?? "The import failed.");
      return 1;
    }
    for (const line of summaryLines(row.summary as ImportSummary, row.retryMedia)) out(line);
    const notes = report?.notes ?? [];
    if (notes.length > 0) {
      out(`${notes.length} notes (not converted, not fetched, skipped, changed); the first ones:`);
      for (const note of notes.slice(0, 15)) out(`  - [${note.kind}] ${note.what}: ${note.message}`);
    }
    out(`Report: ${reportFile}`);
    return 0;
  } finally {
    await database.stop();
  }
}

runCommand(main);
