import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { adCampaigns, adCreatives, adDays, advertisers, categories, media } from "~/db/schema";
import { ChangeFeed } from "~/lib/change-feed.server";
import { fromDateTimeLocal } from "~/lib/dates";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { AdBook, PACED_EMPTY_SECONDS } from "./ad-book.server";
import type { AdPriorityName, AdSize } from "./ad-slots";
import { adPlacementOf } from "./ad-token.server";

// The live campaigns in memory (issue 43, decision 0061), read from a real database: what fills a
// stored page's slot, by priority, weight, category, dates, pause, archive, size and pacing.

const t = await createTestDatabase();
const db = t.db;
const log = createLogger("silent");
const SECRET = "a test secret of the ad book";
// Not UTC: the site's day starts at 05:00 or 04:00 UTC, so a day taken in UTC would show.
const TIME_ZONE = "America/New_York";

/** An instant on the site's clock. */
const at = (local: string) => fromDateTimeLocal(local, TIME_ZONE)!.getTime();

/** A small seeded generator: the same draws every run. */
function seeded(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
}

let now = at("2026-06-03T10:00");
let newsId = "";
let sportsId = "";
let mediaId = "";

function bookOf(options: { random?: () => number } = {}) {
  return new AdBook(db, log, { timeZone: TIME_ZONE, secret: SECRET, now: () => now, ...options });
}

let advertiserCount = 0;
async function campaign(input: {
  name: string;
  slots: string[];
  priority?: AdPriorityName;
  weight?: number;
  categories?: string[];
  startsOn?: string;
  endsOn?: string;
  goal?: number | null;
  paused?: boolean;
  house?: boolean;
  creatives?: { size: AdSize; kind?: "image" | "text"; headline?: string; archived?: boolean }[];
}) {
  const [advertiser] = await db
    .insert(advertisers)
    .values({ name: `${input.name} Ltd ${++advertiserCount}`, house: input.house ?? false })
    .returning();
  const [row] = await db
    .insert(adCampaigns)
    .values({
      advertiserId: advertiser!.id,
      name: input.name,
      startsOn: input.startsOn ?? "2026-06-01",
      endsOn: input.endsOn ?? "2026-06-10",
      slots: input.slots,
      categoryIds: input.categories ?? [],
      priority: input.priority ?? "standard",
      weight: input.weight ?? 1,
      impressionGoal: input.goal ?? null,
      paused: input.paused ?? false,
    })
    .returning();
  const creatives = await db
    .insert(adCreatives)
    .values(
      (input.creatives ?? [{ size: "box" }]).map((c) =>
        c.kind === "image"
          ? { campaignId: row!.id, size: c.size, kind: "image" as const, mediaId, alt: `${input.name} picture`, linkUrl: "https://garage.example/", archived: c.archived ?? false }
          : { campaignId: row!.id, size: c.size, kind: "text" as const, headline: c.headline ?? input.name, body: "A line", linkUrl: "https://theatre.example/", archived: c.archived ?? false },
      ),
    )
    .returning();
  return { id: row!.id, creatives: creatives.map((c) => c.id) };
}

/** The campaign that filled one slot (read back from the fragment's token), or null. */
function filledBy(book: AdBook, name: string): string | null {
  const fill = book.fill([name], () => {});
  if (!fill) return null;
  const html = fill.fills[name]!.bytes.toString();
  const token = /data-ad-token="([^"]+)"/.exec(html)?.[1];
  return token ? adPlacementOf(SECRET, token)!.campaignId : null;
}

async function clear() {
  await db.execute(sql`truncate ad_days, ad_creatives, ad_campaigns, advertisers cascade`);
  now = at("2026-06-03T10:00");
}

beforeAll(async () => {
  const rows = await db
    .insert(categories)
    .values([
      { name: "News", slug: "news" },
      { name: "Sports", slug: "sports" },
    ])
    .returning();
  newsId = rows.find((r) => r.slug === "news")!.id;
  sportsId = rows.find((r) => r.slug === "sports")!.id;
  const [picture] = await db.insert(media).values({ bucket: "images", name: "garage.webp", originalName: "garage.webp", contentType: "image/webp", size: 1000 }).returning();
  mediaId = picture!.id;
});
beforeEach(clear);

describe("the ad book", () => {
  test("no campaign: nothing fills, the page goes out as stored", async () => {
    const book = bookOf();
    await book.reload();
    expect(book.size).toBe(0);
    expect(book.fill(["article", "home-top"], () => {})).toBeNull();
    expect(book.fillOne("article")).toBeNull();
  });

  test("a slot is filled from the highest priority that has a campaign for it: sponsorship, then standard, then house", async () => {
    const house = await campaign({ name: "Subscribe", slots: ["article"], priority: "house", house: true });
    const standard = await campaign({ name: "Garage", slots: ["article"], priority: "standard" });
    const sponsor = await campaign({ name: "Theatre", slots: ["article", "contact"], priority: "sponsorship" });
    const book = bookOf();
    await book.reload();
    for (let i = 0; i < 20; i++) expect(filledBy(book, "article")).toBe(sponsor.id);
    await db.execute(sql`update ad_campaigns set paused = true where id = ${sponsor.id}`);
    await book.reload();
    for (let i = 0; i < 20; i++) expect(filledBy(book, "article")).toBe(standard.id);
    expect(filledBy(book, "contact")).toBeNull();
    await db.execute(sql`update ad_campaigns set paused = true where id = ${standard.id}`);
    await book.reload();
    expect(filledBy(book, "article")).toBe(house.id);
    // The newsroom's own ads say whose they are; paid ones say "Advertisement".
    expect(book.fillOne("article")!.html).toContain("From the newsroom");
    await db.execute(sql`update ad_campaigns set paused = false where id = ${standard.id}`);
    await book.reload();
    expect(book.fillOne("article")!.html).toContain("Advertisement");
  });

  test("within a priority, by weight: 1:3 over 4,000 draws is within 3 points of 25/75, and the same seed draws the same", async () => {
    const light = await campaign({ name: "Light", slots: ["article"], weight: 1 });
    const heavy = await campaign({ name: "Heavy", slots: ["article"], weight: 3 });
    const draw = async (seed: number) => {
      const book = bookOf({ random: seeded(seed) });
      await book.reload();
      const seen: string[] = [];
      for (let i = 0; i < 4000; i++) seen.push(filledBy(book, "article")!);
      return seen;
    };
    const seen = await draw(7);
    const share = (id: string) => (100 * seen.filter((s) => s === id).length) / seen.length;
    expect(share(light.id) + share(heavy.id)).toBe(100);
    expect(Math.abs(share(light.id) - 25)).toBeLessThan(3);
    expect(Math.abs(share(heavy.id) - 75)).toBeLessThan(3);
    expect(await draw(7)).toEqual(seen);
    expect(await draw(8)).not.toEqual(seen);
  });

  test("a campaign targeting News fills an article in News, not one in Sports nor the home page; one targeting nothing fills every page", async () => {
    const news = await campaign({ name: "News only", slots: ["article", "home-top"], categories: [newsId], creatives: [{ size: "box" }, { size: "banner" }] });
    const book = bookOf();
    await book.reload();
    expect(filledBy(book, "article-in-news")).toBe(news.id);
    expect(filledBy(book, "article-in-sports")).toBeNull();
    expect(filledBy(book, "article")).toBeNull();
    expect(filledBy(book, "home-top")).toBeNull();
    // Both its categories; and a campaign for every page fills Sports and the home page.
    await db.execute(sql`update ad_campaigns set category_ids = ${sql.param([newsId, sportsId])}::uuid[] where id = ${news.id}`);
    const everywhere = await campaign({ name: "Everywhere", slots: ["article", "home-top"], priority: "house", creatives: [{ size: "box" }, { size: "banner" }] });
    await book.reload();
    expect(filledBy(book, "article-in-sports")).toBe(news.id);
    expect(filledBy(book, "home-top")).toBe(everywhere.id);
    expect(filledBy(book, "article")).toBe(everywhere.id);
    // A category renamed (its slug changed): the book follows it.
    await db.execute(sql`update categories set slug = 'local-news' where id = ${newsId}`);
    await book.reload();
    expect(filledBy(book, "article-in-local-news")).toBe(news.id);
    expect(filledBy(book, "article-in-news")).toBe(everywhere.id);
    await db.execute(sql`update categories set slug = 'news' where id = ${newsId}`);
  });

  test("dates are the site's days, both included: nothing before the start or after the end", async () => {
    const run = await campaign({ name: "Week", slots: ["article"], startsOn: "2026-06-01", endsOn: "2026-06-07" });
    now = at("2026-05-31T23:59");
    const book = bookOf();
    await book.reload();
    expect(filledBy(book, "article")).toBeNull();
    // Read the evening before: the day turning at midnight on the site's clock starts it (no read needed).
    now = at("2026-06-01T00:00");
    expect(filledBy(book, "article")).toBe(run.id);
    now = at("2026-06-07T23:59");
    await book.reload();
    expect(filledBy(book, "article")).toBe(run.id);
    expect(book.today()).toBe("2026-06-07");
    now = at("2026-06-08T00:00");
    expect(filledBy(book, "article")).toBeNull();
    await book.reload();
    expect(book.size).toBe(0);
    // 03:00 UTC on the 8th is still the 7th in New York.
    now = Date.parse("2026-06-08T03:00:00Z");
    await book.reload();
    expect(book.today()).toBe("2026-06-07");
    expect(filledBy(book, "article")).toBe(run.id);
  });

  test("a page left empty is kept by a shared cache until the day a campaign held starts, or a minute while a paced one waits for its share", async () => {
    const book = bookOf();
    await campaign({ name: "Current", slots: ["home-top"], startsOn: "2026-06-01", endsOn: "2026-06-10" });
    await book.reload();
    // Nothing that could fill the article slot: its own lifetime stands.
    expect(book.emptyFor(["article", "article-in-news"])).toBeNull();

    const tomorrow = await campaign({ name: "Tomorrow", slots: ["article"], categories: [newsId], startsOn: "2026-06-04", endsOn: "2026-06-10" });
    now = at("2026-06-03T22:00");
    await book.reload();
    expect(filledBy(book, "article-in-news")).toBeNull();
    expect(book.emptyFor(["article-in-news"])).toBe(2 * 3600);
    expect(book.emptyFor(["home-middle", "article-in-news"])).toBe(2 * 3600);
    // Another category, or another slot, waits for nothing.
    expect(book.emptyFor(["article-in-sports"])).toBeNull();
    now = at("2026-06-03T23:59") + 59_500;
    expect(book.emptyFor(["article-in-news"])).toBe(1);
    now = at("2026-06-04T00:00");
    expect(filledBy(book, "article-in-news")).toBe(tomorrow.id);

    // Paced out for now (a goal of 100 over 10 days, its share served by this hour): a minute.
    await clear();
    const paced = await campaign({ name: "Paced", slots: ["article"], goal: 100, startsOn: "2026-06-01", endsOn: "2026-06-10" });
    now = at("2026-06-01T12:00");
    await book.reload();
    let served = 0;
    while (filledBy(book, "article") === paced.id) served++;
    expect(served).toBeGreaterThan(0);
    expect(book.emptyFor(["article"])).toBe(PACED_EMPTY_SECONDS);
    // Its goal reached: nothing to wait for.
    await db.insert(adDays).values({ day: "2026-05-31", campaignId: paced.id, creativeId: paced.creatives[0]!, slot: "article", impressions: 100 });
    await book.reload();
    expect(book.emptyFor(["article"])).toBeNull();
  });

  test("a paused campaign and an archived creative are not shown", async () => {
    const run = await campaign({ name: "Two creatives", slots: ["article"], creatives: [{ size: "box", headline: "Kept" }, { size: "box", headline: "Archived", archived: true }] });
    const paused = await campaign({ name: "Paused", slots: ["article"], priority: "sponsorship", paused: true });
    const book = bookOf({ random: seeded(3) });
    await book.reload();
    for (let i = 0; i < 50; i++) {
      const one = book.fillOne("article")!;
      expect(one.placement).toEqual({ campaignId: run.id, creativeId: run.creatives[0], slot: "article" });
      expect(one.html).toContain("Kept");
    }
    expect(paused.id).not.toBe(run.id);
    // Every creative archived: the campaign has nothing to show.
    await db.execute(sql`update ad_creatives set archived = true where campaign_id = ${run.id}`);
    await book.reload();
    expect(book.fillOne("article")).toBeNull();
  });

  test("sizes match: a box-only campaign never fills a banner slot, a banner one never a box slot", async () => {
    const box = await campaign({ name: "Box", slots: ["article", "home-top", "home-middle"], creatives: [{ size: "box", kind: "image" }] });
    const book = bookOf();
    await book.reload();
    expect(filledBy(book, "home-top")).toBeNull();
    expect(filledBy(book, "home-middle")).toBe(box.id);
    const html = book.fillOne("article")!.html;
    expect(html).toContain('alt="Box picture"');
    expect(html).toContain('width="300" height="250"');
    expect(html).toContain("/media/images/garage.webp");
    const banner = await campaign({ name: "Banner", slots: ["article", "home-top"], priority: "sponsorship", creatives: [{ size: "banner" }] });
    await book.reload();
    expect(filledBy(book, "home-top")).toBe(banner.id);
    expect(filledBy(book, "article")).toBe(box.id);
  });

  test("an impression goal is paced evenly: 1,000 over 10 days serves about 100 a day, about half of it by noon; then lower priorities fill", async () => {
    const goal = await campaign({ name: "Goal", slots: ["article"], priority: "sponsorship", goal: 1000, startsOn: "2026-06-01", endsOn: "2026-06-10" });
    const house = await campaign({ name: "House", slots: ["article"], priority: "house", house: true });
    now = at("2026-06-01T12:00");
    const book = bookOf();
    await book.reload();
    const serve = (n: number) => {
      let served = 0;
      for (let i = 0; i < n; i++) if (filledBy(book, "article") === goal.id) served++;
      return served;
    };
    const byNoon = serve(300);
    expect(byNoon).toBeGreaterThanOrEqual(50);
    expect(byNoon).toBeLessThanOrEqual(60);
    // Paced out, the slot still fills: from the house campaign.
    expect(filledBy(book, "article")).toBe(house.id);
    now = at("2026-06-01T23:59");
    const byEvening = byNoon + serve(300);
    expect(byEvening).toBeGreaterThanOrEqual(98);
    expect(byEvening).toBeLessThanOrEqual(102);

    // Day 6 of 10, with 500 served before (as the database says): today's share is 500 / 5 = 100.
    await db.insert(adDays).values({ day: "2026-06-05", campaignId: goal.id, creativeId: goal.creatives[0]!, slot: "article", impressions: 500 });
    now = at("2026-06-06T23:59");
    await book.reload();
    const day6 = serve(300);
    expect(day6).toBeGreaterThanOrEqual(98);
    expect(day6).toBeLessThanOrEqual(102);

    // What another process served today counts too (read on the minute's reload): goal reached, nothing more.
    await db.insert(adDays).values({ day: "2026-06-06", campaignId: goal.id, creativeId: goal.creatives[0]!, slot: "article", impressions: 500 });
    await book.reload();
    expect(serve(50)).toBe(0);
  });

  test("a bot's or a prefetch's fill (not counted) shows the paced campaign but does not use up its share of the day", async () => {
    const goal = await campaign({ name: "Goal", slots: ["article"], goal: 1000, startsOn: "2026-06-01", endsOn: "2026-06-10" });
    now = at("2026-06-01T12:00");
    const book = bookOf();
    await book.reload();
    for (let i = 0; i < 300; i++) expect(book.fill(["article"], null)?.fills.article).toBeDefined();
    for (let i = 0; i < 300; i++) expect(book.fillOne("article", false)).not.toBeNull();
    let served = 0;
    for (let i = 0; i < 300; i++) if (filledBy(book, "article") === goal.id) served++;
    expect(served).toBeGreaterThanOrEqual(50);
    expect(served).toBeLessThanOrEqual(60);
  });

  test("reloads on the ad tables' change notice: a campaign added, then paused, shows and goes without a call", async () => {
    const feed = new ChangeFeed(t.url, log);
    await feed.start();
    try {
      const book = bookOf();
      book.watch(feed);
      await book.reload();
      expect(book.fillOne("article")).toBeNull();
      const run = await campaign({ name: "Noticed", slots: ["article"] });
      await expect.poll(() => filledBy(book, "article"), { timeout: 5000 }).toBe(run.id);
      await db.execute(sql`update ad_campaigns set paused = true where id = ${run.id}`);
      await expect.poll(() => filledBy(book, "article"), { timeout: 5000 }).toBeNull();
    } finally {
      await feed.stop();
    }
  });

  test("fill counts an impression per filled slot, keyed by the site's day and the placement", async () => {
    const run = await campaign({ name: "Counted", slots: ["article", "home-top"], creatives: [{ size: "box" }, { size: "banner" }] });
    const book = bookOf();
    await book.reload();
    const keys: string[] = [];
    const fill = book.fill(["home-top", "article-in-news", "category"], (key) => keys.push(key))!;
    expect(Object.keys(fill.fills).sort()).toEqual(["article-in-news", "home-top"]);
    expect(keys).toEqual(fill.keys);
    expect(keys).toEqual([`2026-06-03|${run.id}|${run.creatives[1]}|home-top`, `2026-06-03|${run.id}|${run.creatives[0]}|article`]);
  });
});

afterAll(async () => {
  await clear();
});
