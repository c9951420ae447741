import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { migrateJobQueue } from "../app/lib/job-queue.server";
import { ROOT } from "./root";

// An arbitrary constant shared by every process of this app: pg_advisory_lock serialises migrations.
const MIGRATION_LOCK_ID = 727_114_001;

/**
 * Applies the committed migrations (and the job queue's) under an advisory lock, so processes starting together do not race,
 * on a connection of their own without the pool's time limits (an index on a large table takes long).
 */
export async function migrateDatabase(connectionString: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    try {
      await migrate(drizzle(client), { migrationsFolder: path.join(ROOT, "drizzle") });
      // The job queue's own tables (schema graphile_worker, decision 0032), under the same lock.
      await migrateJobQueue(connectionString);
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
    }
  } finally {
    await client.end();
  }
}
