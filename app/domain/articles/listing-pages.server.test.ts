import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { listAuthorArticles } from "~/domain/authors/authors.server";
import { categoryPageRows } from "~/domain/front-page/front-page.server";
import { ChangeFeed } from "~/lib/change-feed.server";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { BOUNDARY_EVERY } from "./article-cards.server";
import { listCategoryArticles, listTagArticles } from "./articles.server";
import { createStoryMemo, type StoryMemo } from "./story-memo.server";

// Issue 39: a listing's deep pages are read from kept boundaries (one every BOUNDARY_EVERY rows)
// instead of skipping every row before them, and give exactly what offset pagination gives: compared
// here page by page with an offset query over the same rows, on an archive whose stories share their
// publication times in runs of seven, with drafts and scheduled stories among them; and again after
// stories are published and unpublished.

const t = await createTestDatabase();
const PAGE = 24;

/** Queries run through `logged` (a second handle on the same database): their text and values. */
const statements: { query: string; params: unknown[] }[] = [];
const logged = drizzle(t.pool, { schema, logger: { logQuery: (query, params) => void statements.push({ query, params }) } }) as unknown as Db;

const feed = new ChangeFeed(t.url, createLogger("silent"));
let memo: StoryMemo;
let ids: { category: string; tag: string; author: string };

beforeAll(async () => {
  await feed.start();
  // The memo of a process: cleared when it hears a public story changed.
  memo = createStoryMemo(feed);
  const one = async <T>(query: ReturnType<typeof sql>) => (await t.db.execute<T & Record<string, unknown>>(query)).rows[0]!;
  const category = await one<{ id: string }>(sql`insert into categories (name, slug) values ('News', 'news') returning id`);
  await t.db.execute(sql`insert into categories (name, slug) values ('Sport', 'sport')`);
  const tag = await one<{ id: string }>(sql`insert into tags (name, slug) values ('Bridges', 'bridges') returning id`);
  const author = await one<{ id: string }>(sql`insert into authors (name, slug) values ('Ada Reporter', 'ada-reporter') returning id`);
  ids = { category: category.id, tag: tag.id, author: author.id };
  // 1,300 stories, seven to a publication time: most public in News, every 13th a draft, every 17th
  // scheduled for tomorrow, every 5th in Sport; every 3rd tagged Bridges, every 2nd by Ada.
  await t.db.execute(sql`
    insert into articles (title, slug, content, status, published_at, category_id)
    select 'Story ' || g, 'story-' || g, 'Body',
           (case when g % 13 = 0 then 'draft' when g % 17 = 0 then 'scheduled' else 'published' end)::article_status,
           case when g % 13 = 0 then null when g % 17 = 0 then now() + interval '1 day' else timestamptz '2026-01-01' - (g / 7) * interval '1 minute' end,
           (select id from categories where slug = case when g % 5 = 0 then 'sport' else 'news' end)
    from generate_series(1, 1300) g`);
  await t.db.execute(sql`insert into article_tags (article_id, tag_id, position) select id, ${tag.id}, 0 from articles where substring(slug from 7)::int % 3 = 0`);
  await t.db.execute(sql`insert into article_authors (article_id, author_id, position) select id, ${author.id}, 0 from articles where substring(slug from 7)::int % 2 = 0`);
});
afterAll(() => feed.stop());

/** The ids offset pagination gives for rows `offset`… of the listing `where` (over articles, or the authors' listing). */
async function byOffset(listing: "category" | "tag" | "author", offset: number, limit: number): Promise<string[]> {
  const visible = sql`a.status = 'published' and a.published_at <= now()`;
  const query =
    listing === "category"
      ? sql`select a.id from articles a where a.category_id = ${ids.category} and ${visible} order by a.published_at desc, a.id desc offset ${offset} limit ${limit}`
      : listing === "tag"
        ? sql`select a.id from articles a join article_tags t on t.article_id = a.id and t.tag_id = ${ids.tag} where ${visible} order by a.published_at desc, a.id desc offset ${offset} limit ${limit}`
        : sql`select l.article_id as id from author_listing l where l.author_id = ${ids.author} and l.published_at <= now() order by l.published_at desc, l.article_id desc offset ${offset} limit ${limit}`;
  return (await t.db.execute<{ id: string }>(query)).rows.map((row) => row.id);
}

/** Every page of the three listings (and the one past the last) read through the memo, each beside offset pagination's. */
async function comparePages() {
  const idsOf = (cards: { id: string }[]) => cards.map((card) => card.id);
  const { total: categoryTotal } = await listCategoryArticles(t.db, ids.category, categoryPageRows(1, PAGE), memo);
  for (let page = 1; page <= Math.ceil(categoryTotal / PAGE) + 1; page++) {
    const rows = categoryPageRows(page, PAGE);
    const { articles } = await listCategoryArticles(t.db, ids.category, rows, memo);
    expect(idsOf(articles), `category page ${page}`).toEqual(await byOffset("category", rows.offset, rows.limit));
  }
  const { total: tagTotal } = await listTagArticles(t.db, ids.tag, { offset: 0, limit: PAGE }, memo);
  for (let page = 1; page <= Math.ceil(tagTotal / PAGE) + 1; page++) {
    const { articles } = await listTagArticles(t.db, ids.tag, { offset: (page - 1) * PAGE, limit: PAGE }, memo);
    expect(idsOf(articles), `tag page ${page}`).toEqual(await byOffset("tag", (page - 1) * PAGE, PAGE));
  }
  const { total: authorTotal } = await listAuthorArticles(t.db, ids.author, 1, PAGE, memo);
  for (let page = 1; page <= Math.ceil(authorTotal / PAGE) + 1; page++) {
    const { articles } = await listAuthorArticles(t.db, ids.author, page, PAGE, memo);
    expect(idsOf(articles), `author page ${page}`).toEqual(await byOffset("author", (page - 1) * PAGE, PAGE));
  }
  return { categoryTotal, tagTotal, authorTotal };
}

describe("a listing's deep pages (issue 39)", () => {
  test("are exactly offset pagination's pages, ties in publication time included, before and after stories are published and unpublished", async () => {
    const before = await comparePages();
    // Deep enough that pages are read from boundaries past the first ones.
    expect(before.categoryTotal).toBeGreaterThan(3 * BOUNDARY_EVERY);
    expect(before.tagTotal).toBeGreaterThan(BOUNDARY_EVERY);
    expect(before.authorTotal).toBeGreaterThan(2 * BOUNDARY_EVERY);

    // Unpublished at several depths (one a boundary's own row), a draft published into a run of ties,
    // a scheduled story published, a story moved to another category; every process hears it.
    const change = async (statement: ReturnType<typeof sql>) => {
      await t.db.execute(statement);
      expect(await feed.caughtUp()).toBe(true);
    };
    await change(sql`update articles set status = 'draft' where slug in ('story-3', 'story-400', 'story-841', 'story-1204')`);
    await change(sql`update articles set status = 'published', published_at = timestamptz '2026-01-01' - 90 * interval '1 minute' where slug = 'story-637'`);
    await change(sql`update articles set published_at = now() - interval '1 hour' where slug = 'story-17'`);
    await change(sql`update articles set category_id = (select id from categories where slug = 'sport') where slug = 'story-722'`);
    const after = await comparePages();
    expect(after.categoryTotal).not.toBe(before.categoryTotal);
  });

  test("a deep page seeks to the boundary before it: it skips fewer than BOUNDARY_EVERY rows, where offset pagination skipped them all", async () => {
    const page = 40;
    const rows = categoryPageRows(page, PAGE);
    expect(rows.offset).toBeGreaterThan(3 * BOUNDARY_EVERY);
    await listCategoryArticles(logged, ids.category, rows, memo);
    statements.length = 0;
    const { articles } = await listCategoryArticles(logged, ids.category, rows, memo);
    expect(articles.map((card) => card.id)).toEqual(await byOffset("category", rows.offset, rows.limit));
    // The page's one statement (its boundaries and count are kept): its OFFSET is the rows it skips.
    expect(statements).toHaveLength(1);
    const { query, params } = statements[0]!;
    const skipped = Number(params[Number(/ offset \$(\d+)\)/.exec(query)![1]) - 1]);
    expect(skipped).toBeLessThan(BOUNDARY_EVERY);
    expect(skipped).toBe(rows.offset % BOUNDARY_EVERY);
  });
});
