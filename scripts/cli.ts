import { existsSync } from "node:fs";
import path from "node:path";
import pino, { type Logger } from "pino";
import { createDb } from "../app/db/client.server";
import type { Env } from "../app/lib/env.server";
import { findRunningPostgres, startEmbeddedPostgres, type EmbeddedDatabase } from "../server/embedded-db";
import { migrateDatabase } from "../server/migrate";
import { clusterDirOf } from "../server/postgres-placement";
import { loadSecrets } from "../server/secrets";

/**
 * The site's own database for a command-line tool (`npm run admin`, `npm run import`), also while the
 * server runs: DATABASE_URL when set; else a running embedded PostgreSQL is joined (with the login in
 * DATA_DIR/secrets.json), not started twice; else it is started for the command and stopped after.
 * Migrated before use. Null (with the reason written) when there is no database yet and `mayCreate` is false.
 */
export async function openCliDatabase(env: Env, log: Logger, options: { mayCreate: boolean; poolSize?: number }, err: (line: string) => void) {
  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    // DATA_DIR/postgres, or where DATA_DIR/postgres.location says (as root, out of the postgres user's reach).
    const databaseDir = clusterDirOf(env.dataDir);
    const running = await findRunningPostgres(databaseDir);
    if (running && running !== "stale") {
      const { postgresPassword } = await loadSecrets(env.dataDir);
      databaseUrl = `postgres://frontpage:${encodeURIComponent(postgresPassword)}@127.0.0.1:${running.port}/frontpage`;
    } else {
      if (!options.mayCreate && !existsSync(path.join(databaseDir, "PG_VERSION"))) {
        err(`Error: there is no database in ${databaseDir} yet. Start the server once (or set DATA_DIR / DATABASE_URL).`);
        return null;
      }
      // Its own shutdown chatter ("terminating connection due to administrator command") is noise
      // here; failures to start still throw and are reported.
      const databaseLog = pino({ level: ["debug", "trace"].includes(env.LOG_LEVEL) ? env.LOG_LEVEL : "silent" }, pino.destination(2));
      embedded = await startEmbeddedPostgres(env.dataDir, databaseLog);
      databaseUrl = embedded.url;
    }
  }
  const { db, pool } = createDb(databaseUrl, options.poolSize ?? 2);
  const stop = async () => {
    await pool.end().catch(() => {});
    await embedded?.stop().catch((error) => log.error({ err: error }, "could not stop PostgreSQL"));
  };
  const onSignal = () => void stop().finally(() => process.exit(130));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await migrateDatabase(databaseUrl);
  } catch (error) {
    await stop();
    throw error;
  }
  return { databaseUrl, db, pool, stop };
}

/** Runs a command's `main` and exits with the code it answers; a throw prints "Error: …" and exits 1. */
export function runCommand(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
