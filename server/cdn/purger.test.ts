import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { ChangeFeed, type ChangeEvent } from "../../app/lib/change-feed.server";
import { startJobQueue } from "../../app/lib/job-queue.server";
import { createLogger } from "../../app/lib/logger.server";
import { loadEnv, cdnSettingsOf, type CdnSettings } from "../../app/lib/env.server";
import { createTestDatabase } from "../../tests/setup/test-database";
import { createPurgeAdapter } from "./adapters";
import { cdnPurgeTasks, PURGE_AGAIN_AFTER_MS, PURGE_AGAIN_KEY, PURGE_KEY, PURGE_TASK, purgeOnChange, purgeTagsOf, type PurgeOutcome } from "./purger";
import { recordingLog } from "./recording-log";
import { startRecordingServer } from "./recording-server";
import { SITE_TAG } from "../../app/lib/cache-tags.server";

// The purge job and the one process that queues it (decision 0045), on a real PostgreSQL with the
// real job queue, against a local HTTP server standing for Fastly.

const t = await createTestDatabase();
const api = await startRecordingServer();
const TOKEN = "fastly-token-never-logged";
const found = cdnSettingsOf(loadEnv({ CDN: "fastly", FASTLY_API_TOKEN: TOKEN, FASTLY_SERVICE_ID: "svc9", FASTLY_API_URL: api.url }));
const adapter = createPurgeAdapter((found as { settings: CdnSettings }).settings, "https://news.example.com");

const jobs = () =>
  t.db.execute<{ key: string | null; payload: unknown; run_at: Date; task: string }>(
    sql`select j.key, j.payload, j.run_at, t.identifier as task from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id order by j.id`,
  );

afterAll(async () => {
  await api.close();
});
beforeEach(async () => {
  api.requests.length = 0;
  await t.db.execute(sql`delete from graphile_worker._private_jobs`);
});

describe("the purge job", () => {
  test("merges its items' tags and purges them; a refusal is one warn line (adapter, status, no token) and a retry queued after 1 s", async () => {
    const { log, lines } = recordingLog();
    const outcomes: PurgeOutcome[] = [];
    const task = cdnPurgeTasks({ adapter, db: t.db, log, onPurge: (outcome) => outcomes.push(outcome) })[PURGE_TASK]!;
    const helpers = {} as Parameters<typeof task>[1];

    await task([{ tags: ["home", "article:a"] }, { tags: ["article:a", "feeds"] }], helpers);
    expect(api.requests.map((r) => r.headers["surrogate-key"])).toEqual(["home article:a feeds"]);
    expect(outcomes).toMatchObject([{ adapter: "fastly", ok: true, tags: 3 }]);

    // Every page: the one key every page carries.
    await task([{ tags: ["home"] }, { tags: ["site"] }], helpers);
    expect(api.requests[1]!.headers["surrogate-key"]).toBe("site");

    api.answer({ status: 503 });
    const before = Date.now();
    await task([{ tags: ["article:b"] }], helpers);
    expect(outcomes.at(-1)).toMatchObject({ adapter: "fastly", ok: false, tags: 1 });
    const warnings = lines.filter((line) => Number(line.level) >= 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ adapter: "fastly", status: 503, attempt: 1, retryInSeconds: 1 });
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
    const { rows } = await jobs();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: PURGE_KEY, task: PURGE_TASK, payload: [{ tags: ["article:b"], attempt: 2 }] });
    expect(new Date(rows[0]!.run_at).getTime()).toBeGreaterThanOrEqual(before + 900);

    // The last attempt refused: given up, one error line.
    api.answer({ status: 401 });
    await task([{ tags: ["article:c"], attempt: 12 }], helpers);
    expect(lines.filter((line) => Number(line.level) >= 50)).toMatchObject([{ adapter: "fastly", status: 401, attempt: 12 }]);
    expect((await jobs()).rows).toHaveLength(1);
  });

  test("run by the job queue: a 5xx is tried again about a second later, and then purged", async () => {
    const { log } = recordingLog();
    const queue = await startJobQueue({ connectionString: t.url, log, tasks: cdnPurgeTasks({ adapter, db: t.db, log }), pollIntervalMs: 200 });
    try {
      api.answer({ status: 500 }, { status: 502 });
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`select graphile_worker.add_job('cdn-purge', ${JSON.stringify([{ tags: ["article:retried"] }])}::json, job_key := 'cdn-purge', job_key_mode := 'preserve_run_at')`);
      });
      await expect.poll(() => api.requests.length, { timeout: 15_000 }).toBe(3);
      const [first, second, third] = api.requests;
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
      expect(third!.at - second!.at).toBeGreaterThanOrEqual(1900);
      expect(api.requests.every((r) => r.headers["surrogate-key"] === "article:retried")).toBe(true);
      await expect.poll(async () => (await jobs()).rows.length).toBe(0);
    } finally {
      await queue.stop();
    }
  });
});

describe("who queues purges", () => {
  test("one process of several (the purge lock's holder) queues each change, now and again 5 s later; another takes over when it stops", async () => {
    const { log } = recordingLog();
    const feed = new EventEmitter<{ change: [ChangeEvent] }>();
    const one = purgeOnChange({ changes: feed, connectionString: t.url, db: t.db, log });
    const two = purgeOnChange({ changes: feed, connectionString: t.url, db: t.db, log });
    const event: ChangeEvent = { table: "articles", op: "UPDATE", public: { ids: ["s1"], slugs: ["bridge"], categories: ["news"], authors: ["ada"], tags: [] } };
    try {
      const before = Date.now();
      feed.emit("change", event);
      await Promise.all([one.idle(), two.idle()]);
      expect([one.holds(), two.holds()].filter(Boolean)).toHaveLength(1);
      const { rows } = await jobs();
      expect(rows.map((row) => [row.key, row.payload])).toEqual([
        [PURGE_KEY, [{ tags: purgeTagsOf(event) }]],
        [PURGE_AGAIN_KEY, [{ tags: purgeTagsOf(event) }]],
      ]);
      expect(new Date(rows[1]!.run_at).getTime()).toBeGreaterThanOrEqual(before + PURGE_AGAIN_AFTER_MS - 100);

      // A second notice merges into the waiting jobs (no pile-up); the later purge keeps its time.
      feed.emit("change", { table: "comments", op: "INSERT", articles: ["other"] });
      await Promise.all([one.idle(), two.idle()]);
      const merged = (await jobs()).rows;
      expect(merged).toHaveLength(2);
      expect(merged[0]!.payload).toEqual([{ tags: purgeTagsOf(event) }, { tags: ["article:other"] }]);
      expect(merged[1]!.run_at).toEqual(rows[1]!.run_at);

      // A change that touches no cached page (a draft) queues nothing.
      feed.emit("change", { table: "articles", op: "UPDATE", public: { ids: [], slugs: [], categories: [], authors: [] } });
      await Promise.all([one.idle(), two.idle()]);
      expect((await jobs()).rows).toHaveLength(2);

      // The holder stops (its machine died: its session ends, the lock goes): the next notice finds the other.
      const [holder, other] = one.holds() ? [one, two] : [two, one];
      await holder.stop();
      await t.db.execute(sql`delete from graphile_worker._private_jobs`);
      feed.emit("change", event);
      await other.idle();
      expect(other.holds()).toBe(true);
      expect((await jobs()).rows).toHaveLength(2);
    } finally {
      await one.stop();
      await two.stop();
    }
  });
});

describe("takedowns (decision 0045)", () => {
  test("unpublishing or deleting a public story purges its page, home, its lists, feeds and sitemaps", async () => {
    const feed = new ChangeFeed(t.url, createLogger("silent"));
    await feed.start();
    try {
      const { rows: cats } = await t.db.execute<{ id: string }>(sql`insert into categories (name, slug) values ('Courts', 'courts') returning id`);
      const story = async (slug: string) =>
        (
          await t.db.execute<{ id: string }>(
            sql`insert into articles (title, slug, content, status, published_at, category_id) values (${slug}, ${slug}, 'Body', 'published', now() - interval '1 hour', ${cats[0]!.id}) returning id`,
          )
        ).rows[0]!.id;
      const heard = async (statement: () => Promise<unknown>) => {
        const events: ChangeEvent[] = [];
        const listener = (event: ChangeEvent) => void (event.table === "articles" && events.push(event));
        feed.on("change", listener);
        await statement();
        expect(await feed.caughtUp()).toBe(true);
        feed.off("change", listener);
        return [...new Set(events.flatMap(purgeTagsOf))];
      };
      const unpublished = await story("libel-claim");
      const removed = await story("court-order");
      const expected = (id: string, slug: string) => expect.arrayContaining([`story:${id}`, `article:${slug}`, "home", "category:courts", "feeds", "sitemaps"]);

      expect(await heard(() => t.db.execute(sql`update articles set status = 'draft' where id = ${unpublished}`))).toEqual(expected(unpublished, "libel-claim"));
      expect(await heard(() => t.db.execute(sql`delete from articles where id = ${removed}`))).toEqual(expected(removed, "court-order"));
    } finally {
      await feed.stop();
    }
  });
});

describe("ad campaigns (issue 43)", () => {
  test("a change to the campaigns purges every page at the CDN (its copies are the ones with empty slots)", async () => {
    const feed = new ChangeFeed(t.url, createLogger("silent"));
    await feed.start();
    try {
      const events: ChangeEvent[] = [];
      const listener = (event: ChangeEvent) => void (event.table.startsWith("ad") && events.push(event));
      feed.on("change", listener);
      const { rows } = await t.db.execute<{ id: string }>(sql`insert into advertisers (name) values ('Harbour Garage') returning id`);
      await t.db.execute(
        sql`insert into ad_campaigns (advertiser_id, name, starts_on, ends_on, slots) values (${rows[0]!.id}, 'Tyres', current_date, current_date + 7, '{article}')`,
      );
      await t.db.execute(sql`update ad_campaigns set paused = true`);
      expect(await feed.caughtUp()).toBe(true);
      feed.off("change", listener);
      expect(events.map((event) => event.table)).toEqual(["advertisers", "ad_campaigns", "ad_campaigns"]);
      for (const event of events) expect(purgeTagsOf(event)).toEqual([SITE_TAG]);
    } finally {
      await feed.stop();
    }
  });
});
