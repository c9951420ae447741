import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { AdBook } from "../app/domain/ads/ad-book.server";
import { AdRecorder } from "../app/domain/ads/ad-recorder.server";
import { adCampaigns, adCreatives, advertisers, categories } from "../app/db/schema";
import { fromDateTimeLocal } from "../app/lib/dates";
import { createLogger } from "../app/lib/logger.server";
import { createTestDatabase } from "../tests/setup/test-database";
import { adSlotFiller } from "./ad-filler";
import { cacheDoor } from "./cache-door";
import { securityHeaderWriter } from "./middleware/security-headers";
import { slotMarker } from "./nonced-body";
import { PageCache } from "./page-cache";
import { cachedAnswer } from "./request-handler";

// The door filling a stored page's ad slots (issue 43, decision 0061), with a real book and recorder:
// a filled answer is the reader's own (no shared cache, no validator, never a 304); a bot's or a
// prefetch's load gets the ad but counts no impression (the view rule).

const t = await createTestDatabase();
const log = createLogger("silent");
const SECRET = "the door's test secret";
const RENDERED_NONCE = "RenderedNonce_01234567";
const chrome = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36" };
const googlebot = { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };
const pageWith = (slot: string) =>
  Buffer.from(`<!doctype html><script nonce="${RENDERED_NONCE}">go()</script><main><p>story</p><aside>${slotMarker(slot)}</aside></main>`);

const cache = new PageCache();
const book = new AdBook(t.db, log, { timeZone: "Europe/London", secret: SECRET });
const recorder = new AdRecorder(t.db, log);
const counted: string[] = [];
let origin = "";
let server: http.Server;
let creativeId = "";

/** Impressions written for the creative (after a flush). */
async function impressions(): Promise<number> {
  await recorder.flush();
  const rows = await t.db.execute<{ n: string }>(sql`select coalesce(sum(impressions), 0)::text as n from ad_days where creative_id = ${creativeId}`);
  return Number(rows.rows[0]!.n);
}

beforeAll(async () => {
  const [news] = await t.db.insert(categories).values({ name: "News", slug: "news" }).returning();
  const [advertiser] = await t.db.insert(advertisers).values({ name: "Theatre Royal" }).returning();
  const [campaign] = await t.db
    .insert(adCampaigns)
    .values({ advertiserId: advertiser!.id, name: "Hamlet", startsOn: "2020-01-01", endsOn: "2099-12-31", slots: ["article"], categoryIds: [news!.id] })
    .returning();
  const [creative] = await t.db
    .insert(adCreatives)
    .values({ campaignId: campaign!.id, size: "box", kind: "text", headline: "Hamlet, from Friday", body: "Tickets at the box office", linkUrl: "https://theatre.example/hamlet" })
    .returning();
  creativeId = creative!.id;
  await book.reload();
  expect(book.size).toBe(1);
  const door = cacheDoor({ cache, writeSecurityHeaders: securityHeaderWriter({ closing: () => false }), onPageView: (path) => void counted.push(path), fillSlots: adSlotFiller(book, recorder) });
  server = http.createServer((req, res) => {
    if (!door(req, res)) res.writeHead(299).end("app");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const headers: [string, string][] = [
    ["content-type", "text/html; charset=utf-8"],
    ["cache-control", "public, max-age=0, s-maxage=86400"],
    ["cache-tag", "site,article:in-news"],
  ];
  cache.set("/article/in-news", 200, headers, pageWith("article-in-news"), RENDERED_NONCE, ["site"]);
  cache.set("/article/in-sports", 200, headers, pageWith("article-in-sports"), RENDERED_NONCE, ["site"]);
});
beforeEach(async () => {
  await recorder.flush();
  await t.db.execute(sql`truncate ad_days`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await recorder.stop();
});

describe("the door filling ad slots", () => {
  test("a filled answer carries the ad, is private and no-store, has no ETag, and no shared cache's headers", async () => {
    const answer = await fetch(`${origin}/article/in-news`, { headers: chrome });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-cache")).toBe("HIT");
    expect(answer.headers.get("etag")).toBeNull();
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    expect(answer.headers.get("cache-tag")).toBeNull();
    const html = await answer.text();
    expect(html).toContain("Hamlet, from Friday");
    expect(html).toMatch(/<a href="\/ads\/click\/[\w.-]+" rel="sponsored" data-ad-token=/);
    expect(html).not.toContain("frontpage-slot");
    const nonce = /'nonce-([\w-]{22})'/.exec(answer.headers.get("content-security-policy") ?? "")?.[1];
    expect(html).toContain(`<script nonce="${nonce}">`);
    // Gzipped as well.
    const gzipped = await new Promise<http.IncomingMessage>((resolve) => http.get(`${origin}/article/in-news`, { headers: { ...chrome, "Accept-Encoding": "gzip" } }, resolve));
    const chunks: Buffer[] = [];
    for await (const chunk of gzipped) chunks.push(chunk as Buffer);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.etag).toBeUndefined();
    expect(zlib.gunzipSync(Buffer.concat(chunks)).toString()).toContain("Hamlet, from Friday");
  });

  test("a page no campaign fills goes out as stored: shared cache headers, its ETag, 304 to the version held, the slot empty", async () => {
    const answer = await fetch(`${origin}/article/in-sports`, { headers: chrome });
    const etag = answer.headers.get("etag");
    expect(etag).toMatch(/^W\/"/);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=86400");
    expect(await answer.text()).toContain("<aside></aside>");
    expect((await fetch(`${origin}/article/in-sports`, { headers: { ...chrome, "If-None-Match": etag! } })).status).toBe(304);
  });

  test("a filled page is never answered 304, whatever validator the browser sends", async () => {
    const stored = cache.get("/article/in-news")!;
    for (const validator of [stored.etag, "*", `"x", ${stored.etag}`]) {
      const answer = await fetch(`${origin}/article/in-news`, { headers: { ...chrome, "If-None-Match": validator } });
      expect(answer.status, validator).toBe(200);
      expect(await answer.text()).toContain("Hamlet, from Friday");
    }
    // cachedAnswer itself, as the Express path calls it.
    const req = { method: "GET", url: "/article/in-news", headers: { ...chrome, "if-none-match": stored.etag } } as unknown as http.IncomingMessage;
    const filled = cachedAnswer(req, stored, "HIT", "AnswerNonce_0123456789", undefined, adSlotFiller(book, recorder));
    expect(filled.status).toBe(200);
    expect(filled.headers.map((h) => h.toLowerCase())).not.toContain("etag");
    expect(filled.body!.toString()).toContain("Hamlet, from Friday");
    filled.release?.();
    const unfilled = cachedAnswer(req, stored, "HIT", "AnswerNonce_0123456789", undefined, { fill: () => null, emptyFor: () => null });
    expect(unfilled.status).toBe(304);
  });

  test("each reader's load counts an impression; a bot's and a prefetch's get the ad and count none; a HEAD is not filled", async () => {
    counted.length = 0;
    for (let i = 0; i < 3; i++) await (await fetch(`${origin}/article/in-news`, { headers: chrome })).text();
    expect(await impressions()).toBe(3);
    const bot = await (await fetch(`${origin}/article/in-news`, { headers: googlebot })).text();
    const prefetch = await (await fetch(`${origin}/article/in-news`, { headers: { ...chrome, "Sec-Purpose": "prefetch" } })).text();
    const prerender = await (await fetch(`${origin}/article/in-news`, { headers: { ...chrome, "Sec-Purpose": "prefetch;prerender" } })).text();
    for (const html of [bot, prefetch, prerender]) expect(html).toContain("Hamlet, from Friday");
    const head = await fetch(`${origin}/article/in-news`, { method: "HEAD", headers: chrome });
    expect(head.status).toBe(200);
    expect(await impressions()).toBe(3);
    // The page views follow the same rule.
    expect(counted).toEqual(["/article/in-news", "/article/in-news", "/article/in-news"]);
  });

  test("a page left empty while a campaign for its slot starts tomorrow is kept by a shared cache only until the site's day turns", async () => {
    const today = book.today();
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const [advertiser] = await t.db.insert(advertisers).values({ name: "Sports shop" }).returning();
    const [campaign] = await t.db
      .insert(adCampaigns)
      .values({ advertiserId: advertiser!.id, name: "Boots sale", startsOn: tomorrow, endsOn: "2099-12-31", slots: ["article"] })
      .returning();
    await t.db.insert(adCreatives).values({ campaignId: campaign!.id, size: "box", kind: "text", headline: "Boots, half price", body: "From tomorrow", linkUrl: "https://shop.example/" });
    try {
      await book.reload();
      const before = Date.now();
      const answer = await fetch(`${origin}/article/in-sports`, { headers: chrome });
      const untilMidnight = Math.ceil((fromDateTimeLocal(`${tomorrow}T00:00`, "Europe/London")!.getTime() - before) / 1000);
      expect(await answer.text()).toContain("<aside></aside>");
      const seconds = Number(/^public, max-age=0, s-maxage=(\d+)$/.exec(answer.headers.get("cache-control") ?? "")?.[1]);
      expect(seconds).toBeGreaterThanOrEqual(untilMidnight - 5);
      expect(seconds).toBeLessThanOrEqual(Math.min(untilMidnight, 86_400));
      expect(answer.headers.get("cdn-cache-control")).toBe(`max-age=${seconds}`);
      expect(answer.headers.get("surrogate-control")).toBe(`max-age=${seconds}`);
      // Still the stored page otherwise: its tags and validator.
      expect(answer.headers.get("cache-tag")).toBe("site,article:in-news");
      expect(answer.headers.get("etag")).toMatch(/^W\/"/);
      // News has its own campaign today: filled, private, as before.
      expect((await fetch(`${origin}/article/in-news`, { headers: chrome })).headers.get("cache-control")).toBe("private, no-store");
    } finally {
      await t.db.delete(adCampaigns).where(sql`id = ${campaign!.id}`);
      await book.reload();
    }
    expect((await fetch(`${origin}/article/in-sports`, { headers: chrome })).headers.get("cache-control")).toBe("public, max-age=0, s-maxage=86400");
  });
});
