import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema";

export type Db = NodePgDatabase<typeof schema>;

/** The one connection pool and Drizzle instance of a process. */
export function createDb(connectionString: string, max = 10): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client whose server went away (a restart, a shutdown in progress) must not crash the
  // process: the pool drops it and the next query opens a new connection.
  pool.on("error", (error) => console.error(`database connection lost: ${error.message}`));
  const db = drizzle(pool, { schema });
  return { db, pool };
}
