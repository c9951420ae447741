import { existsSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import pino from "pino";
import { and, eq, inArray } from "drizzle-orm";
import { imports } from "../app/db/schema";
import { createImport, getImport, ImportBusyError, importReport, runImport, type ImportReport, type ImportSummary } from "../app/domain/import/import-engine.server";
import { isAppError } from "../app/lib/app-error";
import { loadEnv } from "../app/lib/env.server";
import { storageFromEnv } from "../app/lib/storage-from-env.server";
import { checkRedirects } from "../app/domain/import/check-redirects.server";
import { openCliDatabase, runCommand } from "./cli";

// `npm run import -- wordpress <export.xml> [--media-dir <folder>] [--dry-run]`,
// `npm run import -- ghost <export.json> [--dry-run]` and `npm run import -- check-redirects <report.json>`:
// the import of issue 29 from the command line, into the site's own database (joined while the server
// runs). The import is the same row and run as /admin/import's: cut off, it is resumed by the site's
// job runner or by the same command again, and nothing is imported twice.

const USAGE = `Usage:
  npm run import -- wordpress <export.xml> [--media-dir <folder with wp-content/uploads> | --skip-media] [--dry-run] [--report <file>]
  npm run import -- ghost <export.json> [--skip-media] [--dry-run] [--report <file>]
  npm run import -- check-redirects <report.json> [--url <site address>]`;

const out = (line: string) => console.log(line);
const err = (line: string) => console.error(line);

function summaryLines(summary: ImportSummary): string[] {
  const verb = summary.dryRun ? "would import" : "imported";
  return [
    `${verb}: ${summary.posts} posts, ${summary.pages} pages, ${summary.comments} comments, ${summary.authors} new authors, ${summary.categories} new categories, ${summary.images} images`,
    `redirects: ${summary.redirects}; already imported before: ${summary.unchanged}; skipped: ${summary.skipped}`,
  ];
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { "media-dir": { type: "string" }, "skip-media": { type: "boolean" }, "dry-run": { type: "boolean" }, report: { type: "string" }, url: { type: "string" }, help: { type: "boolean" } },
    });
  } catch (error) {
    err(`Error: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, file] = parsed.positionals;
  if (parsed.values.help || !command) {
    out(USAGE);
    return parsed.values.help ? 0 : 2;
  }
  if (!["wordpress", "ghost", "check-redirects"].includes(command) || !file || parsed.positionals.length > 2) {
    err(`Error: ${!file ? "name the file" : `unknown command “${command}”`}.\n\n${USAGE}`);
    return 2;
  }
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
    const base = parsed.values.url ?? env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
    const result = await checkRedirects(base, report.redirects ?? [], (line) => out(line));
    out(`${result.ok} of ${result.total} old addresses answer 301 to a page that answers 200.`);
    return result.ok === result.total ? 0 : 1;
  }

  const mediaDir = parsed.values["media-dir"] ? path.resolve(parsed.values["media-dir"]) : null;
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
    const dryRun = Boolean(parsed.values["dry-run"]);
    // The same file's import, cut off before: taken up again rather than started twice.
    const [unfinished] = dryRun
      ? []
      : await db
          .select({ id: imports.id })
          .from(imports)
          .where(and(eq(imports.filePath, filePath), eq(imports.kind, kind), eq(imports.dryRun, false), inArray(imports.status, ["waiting", "running"])))
          .limit(1);
    const id = unfinished?.id ?? (await createImport(db, { kind, fileName: path.basename(filePath), filePath, mediaDir, skipMedia: Boolean(parsed.values["skip-media"]), dryRun, createdById: null }));
    if (unfinished) out(`Going on with the import of ${path.basename(filePath)} a stop cut off (${id}).`);

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
    const reportFile = path.resolve(parsed.values.report ?? `import-report-${id}.json`);
    await fs.writeFile(reportFile, JSON.stringify(report, null, 2));
    if (row.status === "failed") {
      err(row.error ?? "The import failed.");
      return 1;
    }
    for (const line of summaryLines(row.summary as ImportSummary)) out(line);
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
