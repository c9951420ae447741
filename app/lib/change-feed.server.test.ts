import { sql } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { createTestDatabase } from "../../tests/setup/test-database";
import { ChangeFeed, type ChangeEvent } from "./change-feed.server";
import { createLogger } from "./logger.server";

// The database announces changes (migrations 0001, 0014); a comment's notice names its article, so
// only that article's pages are cleared (decision 0024).

const t = await createTestDatabase();
const feed = new ChangeFeed(t.url, createLogger("silent"));
await feed.start();
afterAll(() => feed.stop());

function nextChange(table: string): Promise<ChangeEvent> {
  return new Promise((resolve) => {
    const listener = (event: ChangeEvent) => {
      if (event.table !== table) return;
      feed.off("change", listener);
      resolve(event);
    };
    feed.on("change", listener);
  });
}

async function article(slug: string): Promise<string> {
  const { rows } = await t.db.execute<{ id: string }>(sql`insert into articles (title, slug, content) values (${slug}, ${slug}, 'Body') returning id`);
  return rows[0]!.id;
}

describe("change notices", () => {
  test("posting, moderating and deleting a comment names its article; comments on many articles at once name none", async () => {
    const id = await article("noticed-story");
    const other = await article("other-story");

    let notice = nextChange("comments");
    await t.db.execute(sql`insert into comments (article_id, author_name, author_email, content) values (${id}, 'A', 'a@example.org', 'Hi')`);
    expect(await notice).toEqual({ table: "comments", op: "INSERT", articles: ["noticed-story"] });

    notice = nextChange("comments");
    await t.db.execute(sql`update comments set status = 'published' where article_id in (${id}, ${other})`);
    expect(await notice).toMatchObject({ op: "UPDATE", articles: ["noticed-story"] });

    notice = nextChange("comments");
    await t.db.execute(sql`delete from comments where article_id = ${id}`);
    expect(await notice).toEqual({ table: "comments", op: "DELETE", articles: ["noticed-story"] });

    // More than 50 articles in one statement: every page may have changed.
    const many = await Promise.all(Array.from({ length: 51 }, (_, i) => article(`many-${i}`)));
    notice = nextChange("comments");
    await t.db.execute(sql`insert into comments (article_id, author_name, author_email, content) select unnest(${`{${many.join(",")}}`}::uuid[]), 'B', 'b@example.org', 'Hi'`);
    expect(await notice).toEqual({ table: "comments", op: "INSERT" });
  });
});
