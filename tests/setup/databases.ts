import pg from "pg";

// What both the test run's setup (global-setup.ts) and each test file (test-database.ts) do with
// databases on the test server: no vitest import here, so the global setup can use it too.

/** `url` pointing at `database` on the same server. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.href;
}

/** Drops `name` on the server of `serverUrl`, closing its connections (nothing if it is gone). */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

/** Whether the PostgreSQL of `url` answers a new connection now (false while it is down or restarting). */
export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
