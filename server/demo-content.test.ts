import { sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, test } from "vitest";
import { setUpArticleFixture } from "../tests/setup/article-fixture";
import { seedDemoContent } from "./demo-content";

const fx = setUpArticleFixture("demo-content");

describe("the demo content of a new database", () => {
  test("every demo article names an author whose page lists it (decision 0015)", async () => {
    await seedDemoContent({ db: fx.t.db, storage: fx.storage, log: pino({ level: "silent" }) });
    const { rows } = await fx.t.db.execute<{ articles: number; without: number; authors: number; mismatched: number }>(sql`
      select
        (select count(*)::int from articles) as articles,
        (select count(*)::int from articles a where not exists (select 1 from article_authors aa where aa.article_id = a.id)) as without,
        (select count(*)::int from authors) as authors,
        (select count(*)::int from article_authors aa join authors au on au.id = aa.author_id join articles a on a.id = aa.article_id
          where au.name <> a.author_name) as mismatched`);
    expect(rows[0]!.articles).toBeGreaterThan(0);
    expect(rows[0]!.without).toBe(0);
    expect(rows[0]!.authors).toBeGreaterThan(1);
    // The author linked is the byline the article already showed.
    expect(rows[0]!.mismatched).toBe(0);
  });
});
