import { sql } from "drizzle-orm";
import pino from "pino";
import { expect, test } from "vitest";
import { articles, categories } from "~/db/schema";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { recordConversion } from "./audience-conversions.server";
import { AudienceRecorder } from "./audience-recorder.server";

// Issue 42, acceptance 3: the database holds no client address and no full user agent.

const { db } = await createTestDatabase();
const log = pino({ level: process.env.TEST_LOG ?? "silent" });

const ADDRESS = "203.0.113.77";
const AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) DistinctiveBrowser/77.7.7 Safari/537.36";

test("after loads, reading reports and a conversion, no column of any table holds the address or the user agent", async () => {
  const [category] = await db.insert(categories).values({ name: "News", slug: "news" }).returning();
  await db.insert(articles).values({ title: "Floods", slug: "floods", content: "Body", categoryId: category!.id, status: "published", publishedAt: new Date(Date.now() - 60_000) });
  const audience = new AudienceRecorder({ db, log, timeZone: "Europe/Paris", siteOrigin: "https://news.example.org" });
  await audience.start(60_000);
  for (let n = 0; n < 5; n++) {
    audience.record({ path: "/article/floods", address: ADDRESS, userAgent: AGENT, referrer: "https://www.google.com/search?q=floods", query: "utm_source=newsletter&utm_campaign=morning" });
  }
  audience.recordRead({ path: "/article/floods", loadId: "6f1c1d52-1e0a-4a4a-9b7e-1a2b3c4d5e6f", engagedMs: 5000, depth: 100, address: ADDRESS, userAgent: AGENT });
  await audience.stop();
  await recordConversion(db, "newsletter", { address: ADDRESS, userAgent: AGENT }, audience);

  // The recording went in (the search below would prove nothing otherwise).
  const counted = await db.execute<{ events: number; reads: number; conversions: number }>(
    sql`select (select count(*)::int from audience_events) as events, (select count(*)::int from audience_reads) as reads, (select count(*)::int from audience_conversions) as conversions`,
  );
  expect(counted.rows[0]).toEqual({ events: 5, reads: 1, conversions: 1 });

  const { rows: columns } = await db.execute<{ table_name: string; column_name: string; data_type: string }>(sql`
    select c.table_name, c.column_name, c.data_type from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = 'public'`);
  expect(columns.length).toBeGreaterThan(100);
  const needles = [ADDRESS, "DistinctiveBrowser", AGENT];
  const found: string[] = [];
  for (const { table_name, column_name, data_type } of columns) {
    const column = sql.identifier(column_name);
    for (const needle of needles) {
      // bytea is searched for the needle's bytes too (a hash must not be the address in disguise).
      const where = data_type === "bytea" ? sql`position(convert_to(${needle}, 'UTF8') in ${column}) > 0` : sql`strpos(${column}::text, ${needle}) > 0`;
      const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${where}`);
      if (rows[0]!.n > 0) found.push(`${table_name}.${column_name} holds ${needle}`);
    }
  }
  expect(found).toEqual([]);
  // Nor the address's bytes anywhere in a hash: the visitor is 32 bytes of SHA-256.
  const { rows: lengths } = await db.execute<{ n: number }>(sql`select distinct octet_length(visitor)::int as n from audience_events`);
  expect(lengths).toEqual([{ n: 32 }]);
});
