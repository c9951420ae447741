import { sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { beforeEach, describe, expect, test } from "vitest";
import { createDb } from "~/db/client.server";
import { articles, audienceDayVisitors, audienceSalts, categories, NO_STORY } from "~/db/schema";
import { CHANGE_CHANNEL } from "~/lib/change-feed.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { AUDIENCE_NOTICE, AudienceRecorder } from "./audience-recorder.server";
import { siteDayOf, visitorHash, VisitorSalts } from "./visitor-hash.server";

const { db, url } = await createTestDatabase();
const log = pino({ level: process.env.TEST_LOG ?? "silent" });
const TZ = "America/New_York";
const ORIGIN = "https://news.example.org";

const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
];
const ADDRESSES = ["198.51.100.1", "198.51.100.2", "198.51.100.3"];
const REFERRERS = ["https://www.google.com/", "https://t.co/abc", ""];

let storyId = "";
let draftSlug = "";

async function createStory(slug: string, status: "published" | "draft" = "published") {
  const [category] = await db.insert(categories).values({ name: `Cat ${slug}`, slug: `cat-${slug}` }).returning();
  const [article] = await db
    .insert(articles)
    .values({ title: slug, slug, content: "Body", categoryId: category!.id, status, publishedAt: status === "published" ? new Date(Date.now() - 60_000) : null })
    .returning();
  return article!.id;
}

type EventRow = {
  path: string;
  article_id: string | null;
  visitor: string;
  new_visitor: boolean;
  new_story_visitor: boolean;
  source: string;
  source_host: string;
  utm_campaign: string;
  device: string;
};

async function events() {
  const { rows } = await db.execute<EventRow>(sql`select path, article_id, encode(visitor, 'hex') as visitor, new_visitor, new_story_visitor, source, source_host, utm_campaign, device from audience_events order by at, path`);
  return rows;
}

const recorder = (options: Partial<ConstructorParameters<typeof AudienceRecorder>[0]> = {}) => new AudienceRecorder({ db, log, timeZone: TZ, siteOrigin: ORIGIN, ...options });

beforeEach(async () => {
  await db.execute(sql`delete from audience_events`);
  await db.execute(sql`delete from audience_reads`);
  await db.delete(audienceDayVisitors);
  await db.delete(audienceSalts);
  if (!storyId) {
    storyId = await createStory("floods");
    draftSlug = "secret-draft";
    await createStory(draftSlug, "draft");
  }
});

describe("AudienceRecorder", () => {
  test("30 loads from 3 readers in two processes: 30 events, 3 new visitors, one new story visitor each, sources and devices", async () => {
    // Two processes: each its own pool and recorder, the same database.
    const other = createDb(url, 2);
    const first = recorder();
    const second = new AudienceRecorder({ db: other.db, log, timeZone: TZ, siteOrigin: ORIGIN });
    await first.start(60_000);
    await second.start(60_000);
    try {
      const at = Date.now();
      for (let n = 0; n < 30; n++) {
        const reader = n % 3;
        const which = n % 2 === 0 ? first : second;
        which.record({ path: "/article/floods", at: at + n, address: ADDRESSES[reader]!, userAgent: AGENTS[reader]!, referrer: REFERRERS[reader], query: "" });
      }
      await Promise.all([first.flush(), second.flush()]);
    } finally {
      await first.stop();
      await second.stop();
      await other.pool.end();
    }
    const rows = await events();
    expect(rows).toHaveLength(30);
    expect(rows.every((row) => row.article_id === storyId && row.path === "/article/floods")).toBe(true);
    expect(new Set(rows.map((row) => row.visitor)).size).toBe(3);
    expect(rows.filter((row) => row.new_visitor)).toHaveLength(3);
    expect(rows.filter((row) => row.new_story_visitor)).toHaveLength(3);
    // Each visitor is new exactly once, whichever process wrote its first load.
    for (const visitor of new Set(rows.map((row) => row.visitor))) {
      expect(rows.filter((row) => row.visitor === visitor && row.new_visitor)).toHaveLength(1);
      expect(rows.filter((row) => row.visitor === visitor && row.new_story_visitor)).toHaveLength(1);
    }
    expect(rows.filter((row) => row.source === "search" && row.source_host === "google.com")).toHaveLength(10);
    expect(rows.filter((row) => row.source === "social" && row.source_host === "t.co")).toHaveLength(10);
    expect(rows.filter((row) => row.source === "direct")).toHaveLength(10);
    expect(rows.filter((row) => row.device === "desktop")).toHaveLength(10);
    expect(rows.filter((row) => row.device === "phone")).toHaveLength(10);
    expect(rows.filter((row) => row.device === "tablet")).toHaveLength(10);
    // Today's visitors: each reader once for the site and once for the story.
    const visitors = await db.select().from(audienceDayVisitors);
    expect(visitors.filter((row) => row.articleId === NO_STORY)).toHaveLength(3);
    expect(visitors.filter((row) => row.articleId === storyId)).toHaveLength(3);
    // Both processes agreed on one salt.
    expect(await db.select().from(audienceSalts)).toHaveLength(1);
  });

  test("a reread later in the day is not new; another page is new to the story list only for stories; a draft's load has no story", async () => {
    const audience = recorder();
    await audience.start(60_000);
    const reader = { address: ADDRESSES[0]!, userAgent: AGENTS[0]! };
    audience.record({ path: "/article/floods", ...reader });
    await audience.flush();
    audience.record({ path: "/article/floods", ...reader });
    audience.record({ path: "/", ...reader, query: "?utm_source=newsletter&utm_campaign=morning" });
    audience.record({ path: `/article/${draftSlug}`, ...reader });
    await audience.stop();
    const rows = await events();
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatchObject({ new_visitor: true, new_story_visitor: true });
    for (const row of rows.slice(1)) expect(row).toMatchObject({ new_visitor: false, new_story_visitor: false });
    expect(rows.find((row) => row.path === "/")).toMatchObject({ article_id: null, source: "newsletter", utm_campaign: "morning" });
    expect(rows.find((row) => row.path === `/article/${draftSlug}`)).toMatchObject({ article_id: null });
  });

  test("a missing partition is made and the batch written", async () => {
    const today = new Date().toISOString().slice(0, 10).replaceAll("-", "");
    await db.execute(sql.raw(`drop table if exists audience_events_${today}`));
    const audience = recorder();
    await audience.start(60_000);
    audience.record({ path: "/article/floods", address: ADDRESSES[1]!, userAgent: AGENTS[1]! });
    await audience.stop();
    expect(await events()).toHaveLength(1);
    const { rows } = await db.execute<{ made: string | null }>(sql.raw(`select to_regclass('audience_events_${today}')::text as made`));
    expect(rows[0]!.made).toBe(`audience_events_${today}`);
    expect(audience.pendingLoads()).toBe(0);
  });

  test("a passing database error keeps the loads for the next flush", async () => {
    const broken = createDb(url.replace(/\/[^/]*$/, "/no_such_database_here"), 1);
    const audience = new AudienceRecorder({ db: broken.db, log, timeZone: TZ, siteOrigin: ORIGIN });
    try {
      audience.record({ path: "/article/floods", address: ADDRESSES[0]!, userAgent: AGENTS[0]! });
      await audience.flush();
      expect(audience.pendingLoads()).toBe(1);
    } finally {
      await broken.pool.end();
    }
  });

  test("loads before the day's salt is read are hashed at the flush, like the rest", async () => {
    const audience = recorder();
    // Not started: no salt in memory yet.
    audience.record({ path: "/article/floods", address: ADDRESSES[2]!, userAgent: AGENTS[2]! });
    await audience.flush();
    audience.record({ path: "/article/floods", address: ADDRESSES[2]!, userAgent: AGENTS[2]! });
    await audience.flush();
    const rows = await events();
    expect(rows).toHaveLength(2);
    expect(rows[0]!.visitor).toBe(rows[1]!.visitor);
    const [salt] = await db.select().from(audienceSalts);
    expect(rows[0]!.visitor).toBe(visitorHash(salt!.salt, ORIGIN, ADDRESSES[2]!, AGENTS[2]!).toString("hex"));
  });

  test("a flush that wrote sends one change notice, and no more than one per 2 s", async () => {
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (message) => {
      if (message.payload?.includes("audience_events")) heard.push(message.payload);
    });
    await listener.query(`listen ${CHANGE_CHANNEL}`);
    let clock = Date.now();
    const audience = recorder({ now: () => clock });
    try {
      for (let n = 0; n < 3; n++) {
        audience.record({ path: "/", address: ADDRESSES[0]!, userAgent: AGENTS[0]! });
        await audience.flush();
        clock += 500;
      }
      await listener.query("select 1");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard).toEqual([AUDIENCE_NOTICE]);
      clock += 2000;
      // The write of 1.5 s ago is told at the next flush once 2 s have passed, with nothing new.
      await audience.flush();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard).toHaveLength(2);
      await audience.flush();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard).toHaveLength(2);
    } finally {
      await listener.end();
    }
  });

  test("reading reports of a public story are stored with the visitor; others are dropped", async () => {
    const audience = recorder();
    await audience.start(60_000);
    const reader = { address: ADDRESSES[0]!, userAgent: AGENTS[0]! };
    audience.record({ path: "/article/floods", ...reader });
    audience.recordRead({ path: "/article/floods", loadId: "0b8c4c1e-0000-4000-8000-000000000001", engagedMs: 4200, depth: 50, ...reader });
    audience.recordRead({ path: `/article/${draftSlug}`, loadId: "0b8c4c1e-0000-4000-8000-000000000002", engagedMs: 100, depth: 25, ...reader });
    audience.recordRead({ path: "/category/news", loadId: "0b8c4c1e-0000-4000-8000-000000000003", engagedMs: 100, depth: 25, ...reader });
    await audience.stop();
    const { rows } = await db.execute<{ article_id: string; visitor: string; engaged_ms: number; depth: number; load_id: string }>(
      sql`select article_id, encode(visitor, 'hex') as visitor, engaged_ms, depth, load_id from audience_reads`,
    );
    expect(rows).toEqual([{ article_id: storyId, visitor: (await events())[0]!.visitor, engaged_ms: 4200, depth: 50, load_id: "0b8c4c1e-0000-4000-8000-000000000001" }]);
  });
});

describe("VisitorSalts", () => {
  test("the same reader has one hash within a site day and another on the next site day", async () => {
    // 11:00 in New York, then 23:30 the same day, then 00:30 the next day (moved clock).
    let clock = Date.parse("2026-11-10T16:00:00Z");
    const salts = new VisitorSalts(db, TZ, () => clock);
    const hashNow = async () => visitorHash((await salts.salt())!.salt, ORIGIN, ADDRESSES[0]!, AGENTS[0]!).toString("hex");
    const morning = await hashNow();
    clock = Date.parse("2026-11-11T04:30:00Z");
    expect(siteDayOf(clock, TZ)).toBe("2026-11-10");
    expect(await hashNow()).toBe(morning);
    clock = Date.parse("2026-11-11T05:30:00Z");
    expect(siteDayOf(clock, TZ)).toBe("2026-11-11");
    const nextDay = await hashNow();
    expect(nextDay).not.toBe(morning);
    // Another process agrees on each day's salt.
    const elsewhere = new VisitorSalts(db, TZ, () => clock);
    expect(visitorHash((await elsewhere.salt())!.salt, ORIGIN, ADDRESSES[0]!, AGENTS[0]!).toString("hex")).toBe(nextDay);
    expect((await db.select({ day: audienceSalts.day }).from(audienceSalts)).map((row) => row.day).sort()).toEqual(["2026-11-10", "2026-11-11"]);
    // A past day's salt is never made again once deleted.
    await db.execute(sql`delete from audience_salts where day = '2026-11-10'`);
    expect(await salts.salt(Date.parse("2026-11-10T16:00:00Z"))).toBeNull();
    expect(await db.select().from(audienceSalts)).toHaveLength(1);
  });
});
