import { sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { createDb } from "~/db/client.server";
import { adCampaigns, adCreatives, advertisers } from "~/db/schema";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { AdRecorder, placementKey } from "./ad-recorder.server";
import type { AdPlacement } from "./ad-token.server";

// What the ads got (issue 43, decision 0061), written in batches into ad_days; a click counted once
// per token, reader and day, a viewable impression once per token and answer (ad_marks), in one
// process or several.

const t = await createTestDatabase();
const db = t.db;
const log = createLogger("silent");
const DAY = "2026-06-03";

async function placements(): Promise<{ a: AdPlacement; b: AdPlacement }> {
  const [advertiser] = await db.insert(advertisers).values({ name: "Smith's Garage" }).returning();
  const [campaign] = await db
    .insert(adCampaigns)
    .values({ advertiserId: advertiser!.id, name: "MOT week", startsOn: "2026-06-01", endsOn: "2026-06-10", slots: ["article", "home-middle"] })
    .returning();
  const rows = await db
    .insert(adCreatives)
    .values([
      { campaignId: campaign!.id, size: "box", kind: "text", headline: "MOT while you wait", linkUrl: "https://garage.example/" },
      { campaignId: campaign!.id, size: "box", kind: "text", headline: "Tyres", linkUrl: "https://garage.example/tyres" },
    ])
    .returning();
  return {
    a: { campaignId: campaign!.id, creativeId: rows[0]!.id, slot: "article" },
    b: { campaignId: campaign!.id, creativeId: rows[1]!.id, slot: "home-middle" },
  };
}

async function counts() {
  const rows = await db.execute<{ day: string; creative_id: string; slot: string; impressions: string; viewable: string; clicks: string }>(
    sql`select to_char(day, 'YYYY-MM-DD') as day, creative_id, slot, impressions, viewable, clicks from ad_days order by day, slot`,
  );
  return rows.rows.map((r) => ({ day: r.day, creative: r.creative_id, slot: r.slot, impressions: Number(r.impressions), viewable: Number(r.viewable), clicks: Number(r.clicks) }));
}

beforeEach(async () => {
  await db.execute(sql`truncate ad_days, ad_marks, ad_creatives, ad_campaigns, advertisers cascade`);
});

describe("the ad recorder", () => {
  test("impressions are summed in memory and added into ad_days on each flush", async () => {
    const { a, b } = await placements();
    const recorder = new AdRecorder(db, log);
    for (let i = 0; i < 7; i++) recorder.recordImpression(placementKey(DAY, a));
    recorder.recordImpression(placementKey(DAY, b));
    recorder.recordImpression(placementKey("2026-06-04", a));
    expect(recorder.pendingImpressions()).toBe(9);
    await recorder.flush();
    expect(recorder.pendingImpressions()).toBe(0);
    for (let i = 0; i < 3; i++) recorder.recordImpression(placementKey(DAY, a));
    await recorder.flush();
    // Nothing waiting: a flush writes nothing.
    await recorder.flush();
    expect(await counts()).toEqual([
      { day: DAY, creative: a.creativeId, slot: "article", impressions: 10, viewable: 0, clicks: 0 },
      { day: DAY, creative: b.creativeId, slot: "home-middle", impressions: 1, viewable: 0, clicks: 0 },
      { day: "2026-06-04", creative: a.creativeId, slot: "article", impressions: 1, viewable: 0, clicks: 0 },
    ]);
  });

  test("a reader's second click the same day counts nothing: in one batch, across flushes, and in another process; another reader's or another day's counts", async () => {
    const { a } = await placements();
    const first = new AdRecorder(db, log);
    const visitor = Buffer.from("visitor-hash-of-reader-one");
    first.recordClick(DAY, a, visitor);
    first.recordClick(DAY, a, visitor);
    await first.flush();
    expect((await counts())[0]).toMatchObject({ clicks: 1 });
    first.recordClick(DAY, a, visitor);
    await first.flush();
    // A second process: its own pool and recorder, the same database.
    const other = createDb(t.url, 2);
    try {
      const second = new AdRecorder(other.db, log);
      second.recordClick(DAY, a, visitor);
      await second.flush();
      expect((await counts())[0]).toMatchObject({ clicks: 1 });
      // Both processes at once with the same click: one counts.
      const reader = Buffer.from("visitor-hash-of-reader-two");
      first.recordClick(DAY, a, reader);
      second.recordClick(DAY, a, reader);
      await Promise.all([first.flush(), second.flush()]);
      expect((await counts())[0]).toMatchObject({ clicks: 2 });
    } finally {
      await other.pool.end();
    }
    first.recordClick("2026-06-04", a, visitor);
    await first.flush();
    expect((await counts()).map((row) => row.clicks)).toEqual([2, 1]);
  });

  test("a viewable impression counts once per token and answer: the same answer's second report counts nothing, another answer's counts", async () => {
    const { a, b } = await placements();
    const recorder = new AdRecorder(db, log);
    recorder.recordView(DAY, a, "answer-1");
    recorder.recordView(DAY, a, "answer-1");
    recorder.recordView(DAY, a, "answer-2");
    // The same answer, another slot's ad: a mark of its own.
    recorder.recordView(DAY, b, "answer-1");
    await recorder.flush();
    recorder.recordView(DAY, a, "answer-2");
    await recorder.flush();
    const rows = await counts();
    expect(rows.map((r) => [r.slot, r.viewable, r.impressions, r.clicks])).toEqual([
      ["article", 2, 0, 0],
      ["home-middle", 1, 0, 0],
    ]);
  });

  test("a deleted creative's counts are dropped; the rest of the batch is written", async () => {
    const { a, b } = await placements();
    const recorder = new AdRecorder(db, log);
    recorder.recordImpression(placementKey(DAY, a));
    recorder.recordImpression(placementKey(DAY, b));
    recorder.recordClick(DAY, b, "someone");
    recorder.recordView(DAY, b, "answer-9");
    recorder.recordClick(DAY, a, "someone");
    await db.execute(sql`delete from ad_creatives where id = ${b.creativeId}`);
    await recorder.flush();
    expect(await counts()).toEqual([{ day: DAY, creative: a.creativeId, slot: "article", impressions: 1, viewable: 0, clicks: 1 }]);
    expect(recorder.pendingImpressions()).toBe(0);
    // A whole campaign deleted: nothing of it is written, and nothing fails.
    await db.execute(sql`delete from ad_campaigns where id = ${a.campaignId}`);
    recorder.recordImpression(placementKey(DAY, a));
    await recorder.flush();
    expect(recorder.pendingImpressions()).toBe(0);
    expect(await counts()).toEqual([]);
  });

  test("a batch the database cannot take now is kept and written on the next flush", async () => {
    const { a } = await placements();
    // A process whose writes give up after 200 ms of waiting for a lock, while another holds ad_days.
    const holder = createDb(t.url, 1);
    const impatient = createDb(`${t.url}${t.url.includes("?") ? "&" : "?"}options=${encodeURIComponent("-c lock_timeout=200")}`, 1);
    try {
      const recorder = new AdRecorder(impatient.db, log);
      recorder.recordImpression(placementKey(DAY, a));
      recorder.recordClick(DAY, a, "reader");
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = holder.db.transaction(async (tx) => {
        await tx.execute(sql`lock table ad_days in access exclusive mode`);
        locked();
        await released;
      });
      await isLocked;
      await recorder.flush();
      expect(recorder.pendingImpressions()).toBe(1);
      release();
      await holding;
      await recorder.flush();
      expect(recorder.pendingImpressions()).toBe(0);
      expect(await counts()).toMatchObject([{ impressions: 1, clicks: 1 }]);
    } finally {
      await holder.pool.end();
      await impatient.pool.end();
    }
  });
});

afterAll(async () => {
  await db.execute(sql`truncate ad_days, ad_marks, ad_creatives, ad_campaigns, advertisers cascade`);
});
