import { expect, test } from "./fixtures";
import { articleViews, categoryId, pageViewCount, query } from "./db";

// Page loads are counted where they arrive (server/request-handler.ts: HTML and navigation data,
// page-cache hits included, bots and prefetches not), buffered in the server's memory and written
// about once a second as `views = views + n` (app/lib/view-recorder.server.ts). These journeys check
// what ends up in the database.

/** A reader's browser (isbot counts HeadlessChrome, curl and Node as bots, rightly). */
const READER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";

/** How long a buffered view may wait before it is written: the flush runs every second. */
const FLUSH_WAIT_MS = 5_000;

/** Waits until `read` gives `expected`, then checks it stays there past another flush (nothing counted twice). */
async function expectSettledAt(read: () => Promise<unknown>, expected: unknown, what: string) {
  await expect.poll(read, { message: what, timeout: FLUSH_WAIT_MS }).toEqual(expected);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(await read(), `${what}, after one more flush`).toEqual(expected);
}

test.describe("counting views", () => {
  test("200 simultaneous loads of an article, page-cache hits among them, raise its views by exactly 200; bots and prefetches count nothing", async ({ baseURL }) => {
    const slug = `counting-rush-${Date.now().toString(36)}`;
    const path = `/article/${slug}`;
    await query(`insert into articles (title, slug, content, category_id, views, created_at) values ($1, $2, $3, $4, 0, now() - interval '500 days')`, [
      "Two hundred readers at once",
      slug,
      "Counted where it arrives.",
      await categoryId("news"),
    ]);
    try {
      // Node's fetch: Playwright's request fixture queues concurrent requests (200 take ~15 s), which is no rush.
      const load = (i: number) => fetch(new URL(i % 2 ? `${path}.data` : path, baseURL), { headers: { "User-Agent": READER_UA } });
      // The first renders the page into the cache; the 199 at once that follow are mostly hits.
      const responses = [await load(0), ...(await Promise.all(Array.from({ length: 199 }, (_, i) => load(i + 1))))];
      for (const response of responses) expect(response.status).toBe(200);
      expect(responses.some((r) => r.headers.get("x-cache") === "HIT")).toBe(true);
      // A crawler and a prefetch (a reader hovering a link) are no readers.
      await fetch(new URL(path, baseURL), { headers: { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" } });
      await fetch(new URL(`${path}.data`, baseURL), { headers: { "User-Agent": READER_UA, "Sec-Purpose": "prefetch" } });

      await expectSettledAt(() => articleViews(slug), 200, `views of ${path}`);
      await expectSettledAt(() => pageViewCount(path), 200, `page_views rows for ${path}`);
    } finally {
      await query(`delete from articles where slug = $1`, [slug]);
      await query(`delete from page_views where path = $1`, [path]);
    }
  });

  test("moving through the site in the browser records each page, with its query string, and counts the article once", async ({ page }) => {
    // 25 old News stories, so the News page has a second page (24 stories a page) to reach by a link.
    const run = Date.now().toString(36);
    const news = await categoryId("news");
    await query(
      `insert into articles (title, slug, content, category_id, views, created_at)
       select 'Archive story ' || $1 || ' no. ' || g, 'counting-archive-' || $1 || '-' || g, 'From the archive.', $2, 0,
              timestamptz '2001-01-01 12:00:00+00' + g * interval '1 hour'
       from generate_series(1, 25) as g`,
      [run, news],
    );
    try {
      const paths = ["/", "/category/news", "/category/news?page=2"];
      const before = await Promise.all(paths.map(pageViewCount));

      await page.goto("/", { waitUntil: "networkidle" });
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "News", exact: true }).click();
      await expect(page).toHaveURL(/\/category\/news$/);
      await expect(page.getByRole("heading", { level: 1, name: "News" })).toBeVisible();
      await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: /Older/ }).click();
      await expect(page).toHaveURL(/\/category\/news\?page=2$/);
      await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();

      const card = page.getByRole("main").getByRole("article").first();
      const href = (await card.getByRole("link").getAttribute("href"))!;
      expect(href).toMatch(new RegExp(`^/article/counting-archive-${run}-\\d+$`));
      const slug = href.slice("/article/".length);
      await card.getByRole("link").click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Archive story /);
      // Moving within the page ("Skip to content", then Back to before it) is no new view.
      await page.getByRole("link", { name: "Skip to content" }).focus();
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(new RegExp(`${href}#main$`));
      await page.goBack();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      // All of it happened in one document: client-side navigation, no reload.
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

      await expectSettledAt(() => Promise.all(paths.map(pageViewCount)), before.map((n) => n + 1), `page_views rows for ${paths.join(", ")}`);
      await expectSettledAt(() => pageViewCount(href), 1, `page_views rows for ${href}`);
      await expectSettledAt(() => articleViews(slug), 1, `views of ${href}`);
    } finally {
      await query(`delete from page_views where path like $1`, [`/article/counting-archive-${run}-%`]);
      await query(`delete from articles where slug like $1`, [`counting-archive-${run}-%`]);
    }
  });
});

test("a beacon or an address with bytes no page can have is refused, and counting goes on", async ({ request, baseURL }) => {
  const slug = `counting-after-nul-${Date.now().toString(36)}`;
  const path = `/article/${slug}`;
  await query(`insert into articles (title, slug, content, category_id, views) values ($1, $2, $3, $4, 0)`, [
    "Counted after a bad beacon",
    slug,
    "Body.",
    await categoryId("news"),
  ]);
  try {
    for (const bad of ["/bad\u0000path", "/article/a b", "/caf\u00e9"]) {
      const response = await request.post("/api/views", { data: { path: bad } });
      expect(response.status(), `beacon for ${JSON.stringify(bad)}`).toBe(400);
    }
    // An escaped NUL is refused at the door (400, issue 12); other bytes no page has are simply not found.
    for (const address of ["/article/%00", "/category/%00"]) expect((await request.get(address)).status(), address).toBe(400);
    for (const address of ["/article/Not-A-Slug", "/%E0%A4%A", "/article/%E0%A4%A", "/category/%ZZ"]) {
      expect((await request.get(address)).status(), address).toBe(404);
    }
    const response = await fetch(new URL(path, baseURL), { headers: { "User-Agent": READER_UA } });
    expect(response.status).toBe(200);
    await expectSettledAt(() => articleViews(slug), 1, `views of ${path}`);
    await expectSettledAt(() => pageViewCount(path), 1, `page_views rows for ${path}`);
  } finally {
    await query(`delete from articles where slug = $1`, [slug]);
    await query(`delete from page_views where path = $1`, [path]);
  }
});

test("GET /healthz answers 200 with status ok", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  expect(await response.json()).toMatchObject({ status: "ok" });
});
