import type { Db } from "./client.server";

/** What Drizzle's `.prepare(name)` gives: a query whose SQL is built, run with its placeholders' values. */
interface Prepared<Values, Result> {
  execute(values?: Values): Promise<Result>;
}

/**
 * A query Drizzle builds once per database handle instead of on every call (issue 13, decision 0031):
 * turning a select's builder into SQL took 8% of an article page's render, to make the same text each
 * time. `build` writes the query with `sql.placeholder(name)` where a call's values go, and ends with
 * `.prepare(name)`; the name also names the statement PostgreSQL keeps parsed on each connection
 * (prefixed `fq_`, apart from app/db/prepared-statements.server.ts's `fp_` names). Handles are keyed
 * weakly: a transaction's, or a test's, gets its own.
 */
export function preparedQuery<Values extends Record<string, unknown>, Result>(name: string, build: (db: Db, name: string) => Prepared<Values, Result>) {
  const statement = `fq_${name}`;
  const built = new WeakMap<Db, Prepared<Values, Result>>();
  return (db: Db, values: Values): Promise<Result> => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db, statement)));
    return query.execute(values);
  };
}
