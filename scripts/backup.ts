import { existsSync, readdirSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { loadEnv } from "../app/lib/env.server";
import { createLogger } from "../app/lib/logger.server";
import { storageFromEnv } from "../app/lib/storage-from-env.server";
import { createBackup, restoreBackup } from "../server/backup";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../server/embedded-db";
import { removeRelocatedCluster } from "../server/postgres-placement";
import { loadBackupKey, loadSecrets, readSecrets, writeSecrets } from "../server/secrets";
import { runCommand } from "./cli";

// `npm run backup -- <file>` and `npm run restore -- <file>` (decisions 0021 and 0036), on the
// server's own configuration (DATA_DIR or DATABASE_URL, local media or S3). A backup runs while the
// site runs (a running embedded PostgreSQL is joined) and is signed with the backup key (BACKUP_KEY,
// or DATA_DIR/secrets.json's); a restore checks that signature, then goes into an empty DATA_DIR or
// database.

const USAGE = [
  "Usage: npm run backup -- <file.tar.gz>",
  "       npm run restore -- [--backup-key-file <file>] [--trust-unsigned] <file.tar.gz>",
].join("\n");

interface Args {
  command: "backup" | "restore";
  file: string;
  backupKeyFile: string | null;
  trustUnsigned: boolean;
}

function parseArgs(argv: string[]): Args | null {
  const [command, ...rest] = argv;
  if (command !== "backup" && command !== "restore") return null;
  const files: string[] = [];
  let backupKeyFile: string | null = null;
  let trustUnsigned = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (command === "restore" && arg === "--trust-unsigned") trustUnsigned = true;
    else if (command === "restore" && arg === "--backup-key-file" && rest[i + 1]) backupKeyFile = rest[++i]!;
    else if (arg.startsWith("--")) return null;
    else files.push(arg);
  }
  return files.length === 1 ? { command, file: files[0]!, backupKeyFile, trustUnsigned } : null;
}

/**
 * The key in a --backup-key-file: the file holds the key alone, or is the backed-up site's
 * secrets.json (its backupKey), so a restore on the same machine can point at the old DATA_DIR's.
 */
async function readBackupKeyFile(file: string): Promise<string> {
  const text = (await fs.readFile(file, "utf8")).trim();
  let key: unknown = text;
  if (text.startsWith("{")) {
    try {
      key = (JSON.parse(text) as { backupKey?: unknown }).backupKey;
    } catch {
      key = null;
    }
  }
  if (typeof key !== "string" || key.length < 32) {
    throw new Error(`${file} holds no backup key (the key alone, of 32 characters or more, or a secrets.json with a backupKey).`);
  }
  return key;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  const env = loadEnv();
  const log = createLogger(env.LOG_LEVEL === "info" ? "warn" : env.LOG_LEVEL, process.stderr);
  const quiet = createLogger(["debug", "trace"].includes(env.LOG_LEVEL) ? env.LOG_LEVEL : "silent", process.stderr);
  const target = path.resolve(args.file);
  const storage = storageFromEnv(env);
  const secretsFile = path.join(env.dataDir, "secrets.json");

  if (args.command === "backup") {
    if (!env.DATABASE_URL && !existsSync(env.dataDir)) throw new Error(`there is no site in ${env.dataDir} (set DATA_DIR or DATABASE_URL)`);
    const embedded = env.DATABASE_URL ? null : await startEmbeddedPostgres(env.dataDir, quiet);
    try {
      const sessionSecret = env.SESSION_SECRET ?? (await loadSecrets(env.dataDir)).sessionSecret;
      const backupKey = env.BACKUP_KEY ?? (await loadBackupKey(env.dataDir));
      const manifest = await createBackup({ file: target, databaseUrl: env.DATABASE_URL || embedded!.url, storage, sessionSecret, backupKey, log });
      const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
      console.log(`Backup written to ${target}: ${rows} rows in ${manifest.tables.length} tables, ${manifest.media.length} media files.`);
      console.log(
        env.BACKUP_KEY
          ? "Signed with BACKUP_KEY: a restore needs the same key."
          : `Signed with the backupKey in ${secretsFile}: keep a copy of it apart from the archives; a restore elsewhere needs it (BACKUP_KEY or --backup-key-file).`,
      );
      return 0;
    } finally {
      await embedded?.stop();
    }
  }

  // Restore: into an empty DATA_DIR (its PostgreSQL is created once the archive has passed its
  // checks), or an empty DATABASE_URL.
  const intoDataDir = !env.DATABASE_URL;
  if (intoDataDir && existsSync(env.dataDir) && readdirSync(env.dataDir).length > 0) {
    console.error(`Error: ${env.dataDir} is not empty. Restore into a new DATA_DIR (or set DATABASE_URL to an empty database).`);
    return 1;
  }
  const dataDirExisted = existsSync(env.dataDir);
  // With DATABASE_URL, DATA_DIR may be the site's own, holding the key; never one made up now.
  const backupKey = args.backupKeyFile ? await readBackupKeyFile(args.backupKeyFile) : (env.BACKUP_KEY ?? (await readSecrets(env.dataDir))?.backupKey ?? null);
  const started: { db: EmbeddedDatabase | null } = { db: null };
  try {
    const databaseUrl =
      env.DATABASE_URL ||
      (async () => {
        started.db = await startEmbeddedPostgres(env.dataDir, quiet);
        return started.db.url;
      });
    const manifest = await restoreBackup({ file: target, databaseUrl, storage, backupKey, trustUnsigned: args.trustUnsigned, log });
    if (manifest.sessionSecret === null) {
      console.log("Without the backup key the archive's session secret could not be read: second factors were turned off; each person sets one up again.");
    }
    if (intoDataDir) {
      // The backup's session secret, so second factors (encrypted with it) keep working; and the key
      // the archive was checked with, so the restored site's own backups are signed with it too.
      const secrets = await loadSecrets(env.dataDir);
      await writeSecrets(env.dataDir, { ...secrets, sessionSecret: manifest.sessionSecret ?? secrets.sessionSecret, backupKey: backupKey ?? secrets.backupKey });
    } else if (manifest.sessionSecret !== null && env.SESSION_SECRET !== manifest.sessionSecret) {
      console.log("Set SESSION_SECRET to the backed-up site's (its SESSION_SECRET, or the sessionSecret of its DATA_DIR/secrets.json) so its second factors keep working.");
    }
    if (args.trustUnsigned) console.log("Restored with --trust-unsigned: its signature was not checked.");
    console.log(`Restored ${target}: ${manifest.tables.length} tables, ${manifest.media.length} media files. Sessions are not restored: everyone signs in again.`);
    return 0;
  } catch (error) {
    if (intoDataDir) {
      // A refusal changes nothing: what this restore made goes (its PostgreSQL, wherever its cluster
      // was placed), and the folder itself only if this restore made it. It was empty before, so
      // emptying it puts it back as it was.
      await started.db?.stop().catch(() => {});
      started.db = null;
      await removeRelocatedCluster(env.dataDir).catch(() => {});
      if (dataDirExisted) {
        for (const entry of readdirSync(env.dataDir)) await fs.rm(path.join(env.dataDir, entry), { recursive: true, force: true });
      } else {
        await fs.rm(env.dataDir, { recursive: true, force: true });
      }
    }
    throw error;
  } finally {
    await started.db?.stop();
  }
}

runCommand(main);
