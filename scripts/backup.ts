import { existsSync, readdirSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { isAppError } from "../app/lib/app-error";
import { loadEnv } from "../app/lib/env.server";
import { createLogger } from "../app/lib/logger.server";
import { storageFromEnv } from "../app/lib/storage-from-env.server";
import { createBackup, restoreBackup } from "../server/backup";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../server/embedded-db";
import { removeRelocatedCluster } from "../server/postgres-placement";
import { loadSecrets } from "../server/secrets";

// `npm run backup -- <file>` and `npm run restore -- <file>` (decision 0021), on the server's own
// configuration (DATA_DIR or DATABASE_URL, local media or S3). A backup runs while the site runs (a
// running embedded PostgreSQL is joined); a restore goes into an empty DATA_DIR or database.

const USAGE = "Usage: npm run backup -- <file.tar.gz>\n       npm run restore -- <file.tar.gz>";

async function main(): Promise<number> {
  const [command, file, ...rest] = process.argv.slice(2);
  if ((command !== "backup" && command !== "restore") || !file || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const env = loadEnv();
  const log = createLogger(env.LOG_LEVEL === "info" ? "warn" : env.LOG_LEVEL, process.stderr);
  const quiet = createLogger(["debug", "trace"].includes(env.LOG_LEVEL) ? env.LOG_LEVEL : "silent", process.stderr);
  const target = path.resolve(file);
  const storage = storageFromEnv(env);

  if (command === "backup") {
    if (!env.DATABASE_URL && !existsSync(env.dataDir)) throw new Error(`there is no site in ${env.dataDir} (set DATA_DIR or DATABASE_URL)`);
    const embedded = env.DATABASE_URL ? null : await startEmbeddedPostgres(env.dataDir, quiet);
    try {
      const sessionSecret = env.SESSION_SECRET ?? (await loadSecrets(env.dataDir)).sessionSecret;
      const manifest = await createBackup({ file: target, databaseUrl: env.DATABASE_URL || embedded!.url, storage, sessionSecret, log });
      const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
      console.log(`Backup written to ${target}: ${rows} rows in ${manifest.tables.length} tables, ${manifest.media.length} media files.`);
      return 0;
    } finally {
      await embedded?.stop();
    }
  }

  // Restore: into an empty DATA_DIR (its PostgreSQL is created now), or an empty DATABASE_URL.
  const createdDataDir = !env.DATABASE_URL;
  if (createdDataDir && existsSync(env.dataDir) && readdirSync(env.dataDir).length > 0) {
    console.error(`Error: ${env.dataDir} is not empty. Restore into a new DATA_DIR (or set DATABASE_URL to an empty database).`);
    return 1;
  }
  let embedded: EmbeddedDatabase | null = null;
  try {
    embedded = createdDataDir ? await startEmbeddedPostgres(env.dataDir, quiet) : null;
    const manifest = await restoreBackup({ file: target, databaseUrl: env.DATABASE_URL || embedded!.url, storage, log });
    if (createdDataDir) {
      // The backup's session secret: sessions and second factors made before the backup stay valid.
      const secretsFile = path.join(env.dataDir, "secrets.json");
      const secrets = await loadSecrets(env.dataDir);
      await fs.writeFile(secretsFile, JSON.stringify({ ...secrets, sessionSecret: manifest.sessionSecret }, null, 2), { mode: 0o600 });
    } else if (!env.SESSION_SECRET || env.SESSION_SECRET !== manifest.sessionSecret) {
      console.log("Set SESSION_SECRET to the backed-up site's (kept in the archive's manifest.json) so its sessions and second factors keep working.");
    }
    console.log(`Restored ${target}: ${manifest.tables.length} tables, ${manifest.media.length} media files.`);
    return 0;
  } catch (error) {
    if (createdDataDir) {
      // Nothing half-written: the new DATA_DIR goes again.
      await embedded?.stop().catch(() => {});
      embedded = null;
      await removeRelocatedCluster(env.dataDir).catch(() => {});
      await fs.rm(env.dataDir, { recursive: true, force: true });
    }
    throw error;
  } finally {
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Error: ${isAppError(error) || error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
