import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "@playwright/test";
import { expect, expectNoSidewaysScroll, test, waitForHydration } from "./fixtures";
import { categoryId, query } from "./db";

// Issue 43, the reader's side: the newsroom's campaigns chosen at the door for each answer of a cached
// page (server/ad-filler.ts), counted in batches (ad_days), clicks through /ads/click/{token}, a
// client-side navigation's slot filled by /api/ads/fill, and the viewability beacon. Campaign rows go
// in with SQL (the back office has its own journeys); the book reloads on the tables' change notice.

/** A reader's browser (isbot counts HeadlessChrome as a bot, rightly: its loads would count nothing). */
const READER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
test.use({ userAgent: READER_UA });

const run = Date.now().toString(36);
const NEWS_SLUG = `ads-news-${run}`;
const SPORTS_SLUG = `ads-sports-${run}`;
const NEWS_PATH = `/article/${NEWS_SLUG}`;
const SPORTS_PATH = `/article/${SPORTS_SLUG}`;
const ALT = "Ridgeway Motors: MOT while you wait, Ridgeway Road";
const SLOT = 'aside[data-ad-slot-name="article"]';

let landing: http.Server;
let landingUrl = "";
const landed: string[] = [];
let advertiserId = "";
let pausedBefore: string[] = [];

/** The site's day (the server's TIME_ZONE: America/New_York unless set) and the day a week on. */
async function thisWeek(): Promise<{ from: string; to: string }> {
  const [row] = await query<{ from: string; to: string }>(
    `select to_char((now() at time zone 'America/New_York')::date, 'YYYY-MM-DD') as from,
            to_char((now() at time zone 'America/New_York')::date + 6, 'YYYY-MM-DD') as to`,
  );
  return row!;
}

async function addCampaign(input: { name: string; weight?: number; creative: { kind: "image"; alt: string } | { kind: "text"; headline: string; body: string } }) {
  const { from, to } = await thisWeek();
  const [campaign] = await query<{ id: string }>(
    `insert into ad_campaigns (advertiser_id, name, starts_on, ends_on, slots, category_ids, priority, weight)
     values ($1, $2, $3, $4, array['article'], array[$5::uuid], 'standard', $6) returning id`,
    [advertiserId, input.name, from, to, await categoryId("news"), input.weight ?? 1],
  );
  const [image] = await query<{ id: string }>(`select id from media where content_type like 'image/%' and content_type <> 'image/svg+xml' order by created_at, id limit 1`);
  const creative = input.creative;
  const [row] =
    creative.kind === "image"
      ? await query<{ id: string }>(`insert into ad_creatives (campaign_id, size, kind, media_id, alt, link_url) values ($1, 'box', 'image', $2, $3, $4) returning id`, [
          campaign!.id,
          image!.id,
          creative.alt,
          `${landingUrl}/ridgeway`,
        ])
      : await query<{ id: string }>(`insert into ad_creatives (campaign_id, size, kind, headline, body, link_url) values ($1, 'box', 'text', $2, $3, $4) returning id`, [
          campaign!.id,
          creative.headline,
          creative.body,
          "https://theatre-royal.example/hamlet",
        ]);
  return { campaignId: campaign!.id, creativeId: row!.id };
}

async function countsOf(campaignId: string) {
  const [row] = await query<{ impressions: number; viewable: number; clicks: number }>(
    `select coalesce(sum(impressions), 0)::int as impressions, coalesce(sum(viewable), 0)::int as viewable, coalesce(sum(clicks), 0)::int as clicks
     from ad_days where campaign_id = $1`,
    [campaignId],
  );
  return row!;
}

/** Waits until `read` gives `expected`, then checks it stays there past another flush (the recorder writes each second). */
async function expectSettledAt(read: () => Promise<unknown>, expected: unknown, what: string) {
  await expect.poll(read, { message: what, timeout: 10_000 }).toEqual(expected);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(await read(), `${what}, after one more flush`).toEqual(expected);
}

/** Loads `path` until its article slot shows `what` (the book reloads on the change notice, a moment after the insert). */
async function loadUntilShown(page: Page, path: string, what: string) {
  await expect
    .poll(
      async () => {
        await page.goto(path);
        return page.locator(`${SLOT} ${what}`).count();
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0);
}

/** The slot's box and the space between what comes before and after it. */
async function slotLayout(page: Page) {
  return page.locator(SLOT).evaluate((aside) => {
    const before = aside.previousElementSibling!.getBoundingClientRect();
    const after = aside.nextElementSibling!.getBoundingClientRect();
    return { display: getComputedStyle(aside).display, height: aside.getBoundingClientRect().height, between: Math.round(after.top - before.bottom) };
  });
}

async function pauseAllBut(keep: string[]) {
  await query(`update ad_campaigns set paused = not (id = any($1::uuid[])) where advertiser_id = $2`, [keep, advertiserId]);
}

/** Another reader: a browser of their own (the click's reader is the day's hash of address and browser). */
async function newReader(browser: Browser, n: number) {
  const context = await browser.newContext({ userAgent: READER_UA.replace("Chrome/142.0.0.0", `Chrome/${130 + n}.0.0.0`) });
  return { context, page: await context.newPage() };
}

test.describe.configure({ mode: "serial" });

test.describe("the newsroom's campaigns on reader pages", () => {
  test.beforeAll(async () => {
    landing = http.createServer((req, res) => {
      landed.push(req.url ?? "");
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end("<!doctype html><title>Ridgeway Motors</title><h1>Ridgeway Motors</h1>");
    });
    await new Promise<void>((resolve) => landing.listen(0, "127.0.0.1", resolve));
    landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}`;
    // No network ad and no other live campaign: an unfilled slot is empty.
    await query(`update website_settings set ad_client_id = null`);
    pausedBefore = (await query<{ id: string }>(`select id from ad_campaigns where not paused`)).map((r) => r.id);
    await query(`update ad_campaigns set paused = true where not paused`);
    for (const [slug, category, title] of [
      [NEWS_SLUG, "news", "Council approves the Ridgeway Road bypass"],
      [SPORTS_SLUG, "sport", "Ridgeway Rovers win the county cup"],
    ] as const) {
      await query(`insert into articles (title, slug, content, excerpt, category_id, status, published_at) values ($1, $2, $3, $4, $5, 'published', now())`, [
        title,
        slug,
        "The vote was close. ".repeat(40),
        "A story for the ad journeys.",
        await categoryId(category),
      ]);
    }
    const [advertiser] = await query<{ id: string }>(`insert into advertisers (name, contact_email) values ($1, 'sales@ridgeway.example') returning id`, [`Ridgeway Motors ${run}`]);
    advertiserId = advertiser!.id;
  });

  test.afterAll(async () => {
    await query(`delete from articles where slug = any($1)`, [[NEWS_SLUG, SPORTS_SLUG]]);
    await query(`update ad_campaigns set paused = false where id = any($1::uuid[])`, [pausedBefore]);
    await new Promise((resolve) => landing.close(resolve));
    if (!advertiserId) return;
    await query(`delete from ad_days where campaign_id in (select id from ad_campaigns where advertiser_id = $1)`, [advertiserId]);
    await query(`delete from ad_campaigns where advertiser_id = $1`, [advertiserId]);
    await query(`delete from advertisers where id = $1`, [advertiserId]);
  });

  test("with no campaign and no network id, the article's ad slot takes no space", async ({ page }) => {
    await page.goto(NEWS_PATH);
    await waitForHydration(page.locator("body"));
    const layout = await slotLayout(page);
    expect(layout.display).toBe("none");
    expect(layout.height).toBe(0);
    // Nothing but the next block's own margin between the story's end and what follows.
    expect(layout.between).toBeLessThanOrEqual(48);
    await expect(page.locator(`${SLOT} a, ${SLOT} ins, ${SLOT} iframe`)).toHaveCount(0);
  });

  test("acceptance 1: an image campaign for the article slot targeting News shows on a News article, links through /ads/click/ to the advertiser; not on Sports", async ({ page, request }) => {
    const { campaignId } = await addCampaign({ name: "MOT week", creative: { kind: "image", alt: ALT } });
    await pauseAllBut([campaignId]);
    await loadUntilShown(page, NEWS_PATH, `img[alt="${ALT}"]`);
    const image = page.getByRole("img", { name: ALT });
    await image.scrollIntoViewIfNeeded();
    await expect(image).toBeVisible();
    // A real image from the media library, loaded.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(page.locator(SLOT).getByText("Advertisement", { exact: true })).toBeVisible();
    const layout = await slotLayout(page);
    expect(layout.display).toBe("block");
    expect(layout.height).toBeGreaterThanOrEqual(250);

    const link = page.locator(SLOT).getByRole("link", { name: ALT });
    const href = (await link.getAttribute("href"))!;
    expect(href).toMatch(/^\/ads\/click\/[\w-]+\.[\w-]+\.article\.[\w-]+$/);
    expect(await link.getAttribute("rel")).toBe("sponsored");
    const answer = await request.get(href, { maxRedirects: 0 });
    expect(answer.status()).toBe(302);
    expect(answer.headers()["location"]).toBe(`${landingUrl}/ridgeway`);
    // An edited token goes nowhere.
    expect((await request.get(`${href.slice(0, -2)}xx`, { maxRedirects: 0 })).status()).toBe(404);
    // Followed in the browser: the advertiser's page.
    await link.click();
    await expect(page).toHaveURL(`${landingUrl}/ridgeway`);
    await expect(page.getByRole("heading", { name: "Ridgeway Motors" })).toBeVisible();

    // A Sports article: the slot is empty, and takes no space.
    await page.goto(SPORTS_PATH);
    await waitForHydration(page.locator("body"));
    await expect(page.locator(`${SLOT} img`)).toHaveCount(0);
    expect((await slotLayout(page)).display).toBe("none");
  });

  test("acceptance 2: 30 loads by 3 readers count 30 impressions; a click counts 1 and redirects 302, the same reader's second click counts nothing", async ({ browser }) => {
    // 30 full page loads on a shared two-core machine.
    test.setTimeout(180_000);
    const [{ id: campaignId }] = await query<{ id: string }>(`select id from ad_campaigns where advertiser_id = $1 and name = 'MOT week'`, [advertiserId]);
    // What earlier loads counted, once written.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = await countsOf(campaignId!);
    const readers = [await newReader(browser, 1), await newReader(browser, 2), await newReader(browser, 3)];
    try {
      for (const { page } of readers) {
        const first = await page.goto(NEWS_PATH, { waitUntil: "domcontentloaded" });
        expect(first!.headers()["etag"]).toBeUndefined();
        expect(first!.headers()["cache-control"]).toBe("private, no-store");
        await expect(page.getByRole("img", { name: ALT })).toBeAttached();
        for (let i = 1; i < 10; i++) {
          // A reload of an answer without a validator is a full 200 (nothing to revalidate).
          const again = await page.reload({ waitUntil: "domcontentloaded" });
          expect(again!.status()).toBe(200);
          await expect(page.getByRole("img", { name: ALT })).toBeAttached();
        }
      }
      await expectSettledAt(async () => (await countsOf(campaignId!)).impressions - before.impressions, 30, "impressions of 30 loads");

      const { page } = readers[0]!;
      const link = page.locator(SLOT).getByRole("link", { name: ALT });
      const href = (await link.getAttribute("href"))!;
      const clicked = page.waitForResponse((response) => response.url().includes("/ads/click/"));
      await link.click();
      expect((await clicked).status()).toBe(302);
      await expect(page).toHaveURL(`${landingUrl}/ridgeway`);
      await expectSettledAt(async () => (await countsOf(campaignId!)).clicks - before.clicks, 1, "one click");
      // The same reader again the same day: still taken to the advertiser, not counted again.
      const second = page.waitForResponse((response) => response.url().includes("/ads/click/"));
      await page.goto(href);
      expect((await second).status()).toBe(302);
      await expect(page).toHaveURL(`${landingUrl}/ridgeway`);
      await expectSettledAt(async () => (await countsOf(campaignId!)).clicks - before.clicks, 1, "the second click of the same reader");
    } finally {
      for (const { context } of readers) await context.close();
    }
  });

  test("acceptance 3: two campaigns of weight 1:1 in the same slot both show over 20 cached loads", async ({ baseURL }) => {
    const [{ id: first }] = await query<{ id: string }>(`select id from ad_campaigns where advertiser_id = $1 and name = 'MOT week'`, [advertiserId]);
    const { campaignId: second } = await addCampaign({ name: "Tyre week", creative: { kind: "image", alt: "Ridgeway Motors: winter tyres fitted" } });
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          for (let i = 0; i < 20; i++) {
            const answer = await fetch(new URL(NEWS_PATH, baseURL), { headers: { "User-Agent": READER_UA } });
            expect(answer.status).toBe(200);
            expect(answer.headers.get("x-cache")).toBe("HIT");
            const html = await answer.text();
            if (html.includes(`alt="${ALT}"`)) seen.add(first!);
            if (html.includes('alt="Ridgeway Motors: winter tyres fitted"')) seen.add(second);
          }
          return seen.size;
        },
        // The first round may come before the book has read the new campaign.
        { timeout: 20_000 },
      )
      .toBe(2);
    await query(`update ad_campaigns set paused = true where id = $1`, [second]);
  });

  test("a client-side navigation fills the article's slot through /api/ads/fill; half the ad in view for a second counts a viewable impression", async ({ page }) => {
    const [{ id: campaignId }] = await query<{ id: string }>(`select id from ad_campaigns where advertiser_id = $1 and name = 'MOT week'`, [advertiserId]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = await countsOf(campaignId!);
    await page.goto("/");
    await waitForHydration(page.locator("body"));
    const filled = page.waitForResponse((response) => response.url().includes("/api/ads/fill?slot=article&c=news"));
    const seen = page.waitForRequest((req) => req.url().endsWith("/api/ads/seen") && req.method() === "POST");
    await page.getByRole("link", { name: "Council approves the Ridgeway Road bypass" }).first().click();
    await expect(page).toHaveURL(NEWS_PATH);
    expect((await filled).status()).toBe(200);
    const image = page.getByRole("img", { name: ALT });
    await expect(image).toBeAttached();
    await expectSettledAt(async () => (await countsOf(campaignId!)).impressions - before.impressions, 1, "the fill's impression");
    expect((await countsOf(campaignId!)).viewable).toBe(before.viewable);
    await image.scrollIntoViewIfNeeded();
    await expect(image).toBeInViewport({ ratio: 0.5 });
    const beacon = await seen;
    // sendBeacon's body, when the browser lets it be read: the token and the fill's impression id.
    if (beacon.postData() !== null) expect(beacon.postData()).toMatch(/^[\w.-]+\.article\.[\w-]+\n[0-9a-f-]{36}$/);
    await expectSettledAt(async () => (await countsOf(campaignId!)).viewable - before.viewable, 1, "one viewable impression");
  });

  test("how an image ad and a text ad look in an article, at 390 px and 1280 px", async ({ page }, testInfo) => {
    const [{ id: image }] = await query<{ id: string }>(`select id from ad_campaigns where advertiser_id = $1 and name = 'MOT week'`, [advertiserId]);
    const { campaignId: text } = await addCampaign({
      name: "Hamlet",
      creative: { kind: "text", headline: "Hamlet at the Theatre Royal, from Friday", body: "Tickets from £12 at the box office or online." },
    });
    for (const [keep, what, shown] of [
      [image!, "image", `img[alt="${ALT}"]`],
      [text, "text", 'a[href^="/ads/click/"]:has-text("Hamlet at the Theatre Royal")'],
    ] as const) {
      await pauseAllBut([keep]);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await loadUntilShown(page, NEWS_PATH, shown);
        await waitForHydration(page.locator("body"));
        const slot = page.locator(SLOT);
        await slot.scrollIntoViewIfNeeded();
        await expect(slot.getByText("Advertisement", { exact: true })).toBeVisible();
        await expectNoSidewaysScroll(page, `${what} ad at ${width}px`);
        const box = (await slot.boundingBox())!;
        expect(box.width).toBeLessThanOrEqual(width);
        if (what === "image") await expect.poll(() => page.locator(`${SLOT} img`).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        // The ad with the end of the story above it and what follows below.
        await page.evaluate((y) => window.scrollTo(0, Math.max(0, y - 300)), box.y + (await page.evaluate(() => window.scrollY)));
        await page.screenshot({ path: testInfo.outputPath(`article-${what}-ad-${width}.png`) });
      }
    }
  });
});
