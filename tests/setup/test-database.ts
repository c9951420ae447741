import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, inject } from "vitest";
import { createDb, type Db } from "~/db/client.server";
import { dropDatabase, withDatabase } from "./databases";

export interface TestDatabase {
  db: Db;
  pool: pg.Pool;
  /** Connection URL of this test file's database, for a second "process" (its own pool). */
  url: string;
  name: string;
}


async function createDatabaseFromTemplate(serverUrl: string, template: string, name: string) {
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await admin.connect();
  try {
    // Copies from one template can collide for a moment ("source database is being accessed by
    // other users", 55006) when several test files start together; a short retry settles it.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${template}"`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006" || attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
}


/**
 * A new database with nothing in it (not even the schema), dropped after the file: for restoring into.
 */
export async function createBlankDatabase(): Promise<{ url: string; name: string }> {
  const serverUrl = inject("postgresUrl");
  const name = `blank_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await createDatabaseFromTemplate(serverUrl, "template0", name);
  afterAll(async () => {
    await dropDatabase(serverUrl, name);
  });
  return { url: withDatabase(serverUrl, name), name };
}

/**
 * A fresh, migrated, empty database for the calling test file, copied from the run's template.
 * Call it at the top level of a test file (or in beforeAll); it is closed and dropped after the file.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject("postgresUrl");
  const template = inject("templateDatabase");
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await createDatabaseFromTemplate(serverUrl, template, name);
  const url = withDatabase(serverUrl, name);
  const { db, pool } = createDb(url, 10);
  afterAll(async () => {
    await pool.end();
    await dropDatabase(serverUrl, name);
  });
  return { db, pool, url, name };
}
