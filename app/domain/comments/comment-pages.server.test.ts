import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { createStoryMemo, type StoryMemo } from "~/domain/articles/story-memo.server";
import { ChangeFeed } from "~/lib/change-feed.server";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { listArticleComments } from "./comments.server";

// Issue 39: a story with thousands of comments. Its pages of threads are read in index order (no sort
// of every thread) and its counts are kept in the process's memo until one of its comments changes.

const t = await createTestDatabase();
const feed = new ChangeFeed(t.url, createLogger("silent"));
/** Queries run through `logged` (a second handle on the same database): their text and values. */
const statements: { query: string; params: unknown[] }[] = [];
const logged = drizzle(t.pool, { schema, logger: { logQuery: (query, params) => void statements.push({ query, params }) } }) as unknown as Db;
let memo: StoryMemo;
const story = { id: "", slug: "bridge-debate" };
let other = "";
const THREADS = 450;
/** Threads a page (the site shows COMMENT_THREADS_PER_PAGE; fewer here, for more pages). */
const PER_PAGE = 20;

beforeAll(async () => {
  await feed.start();
  memo = createStoryMemo(feed);
  const insertStory = async (slug: string) =>
    (await t.db.execute<{ id: string }>(sql`insert into articles (title, slug, content, status, published_at) values (${slug}, ${slug}, 'Body', 'published', now() - interval '1 day') returning id`)).rows[0]!.id;
  story.id = await insertStory(story.slug);
  other = await insertStory("other-story");
  // 450 published threads, three to a minute (ties in time), every 9th held for moderation; a reply under every 4th.
  await t.db.execute(sql`
    insert into comments (article_id, author_name, author_email, content, status, created_at)
    select ${story.id}, 'Reader ' || g, 'r' || g || '@example.org', 'Thread ' || g, case when g % 9 = 0 then 'pending' else 'published' end,
           timestamptz '2026-01-01' + (g / 3) * interval '1 minute'
    from generate_series(1, ${THREADS}) g`);
  await t.db.execute(sql`
    insert into comments (article_id, parent_comment_id, author_name, author_email, content, status, created_at)
    select article_id, id, 'Replier', 'x@example.org', 'A reply', 'published', created_at + interval '1 hour'
    from comments where article_id = ${story.id} and substring(content from 8)::int % 4 = 0`);
  // 200 other stories' 20,000 comments in the same hours, as in any archive (the busy story has a
  // small share of them: PostgreSQL then reads its comments by its own index, as at scale).
  await t.db.execute(sql`
    insert into articles (title, slug, content, status, published_at)
    select 'Story ' || g, 'story-' || g, 'Body', 'published', now() - interval '1 day' from generate_series(1, 200) g`);
  await t.db.execute(sql`
    insert into comments (article_id, author_name, author_email, content, created_at)
    select (array(select id from articles where slug like 'story-%'))[1 + g % 200], 'Reader', 'r@example.org', 'Elsewhere ' || g,
           timestamptz '2026-01-01' + g * interval '1 second'
    from generate_series(1, 20000) g`);
  await t.db.execute(sql`analyze comments`);
});
afterAll(() => feed.stop());

/** The top-level published comments of the story, in page order, by offset. */
async function threadIds(offset: number, limit: number): Promise<string[]> {
  const { rows } = await t.db.execute<{ id: string }>(
    sql`select id from comments where article_id = ${story.id} and status = 'published' and parent_comment_id is null order by created_at desc, id desc offset ${offset} limit ${limit}`,
  );
  return rows.map((row) => row.id);
}

interface PlanNode {
  "Node Type": string;
  "Parent Relationship"?: string;
  "Actual Rows"?: number;
  "Rows Removed by Filter"?: number;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/**
 * How many rows the scan of `statement`'s threads reads (kept, and removed by its filter), run with
 * sorts, bitmap and sequential scans off: what an index in the page's order gives (a small test table
 * leaves the planner other choices that an archive of a million comments does not). A thread's
 * replies (a subplan) apart.
 */
async function threadsRead({ query, params }: { query: string; params: unknown[] }): Promise<{ read: number; index?: string }> {
  const client = await t.pool.connect();
  try {
    await client.query("begin");
    for (const kind of ["seqscan", "bitmapscan", "sort", "incremental_sort"]) await client.query(`set local enable_${kind} = off`);
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`explain (analyze, format json) ${query}`, params);
    const scanOf = (node: PlanNode): PlanNode | undefined =>
      /Scan/.test(node["Node Type"]) ? node : (node.Plans ?? []).filter((child) => child["Parent Relationship"] !== "SubPlan" && child["Parent Relationship"] !== "InitPlan").map(scanOf).find(Boolean);
    const scan = scanOf(rows[0]!["QUERY PLAN"][0].Plan)!;
    return { read: scan["Actual Rows"]! + (scan["Rows Removed by Filter"] ?? 0), index: scan["Index Name"] };
  } finally {
    await client.query("rollback");
    client.release();
  }
}

describe("the pages of a story's comments (issue 39)", () => {
  test("are read in index order, page after page, with the counts of every comment and of the threads still to come", async () => {
    const published = Number((await t.db.execute<{ n: string }>(sql`select count(*) as n from comments where article_id = ${story.id} and status = 'published'`)).rows[0]!.n);
    const threads = (await threadIds(0, THREADS)).length;
    let olderThan: string | undefined;
    for (let page = 0; page * PER_PAGE < threads; page++) {
      statements.length = 0;
      const found = await listArticleComments(logged, story.id, { olderThan, limit: PER_PAGE, kept: { memo, slug: story.slug } });
      expect(found.threads.map((thread) => thread.id), `page ${page + 1}`).toEqual(await threadIds(page * PER_PAGE, PER_PAGE));
      expect(found.total).toBe(published);
      expect(found.olderThreads).toBe(Math.max(0, threads - (page + 1) * PER_PAGE));
      // The page's threads come from the index in their order: it reads the threads it shows (and, on an
      // older page, the cursor's own row and those of its second: three threads a minute), not every thread.
      const pageQuery = statements.find((statement) => /order by/.test(statement.query) && /"content"/.test(statement.query))!;
      expect((await threadsRead(pageQuery)).read, `page ${page + 1}: threads read`).toBeLessThanOrEqual(PER_PAGE + 3);
      olderThan = found.threads.at(-1)!.id;
    }
  });

  test("the counts are kept until a comment of that story changes; another story's comment keeps them", async () => {
    const read = async () => {
      statements.length = 0;
      const found = await listArticleComments(logged, story.id, { kept: { memo, slug: story.slug } });
      return { total: found.total, counted: statements.some((statement) => /count\(/.test(statement.query)) };
    };
    const first = await read();
    expect(await read()).toEqual({ total: first.total, counted: false });

    await t.db.execute(sql`insert into comments (article_id, author_name, author_email, content) values (${other}, 'Someone', 's@example.org', 'Elsewhere')`);
    expect(await feed.caughtUp()).toBe(true);
    expect(await read()).toEqual({ total: first.total, counted: false });

    await t.db.execute(sql`insert into comments (article_id, author_name, author_email, content) values (${story.id}, 'Someone', 's@example.org', 'Here')`);
    expect(await feed.caughtUp()).toBe(true);
    expect(await read()).toEqual({ total: first.total + 1, counted: true });

    // Moderation (a held comment published) changes them too.
    await t.db.execute(sql`update comments set status = 'published' where article_id = ${story.id} and status = 'pending' and content = 'Thread 9'`);
    expect(await feed.caughtUp()).toBe(true);
    expect(await read()).toEqual({ total: first.total + 2, counted: true });
  });
});
