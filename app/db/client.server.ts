import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { PreparingClient } from "./prepared-statements.server";
import * as schema from "./schema";

export type Db = NodePgDatabase<typeof schema>;

/**
 * Bounds on every query of the app's pool (issue 12): a statement the server runs longer than this is
 * cancelled by PostgreSQL; an answer that never comes (a frozen server) is given up by the client a
 * little later; a new connection that is not made in time fails. Requests do not wait for these while
 * the database is down: server/database-health.ts answers them 503 at once. Migrations have no limit
 * (their own connection: server/migrate.ts).
 */
export const DB_TIMEOUTS = { statementMs: 30_000, queryMs: 35_000, connectMs: 5_000 };

/**
 * The one connection pool and Drizzle instance of a process. Its connections prepare the statements run
 * often (app/db/prepared-statements.server.ts, decision 0031).
 */
export function createDb(connectionString: string, max = 10): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({
    Client: PreparingClient,
    connectionString,
    max,
    statement_timeout: DB_TIMEOUTS.statementMs,
    query_timeout: DB_TIMEOUTS.queryMs,
    connectionTimeoutMillis: DB_TIMEOUTS.connectMs,
  });
  // An idle client whose server went away (a restart, a shutdown in progress) must not crash the
  // process: the pool drops it and the next query opens a new connection.
  pool.on("error", (error) => console.error(`database connection lost: ${error.message}`));
  // A client held between two queries (a transaction, a newsletter send holding its lock) hears the
  // same loss as an "error" event that the pool no longer listens for once the client is checked out:
  // unheard, it would be an uncaught exception and take the process down (issue 39). Heard here, the
  // holder's next query fails instead, and the pool drops the client when it comes back.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzle(pool, { schema });
  return { db, pool };
}
