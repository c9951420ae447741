import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/setup/test-database";
import { createDb } from "./client.server";
import { MAX_NAMED_PER_CONNECTION, MAX_NAMED_TEXT_LENGTH, NAME_AFTER_RUNS, PLAN_EACH_TIME, statementNameOf } from "./prepared-statements.server";
import { categories } from "./schema";

const t = await createTestDatabase();

/** The statements the (one) connection of `pool` has prepared. */
async function preparedOn(pool: import("pg").Pool): Promise<{ name: string; statement: string }[]> {
  const { rows } = await pool.query<{ name: string; statement: string }>("select name, statement from pg_prepared_statements order by name");
  return rows;
}

describe("prepared statements", () => {
  it("names a text once it has been seen often enough, with a name of its own text", () => {
    const text = `select ${Math.random()} as probe`;
    for (let run = 1; run < NAME_AFTER_RUNS; run++) expect(statementNameOf(text)).toBeNull();
    const name = statementNameOf(text);
    expect(name).toMatch(/^fp_[\w-]{22}$/);
    expect(statementNameOf(text)).toBe(name);
    expect(statementNameOf(`${text} `)).toBeNull();
  });

  it("never names nor keeps a bulk write's long text (an import's batches would fill memory)", () => {
    const text = `insert into probe values ${Array.from({ length: 800 }, (_, i) => `($${i + 1})`).join(", ")} -- ${Math.random()}`;
    expect(text.length).toBeGreaterThan(MAX_NAMED_TEXT_LENGTH);
    for (let run = 1; run <= NAME_AFTER_RUNS + 2; run++) expect(statementNameOf(text)).toBeNull();
  });

  it("never names a text that asks to be planned each time", () => {
    const text = `select ${Math.random()} as probe where ${PLAN_EACH_TIME} true`;
    for (let run = 1; run <= NAME_AFTER_RUNS + 2; run++) expect(statementNameOf(text)).toBeNull();
  });

  it("a query the app runs again and again is prepared once on its connection and answers as before", async () => {
    const { db, pool } = createDb(t.url, 1);
    try {
      await db.insert(categories).values({ name: "Prepared", slug: "prepared-probe" });
      const find = () => db.select({ name: categories.name }).from(categories).where(eq(categories.slug, "prepared-probe"));
      for (let run = 0; run < NAME_AFTER_RUNS + 2; run++) expect(await find()).toEqual([{ name: "Prepared" }]);
      const prepared = (await preparedOn(pool)).filter((p) => p.statement.includes('"categories"'));
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.name).toMatch(/^fp_/);
      // A string query (a transaction's begin, the health check's select 1) is never named.
      for (let run = 0; run < NAME_AFTER_RUNS + 1; run++) await pool.query("select 1");
      expect((await preparedOn(pool)).some((p) => p.statement === "select 1")).toBe(false);
    } finally {
      await pool.end();
    }
  });

  it(`a connection prepares at most ${MAX_NAMED_PER_CONNECTION} statements, then runs the others unnamed`, async () => {
    const { db, pool } = createDb(t.url, 1);
    try {
      for (let i = 0; i < MAX_NAMED_PER_CONNECTION + 10; i++) {
        for (let run = 0; run < NAME_AFTER_RUNS; run++) {
          const { rows } = await db.execute<{ n: number }>(sql.raw(`select ${i}::int as n`));
          expect(rows).toEqual([{ n: i }]);
        }
      }
      expect((await preparedOn(pool)).length).toBe(MAX_NAMED_PER_CONNECTION);
    } finally {
      await pool.end();
    }
  });
});
