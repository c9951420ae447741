import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../server/embedded-db";
import { migrateDatabase } from "../../server/migrate";
import { removeRelocatedCluster } from "../../server/postgres-placement";
import { dropDatabase, withDatabase } from "./databases";

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
 * With TEST_DATABASE_URL (a superuser's `postgres://…` of a server started elsewhere, e.g. Debian's
 * PostgreSQL 15 by `.ci/run`: decision 0046), no embedded server is started: the template and every
 * test file's database are made on that server.
 */
export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  if (external) return setupExternal(project, external);
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
    await createTemplate(server.url, TEMPLATE_DATABASE);
  } catch (error) {
    // A failed setup must not leave its PostgreSQL running behind it.
    await stop();
    throw error;
  }

  project.provide("postgresUrl", server.url);
  project.provide("templateDatabase", TEMPLATE_DATABASE);

  return stop;
}

/** The migrated, empty template database `name` on the server of `serverUrl`. */
async function createTemplate(serverUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  // (Its connection is closed when it returns: CREATE DATABASE … TEMPLATE refuses while anyone is connected.)
  await migrateDatabase(withDatabase(serverUrl, name));
}

/**
 * The run on a server of TEST_DATABASE_URL: a template of this run's own name (two runs on one server
 * do not meet), dropped at the end (each test file drops its own database: tests/setup/test-database.ts).
 */
async function setupExternal(project: TestProject, serverUrl: string) {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  let version: string;
  try {
    await client.connect();
    version = (await client.query<{ server_version: string }>("show server_version")).rows[0]!.server_version;
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL: cannot connect to ${redacted(serverUrl)}: ${(error as Error).message}`, { cause: error });
  } finally {
    await client.end().catch(() => {});
  }
  const template = `${TEMPLATE_DATABASE}_${Date.now().toString(36)}_${process.pid}`;
  console.log(`Integration tests on the PostgreSQL of TEST_DATABASE_URL (${redacted(serverUrl)}): version ${version}`);
  const dropTemplate = () => dropDatabase(serverUrl, template);
  try {
    await createTemplate(serverUrl, template);
  } catch (error) {
    await dropTemplate().catch(() => {});
    throw error;
  }
  project.provide("postgresUrl", serverUrl);
  project.provide("templateDatabase", template);
  return dropTemplate;
}

/** A connection URL without its password, for messages. */
function redacted(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.href;
}

