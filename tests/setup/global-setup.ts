import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../server/embedded-db";
import { migrateDatabase } from "../../server/migrate";
import { removeRelocatedCluster } from "../../server/postgres-placement";

/** The database every test file's own database is copied from: migrations applied, no rows. */
export const TEMPLATE_DATABASE = "frontpage_template";

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection URL of the test run's PostgreSQL server (any database name; tests swap it). */
    postgresUrl: string;
    templateDatabase: string;
  }
}

/**
 * Starts ONE embedded PostgreSQL for the whole test run in a throw-away directory (never the
 * developer's ./data), builds the migrated template database, and stops everything at the end.
 */
export default async function setup(project: TestProject) {
  // Mode 700, as mkdtemp makes it: as root, the "postgres" user cannot enter it, so the cluster goes
  // under /var/lib/frontpage/clusters (as for a user's DATA_DIR of the same kind) and is removed below.
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-vitest-"));
  const removeData = async () => {
    await removeRelocatedCluster(dataDir);
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  const log = pino({ level: process.env.TEST_PG_LOG ?? "warn" });
  const server = await startEmbeddedPostgres(dataDir, log).catch(async (error) => {
    await removeData();
    throw error;
  });
  const stop = async () => {
    await server.stop();
    await removeData();
  };

  try {
    const admin = new pg.Client({ connectionString: server.url });
    try {
      await admin.connect();
      await admin.query(`create database ${TEMPLATE_DATABASE}`);
    } finally {
      await admin.end();
    }
    // (Its connection is closed when it returns: CREATE DATABASE … TEMPLATE refuses while anyone is connected.)
    await migrateDatabase(withDatabase(server.url, TEMPLATE_DATABASE));
  } catch (error) {
    // A failed setup must not leave its PostgreSQL running behind it.
    await stop();
    throw error;
  }

  project.provide("postgresUrl", server.url);
  project.provide("templateDatabase", TEMPLATE_DATABASE);

  return stop;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.href;
}
