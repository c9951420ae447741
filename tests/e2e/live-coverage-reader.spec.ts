import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { READER_JS_BUDGET_BYTES, readerJavaScript } from "../../scripts/reader-javascript";
import { query } from "./db";
import { expect, test, waitForHydration, type Page } from "./fixtures";

// Issue 31, what readers see of a live story: the page without JavaScript (every update, "Show older
// updates" through three pages), its LiveBlogPosting, its feed, the end of the coverage, and the live
// module's weight. The stories are set up in the database (the back office's forms are the newsroom
// spec's) and dated back, so they lead no listing; each test removes its own.

const run = Date.now().toString(36);
let serial = 0;

interface UpdateSpec {
  n: number;
  headline?: string;
  keyEvent?: boolean;
  pinned?: boolean;
  edited?: boolean;
  /** The body's blocks (a paragraph "Update no. {n} text." when not given). */
  blocks?: unknown[];
}

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });

/** A published story, dated back, live since two hours ago, with `updates` a minute apart (the highest n the newest). */
async function liveStory(updates: UpdateSpec[]) {
  const slug = `live-reader-${run}-${++serial}`;
  const [author] = await query<{ id: string; slug: string; name: string }>(`select id, slug, name from authors order by slug limit 1`);
  const [category] = await query<{ id: string }>(`select id from categories where slug = 'news'`);
  const [story] = await query<{ id: string; live_started_at: Date }>(
    `insert into articles (title, slug, content, excerpt, category_id, status, published_at, live_started_at)
     values ($1, $2, 'The storm reached the coast at dusk.', 'Wind and rain through the night: what we know.', $3, 'published', '2001-01-01T12:00:00Z', now() - interval '2 hours')
     returning id, live_started_at`,
    [`Storm over the harbour ${run} ${serial}`, slug, category!.id],
  );
  await query(`insert into article_authors (article_id, author_id, position) values ($1, $2, 0)`, [story!.id, author!.id]);
  const rows = updates.map((u) => ({
    headline: u.headline ?? null,
    content: `Update no. ${u.n} text.`,
    content_doc: { type: "doc", content: u.blocks ?? [paragraph(`Update no. ${u.n} text.`)] },
    key_event: Boolean(u.keyEvent),
    pinned: Boolean(u.pinned),
    n: u.n,
    edited: Boolean(u.edited),
  }));
  await query(
    `insert into live_updates (article_id, headline, content, content_doc, author_id, key_event, pinned, created_at, edited_at)
     select $1, r.headline, r.content, r.content_doc, $2, r.key_event, r.pinned, now() - interval '2 hours' + r.n * interval '1 minute',
            case when r.edited then now() - interval '30 seconds' end
     from jsonb_to_recordset($3::jsonb) as r(headline text, content text, content_doc jsonb, key_event boolean, pinned boolean, n int, edited boolean)`,
    [story!.id, author!.id, JSON.stringify(rows)],
  );
  const ids = await query<{ id: string; content: string; created_at: Date; edited_at: Date | null }>(
    `select id, content, created_at, edited_at from live_updates where article_id = $1`,
    [story!.id],
  );
  const idOf = (n: number) => ids.find((row) => row.content === `Update no. ${n} text.`)!;
  return { id: story!.id, slug, startedAt: story!.live_started_at, author: author!, idOf };
}

async function removeStory(id: string) {
  await query(`delete from articles where id = $1`, [id]);
}

/** Sixty updates: no. 60 the newest; no. 58 and 30 key events, no. 5 pinned, no. 59 edited, no. 57 an image, no. 56 a YouTube embed. */
async function sixtyUpdates() {
  const [image] = await query<{ featured_image: string }>(`select featured_image from articles where featured_image like '/media/images/%' limit 1`);
  return Array.from({ length: 60 }, (_, i): UpdateSpec => {
    const n = i + 1;
    if (n === 58) return { n, headline: "Evacuation ordered on the east side", keyEvent: true };
    if (n === 30) return { n, headline: "Storm warning raised to red", keyEvent: true };
    if (n === 5) return { n, headline: "Where to find shelter tonight", pinned: true };
    if (n === 59) return { n, edited: true };
    if (n === 57)
      return { n, blocks: [paragraph(`Update no. ${n} text.`), { type: "storyImage", attrs: { src: image!.featured_image, alt: "Waves over the sea wall", caption: "The sea wall at dusk", credit: "Staff" } }] };
    if (n === 56) return { n, blocks: [paragraph(`Update no. ${n} text.`), { type: "embed", attrs: { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ" } }] };
    return { n };
  });
}

/** Posts an update now (the newest), as the back office would: one INSERT, whose notice reaches the streams. */
async function postUpdate(storyId: string, text: string, options: { headline?: string; keyEvent?: boolean; pinned?: boolean; blocks?: unknown[] } = {}) {
  if (options.pinned) await query(`update live_updates set pinned = false, version = nextval('live_update_versions') where article_id = $1 and pinned`, [storyId]);
  const [row] = await query<{ id: string }>(
    `insert into live_updates (article_id, headline, content, content_doc, author_id, key_event, pinned)
     values ($1, $2, $3, $4, (select id from authors order by slug limit 1), $5, $6) returning id`,
    [storyId, options.headline ?? null, text, JSON.stringify({ type: "doc", content: options.blocks ?? [paragraph(text)] }), Boolean(options.keyEvent), Boolean(options.pinned)],
  );
  return row!.id;
}

/** The newest version among a story's updates: where a page rendered now starts its stream. */
async function newestVersion(storyId: string): Promise<number> {
  const [row] = await query<{ v: string }>(`select coalesce(max(version), 0) as v from live_updates where article_id = $1`, [storyId]);
  return Number(row!.v);
}

/** Opens a story's page with JavaScript and waits until its stream is open (the door answered). */
async function openLive(page: Page, slug: string) {
  const stream = page.waitForResponse((r) => r.url().includes("/api/live/") && r.status() === 200);
  await page.goto(`/article/${slug}`);
  await waitForHydration(page.locator("body"));
  await stream;
  // Marks this document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
}
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

const listed = (page: Page) => page.getByTestId("live-updates").getByTestId("live-update");

test.describe("a live story's page", () => {
  test("without JavaScript: status, What we know, key events, the pinned update, every update with its time, author, marks and share links; Show older updates pages through 60", async ({ browser, baseURL }) => {
    // Five loads of a page of 20 updates, and (issue 41) each update's Share control opened.
    test.slow();
    const story = await liveStory(await sixtyUpdates());
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`/article/${story.slug}`);
      await expect(page.getByTestId("live-status")).toHaveText(/LIVE\s*Live updates/);
      await expect(page.getByRole("heading", { name: "What we know" })).toBeVisible();
      await expect(page.getByText("The storm reached the coast at dusk.")).toBeVisible();

      const keyEvents = page.getByTestId("key-events").getByRole("link");
      await expect(keyEvents).toHaveText(["Evacuation ordered on the east side", "Storm warning raised to red"]);
      // On this page: its anchor; on an older page (no. 30 is on page 2): the page that starts with it.
      await expect(keyEvents.first()).toHaveAttribute("href", `#update-${story.idOf(58).id}`);
      await expect(keyEvents.last()).toHaveAttribute("href", `/article/${story.slug}?update=${story.idOf(30).id}#update-${story.idOf(30).id}`);

      const pinned = page.getByTestId("pinned-update");
      await expect(pinned).toHaveAttribute("id", `update-${story.idOf(5).id}`);
      await expect(pinned).toContainText("Pinned");
      await expect(pinned.getByRole("heading", { name: "Where to find shelter tonight" })).toBeVisible();

      // The first page: the 20 newest, newest first.
      await expect(listed(page)).toHaveCount(20);
      const newest = listed(page).first();
      await expect(newest).toHaveAttribute("id", `update-${story.idOf(60).id}`);
      await expect(newest).toContainText("Update no. 60 text.");
      await expect(newest.locator("time").first()).toHaveAttribute("datetime", story.idOf(60).created_at.toISOString());
      const clock = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "numeric", minute: "2-digit" }).format(story.idOf(60).created_at);
      await expect(newest.locator("time").first()).toHaveText(clock);
      await expect(newest.getByRole("link", { name: story.author.name })).toHaveAttribute("href", `/author/${story.author.slug}`);
      const permalink = `/article/${story.slug}?update=${story.idOf(60).id}#update-${story.idOf(60).id}`;
      await expect(newest.getByRole("link", { name: "Permalink to this update" })).toHaveAttribute("href", permalink);
      const anchorUrl = `${baseURL}${permalink}`;
      // One small "Share" control per update (issue 41): without JavaScript it opens natively onto plain links.
      await expect(newest.getByRole("link", { name: /Share on Facebook/ })).toBeHidden();
      await newest.locator("summary", { hasText: "Share" }).click();
      await expect(newest.getByRole("link", { name: /Share on Facebook/ })).toHaveAttribute("href", `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(anchorUrl)}`);
      await expect(newest.getByRole("link", { name: "Copy link" })).toHaveAttribute("href", anchorUrl);
      await expect(page.locator(`#update-${story.idOf(59).id}`)).toContainText("Edited");
      await expect(page.locator(`#update-${story.idOf(60).id}`)).not.toContainText("Edited");
      await expect(page.locator(`#update-${story.idOf(58).id}`)).toContainText("Key event");
      await expect(page.locator(`#update-${story.idOf(57).id}`).getByRole("img", { name: "Waves over the sea wall" })).toBeVisible();
      await expect(page.locator(`#update-${story.idOf(56).id} .story-embed[data-provider="youtube"]`)).toHaveCount(1);

      // A key event on an older page: its link opens the page that starts with it, at it.
      await keyEvents.last().click();
      await expect(listed(page).first()).toHaveAttribute("id", `update-${story.idOf(30).id}`);
      await expect(listed(page)).toHaveCount(20);
      await expect(page.getByRole("link", { name: "Back to the latest updates" })).toBeVisible();
      await page.goto(`/article/${story.slug}`);

      // Three pages of 20 through the plain link, each its own address; together all 60, once each.
      const seen = new Set(await listed(page).evaluateAll((items) => items.map((item) => item.id)));
      for (const [pageNo, first, last] of [
        [2, 40, 21],
        [3, 20, 1],
      ] as const) {
        await page.getByRole("link", { name: "Show older updates" }).click();
        await expect(page, `page ${pageNo}`).toHaveURL(/\?updates-before=[0-9a-f-]+#live-updates$/);
        await expect(listed(page)).toHaveCount(20);
        await expect(listed(page).first()).toHaveAttribute("id", `update-${story.idOf(first).id}`);
        await expect(listed(page).last()).toHaveAttribute("id", `update-${story.idOf(last).id}`);
        for (const id of await listed(page).evaluateAll((items) => items.map((item) => item.id))) seen.add(id);
        await expect(page.getByRole("link", { name: "Back to the latest updates" })).toBeVisible();
      }
      expect(seen.size).toBe(60);
      // The last page: no further link, and the pinned update in its place.
      await expect(page.getByRole("link", { name: "Show older updates" })).toHaveCount(0);
      await expect(page.getByTestId("pinned-update")).toHaveCount(0);
      await expect(page.locator(`#update-${story.idOf(5).id}`)).toContainText("Where to find shelter tonight");
      // An older page is cached like the page (the page cache keys it by its URL).
      const older = await page.request.get(page.url().replace(/#.*$/, ""));
      expect(older.headers()["cache-control"] ?? "").not.toContain("no-store");
    } finally {
      await context.close();
      await removeStory(story.id);
    }
  });

  test("its JSON-LD is a LiveBlogPosting with the coverage, the newest 50 updates and their anchors; the head links its feed; once ended, coverageEndTime and Live coverage has ended", async ({ page, request, baseURL }) => {
    const story = await liveStory(await sixtyUpdates());
    try {
      const liveBlog = async () => {
        const html = await (await request.get(`/article/${story.slug}`)).text();
        const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
        return { html, ld: blocks.find((block) => block["@type"] === "LiveBlogPosting") };
      };
      const { html, ld } = await liveBlog();
      expect(ld, "a LiveBlogPosting block").toBeDefined();
      expect(html).not.toContain('"@type":"NewsArticle"');
      expect(ld.headline).toBe(`Storm over the harbour ${run} ${serial}`);
      expect(ld.description).toBe("Wind and rain through the night: what we know.");
      expect(ld.author.length).toBeGreaterThan(0);
      expect(ld.publisher["@type"]).toBe("NewsMediaOrganization");
      expect(ld.datePublished).toBe("2001-01-01T12:00:00.000Z");
      expect(ld.coverageStartTime).toBe(story.startedAt.toISOString());
      expect(ld).not.toHaveProperty("coverageEndTime");
      // The latest change: no. 59's edit (half a minute ago) or no. 60's post, whichever is later.
      const latest = Math.max(story.idOf(59).edited_at!.getTime(), story.idOf(60).created_at.getTime());
      expect(ld.dateModified).toBe(new Date(latest).toISOString());
      expect(html).toContain(`<meta property="article:modified_time" content="${new Date(latest).toISOString()}"`);
      expect(ld.liveBlogUpdate).toHaveLength(50);
      const [first] = ld.liveBlogUpdate;
      expect(first).toMatchObject({
        "@type": "BlogPosting",
        url: `${baseURL}/article/${story.slug}#update-${story.idOf(60).id}`,
        headline: "Update no. 60 text.",
        datePublished: story.idOf(60).created_at.toISOString(),
        articleBody: "Update no. 60 text.",
        author: { "@type": "Person", name: story.author.name },
      });
      expect(ld.liveBlogUpdate[1].dateModified).toBe(story.idOf(59).edited_at!.toISOString());
      expect(ld.liveBlogUpdate[2].headline).toBe("Evacuation ordered on the east side");
      expect(ld.liveBlogUpdate[49].url).toContain(`#update-${story.idOf(11).id}`);

      // The head names the story's feed; the feed carries the newest 50.
      expect(html).toMatch(new RegExp(`<link rel="alternate" type="application/rss\\+xml" title="[^"]*live updates" href="${baseURL}/article/${story.slug}/rss.xml"`));
      const feed = await request.get(`/article/${story.slug}/rss.xml`);
      expect(feed.status()).toBe(200);
      expect((await feed.text()).match(/<item>/g)).toHaveLength(50);

      // Ended: the stored page goes (the story's change drops it), the status line and the markup say so.
      await query(`update articles set live_ended_at = now() where id = $1`, [story.id]);
      const [{ live_ended_at: endedAt }] = await query<{ live_ended_at: Date }>(`select live_ended_at from articles where id = $1`, [story.id]);
      await expect.poll(async () => (await liveBlog()).ld?.coverageEndTime, { timeout: 5_000 }).toBe(endedAt.toISOString());
      await page.goto(`/article/${story.slug}`);
      await expect(page.getByTestId("live-status")).toContainText("Live coverage has ended");
      await expect(page.getByTestId("live-status").locator("time")).toHaveAttribute("datetime", endedAt.toISOString());
      await expect(page.getByTestId("live-status")).not.toContainText("LIVE");
      // The updates stay.
      await expect(listed(page)).toHaveCount(20);
    } finally {
      await removeStory(story.id);
    }
  });

  test("its server HTML has no error by the Nu HTML Checker, on the first page and an older one", async ({ request }) => {
    const vnu = path.resolve(import.meta.dirname, "../../node_modules/vnu-jar/build/dist/vnu.jar");
    test.skip(spawnSync("java", ["-version"]).status !== 0 && !process.env.CI, "no Java on this machine: the Nu HTML checker cannot run");
    const story = await liveStory(await sixtyUpdates());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "frontpage-vnu-live-"));
    try {
      const first = await (await request.get(`/article/${story.slug}`)).text();
      const older = /href="([^"]*\?updates-before=[^"#]+)/.exec(first)![1]!.replaceAll("&amp;", "&");
      const files = [first, await (await request.get(older)).text()].map((html, i) => {
        const file = path.join(dir, `page-${i}.html`);
        fs.writeFileSync(file, html);
        return file;
      });
      const run = spawnSync("java", ["-jar", vnu, "--errors-only", "--format", "json", ...files], { encoding: "utf8", timeout: 120_000 });
      const report = JSON.parse(run.stderr) as { messages: { type: string; subType?: string; message: string; extract?: string }[] };
      // Left out: the checker's advice against the embed frame's sandbox, which the player needs as it is
      // (scripts and its own origin, in our srcdoc with no script: app/domain/articles/story-embed-html.ts).
      const embedSandbox = (m: { message: string }) => /“allow-scripts” and “allow-same-origin”/.test(m.message);
      expect(report.messages.filter((m) => (m.type === "error" || m.subType === "fatal") && !embedSandbox(m))).toEqual([]);
      expect(report.messages.filter(embedSandbox)).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await removeStory(story.id);
    }
  });

  test("a story that was never live has no feed and its page stays a NewsArticle", async ({ request }) => {
    const home = await (await request.get("/")).text();
    const article = /href="\/article\/([^"?#/]+)"/.exec(home)![1]!;
    expect((await request.get(`/article/${article}/rss.xml`)).status()).toBe(404);
    const html = await (await request.get(`/article/${article}`)).text();
    expect(html).toContain('"@type":"NewsArticle"');
    expect(html).not.toContain("LiveBlogPosting");
    expect(html).not.toContain("/rss.xml\" title");
  });

  test("the live module is one small file loaded only on a live story's page, after it runs; the page stays within the reader budget", async ({ page, baseURL }) => {
    const story = await liveStory([{ n: 1 }, { n: 2, keyEvent: true }]);
    try {
      const get = async (url: string) => Buffer.from(await (await page.request.get(url)).body());
      const before = await readerJavaScript(baseURL!, `/article/${story.slug}`, get);
      expect(before.gzipBytes, `${before.gzipBytes} bytes`).toBeLessThanOrEqual(READER_JS_BUDGET_BYTES);
      const scripts: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
      });
      await page.goto(`/article/${story.slug}`);
      await waitForHydration(page.locator("body"));
      // Loaded by import() once the page runs: one file not among those the page names.
      await expect.poll(() => scripts.filter((s) => !before.files.includes(s)).length).toBe(1);
      const [lazy] = scripts.filter((s) => !before.files.includes(s));
      const code = await get(new URL(lazy!, baseURL).href);
      expect(code.toString("utf8")).toContain("EventSource");
      expect(code.toString("utf8")).not.toMatch(/ZodError|_zod\b/);
      const zlib = await import("node:zlib");
      const lazyBytes = zlib.gzipSync(code, { level: 9 }).length;
      expect(lazyBytes).toBeLessThan(3 * 1024);
      const home = await (await page.request.get("/")).text();
      const other = /href="(\/article\/[^"?#]+)"/.exec(home)![1]!;
      const plain = await readerJavaScript(baseURL!, other, get);
      console.log(`live story page: ${before.gzipBytes} bytes gzipped in ${before.files.length} files, then ${lazy} ${lazyBytes} bytes; a story never live: ${plain.gzipBytes} bytes in ${plain.files.length} files`);

      // An ended story's page, and a story that was never live, do not load it.
      await query(`update articles set live_ended_at = now() where id = $1`, [story.id]);
      for (const path of [`/article/${story.slug}`, "/"]) {
        scripts.length = 0;
        await page.goto(path);
        await waitForHydration(page.locator("body"));
        await page.waitForLoadState("networkidle");
        expect(scripts.filter((s) => s === lazy), path).toEqual([]);
      }
    } finally {
      await removeStory(story.id);
    }
  });

  test("screenshots at 390 px and 1280 px of a live story and an ended one, with no accessibility violation", async ({ page }) => {
    // Four loads of a page of 60 updates and two checks by axe.
    test.setTimeout(90_000);
    const story = await liveStory(await sixtyUpdates());
    try {
      for (const state of ["live", "ended"] as const) {
        if (state === "ended") await query(`update articles set live_ended_at = now() where id = $1`, [story.id]);
        for (const width of [390, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`/article/${story.slug}`);
          await waitForHydration(page.locator("body"));
          await expect(page.getByTestId("live-status")).toContainText(state === "live" ? "Live updates" : "Live coverage has ended");
          await page.getByTestId("live-status").scrollIntoViewIfNeeded();
          await page.screenshot({ path: `/tmp/live-shots/${state}-${width}-status.png` });
          await page.getByTestId("key-events").scrollIntoViewIfNeeded();
          await page.screenshot({ path: `/tmp/live-shots/${state}-${width}-updates.png` });
          await page.locator(`#update-${story.idOf(57).id}`).scrollIntoViewIfNeeded();
          await page.screenshot({ path: `/tmp/live-shots/${state}-${width}-image.png` });
          if (width === 1280) {
            const axe = await new AxeBuilder({ page }).analyze();
            expect(axe.violations.map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(" ")) })), state).toEqual([]);
          }
        }
      }
    } finally {
      await removeStory(story.id);
    }
  });

  test.describe("with its stream", () => {
    test("each update, an arrived one too, has one small Share control: a list with focus on its first link, Escape closes it, Copy link copies the update's address; the device's share sheet where there is one (issue 41)", async ({ page, context, baseURL }) => {
      // A page with its stream, axe and three ways of sharing.
      test.slow();
      const story = await liveStory([{ n: 1 }, { n: 2, headline: "Roads closed" }]);
      try {
        await context.grantPermissions(["clipboard-read", "clipboard-write"]);
        await page.setViewportSize({ width: 390, height: 844 });
        await openLive(page, story.slug);
        const arrivedId = await postUpdate(story.id, "Ferries stop at noon.", { headline: "Ferries stop" });
        const update = page.locator(`#update-${arrivedId}`);
        await expect(update).toContainText("Ferries stop at noon.", { timeout: 2_000 });
        // One control per update, instead of three share buttons.
        await expect(listed(page).locator("summary", { hasText: "Share" })).toHaveCount(3);
        await expect(update.getByRole("link", { name: /Share on/ })).toHaveCount(0);

        const share = update.locator("summary", { hasText: "Share" });
        await expect(share).toHaveAccessibleName("Share this update");
        const box = (await share.boundingBox())!;
        expect(box.height).toBeLessThanOrEqual(36);
        await share.focus();
        await page.keyboard.press("Enter");
        const menu = update.getByTestId("update-share-menu");
        await expect(menu).toBeVisible();
        const permalink = `${baseURL}/article/${story.slug}?update=${arrivedId}#update-${arrivedId}`;
        await expect(menu.getByRole("link")).toHaveText(["Share on X (Twitter) (opens in a new tab)", "Share on Facebook (opens in a new tab)", "Share on LinkedIn (opens in a new tab)", "Copy link"]);
        await expect(menu.getByRole("link", { name: /Share on X/ })).toBeFocused();
        await expect(menu.getByRole("link", { name: /Share on LinkedIn/ })).toHaveAttribute("href", `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(permalink)}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await page.screenshot({ path: "/tmp/live-shots/share-open-390.png" });
        expect((await new AxeBuilder({ page }).include(`#update-${arrivedId}`).analyze()).violations.map((v) => v.id)).toEqual([]);
        await page.keyboard.press("Escape");
        await expect(menu).toBeHidden();
        await expect(share).toBeFocused();

        // Copy link: the update's lasting address, and a short confirmation; the page stays where it is.
        await share.click();
        await menu.getByRole("link", { name: "Copy link" }).click();
        await expect(menu.getByRole("status")).toHaveText("Link copied");
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(permalink);
        expect(await sameDocument(page)).toBe(true);
        // A click elsewhere closes it.
        await page.getByTestId("live-status").click();
        await expect(menu).toBeHidden();

        // Where the browser has a share sheet, Share opens it with the update's address, and no list.
        await page.evaluate(() => {
          Object.defineProperty(navigator, "share", {
            configurable: true,
            value: (data: ShareData) => {
              (window as unknown as { __shared: ShareData }).__shared = data;
              return Promise.resolve();
            },
          });
        });
        await share.click();
        expect(await page.evaluate(() => (window as unknown as { __shared?: ShareData }).__shared)).toEqual({ title: "Ferries stop", url: permalink });
        await expect(menu).toBeHidden();
      } finally {
        await removeStory(story.id);
      }
    });

    test("a reader at the top sees three updates arrive, each within 2 s, without a reload: a key event, a pinned one, one with an image", async ({ page }) => {
      const story = await liveStory([{ n: 1 }, { n: 2 }]);
      try {
        const [image] = await query<{ featured_image: string }>(`select featured_image from articles where featured_image like '/media/images/%' limit 1`);
        const errors: string[] = [];
        page.on("console", (message) => {
          if (message.type() === "error") errors.push(message.text());
        });
        await openLive(page, story.slug);
        await expect(listed(page)).toHaveCount(2);

        const keyId = await postUpdate(story.id, "Bridge closed to traffic.", { headline: "Bridge closed", keyEvent: true });
        await expect(page.locator(`#update-${keyId}`)).toContainText("Bridge closed to traffic.", { timeout: 2_000 });
        await expect(listed(page).first()).toHaveAttribute("id", `update-${keyId}`);
        await expect(page.getByTestId("key-events").getByRole("link", { name: "Bridge closed" })).toHaveAttribute("href", `#update-${keyId}`, { timeout: 2_000 });

        const pinnedId = await postUpdate(story.id, "Shelters are open at the schools.", { headline: "Shelters open", pinned: true });
        await expect(page.getByTestId("pinned-update")).toHaveAttribute("id", `update-${pinnedId}`, { timeout: 2_000 });
        await expect(page.getByTestId("pinned-update")).toContainText("Pinned");

        const imageId = await postUpdate(story.id, "Waves over the sea wall.", {
          blocks: [paragraph("Waves over the sea wall."), { type: "storyImage", attrs: { src: image!.featured_image, alt: "The sea wall", caption: "", credit: "" } }],
        });
        await expect(page.locator(`#update-${imageId}`).getByRole("img", { name: "The sea wall" })).toBeVisible({ timeout: 2_000 });
        await expect(listed(page)).toHaveCount(4); // the pinned one is on top, not again in the list
        await expect(page.getByTestId("new-updates")).toHaveCount(0);
        expect(await sameDocument(page)).toBe(true);
        // Hydrated without a complaint, and nothing failed to load.
        expect(errors).toEqual([]);
      } finally {
        await removeStory(story.id);
      }
    });

    test("with JavaScript, Show older updates and Back to the latest updates move between pages in the page", async ({ page }) => {
      const story = await liveStory(Array.from({ length: 25 }, (_, i) => ({ n: i + 1 })));
      try {
        await openLive(page, story.slug);
        await expect(listed(page)).toHaveCount(20);
        await page.getByRole("link", { name: "Show older updates" }).click();
        await expect(page).toHaveURL(/\?updates-before=/);
        await expect(listed(page)).toHaveCount(5);
        await expect(listed(page).first()).toHaveAttribute("id", `update-${story.idOf(5).id}`);
        await page.getByRole("link", { name: "Back to the latest updates" }).click();
        await expect(listed(page)).toHaveCount(20);
        await expect(listed(page).first()).toHaveAttribute("id", `update-${story.idOf(25).id}`);
        // Still following the stream there.
        const id = await postUpdate(story.id, "After paging back.");
        await expect(page.locator(`#update-${id}`)).toHaveCount(1, { timeout: 2_000 });
        expect(await sameDocument(page)).toBe(true);
      } finally {
        await removeStory(story.id);
      }
    });

    test("a reader scrolled down sees the new updates button and the page does not move; pressing it shows them and goes to the newest", async ({ page }) => {
      const story = await liveStory(Array.from({ length: 20 }, (_, i) => ({ n: i + 1 })));
      try {
        await openLive(page, story.slug);
        const reading = page.locator(`#update-${story.idOf(8).id}`);
        await reading.evaluate((element) => element.scrollIntoView({ block: "start" }));
        await page.waitForTimeout(200);
        const top = async () => (await reading.boundingBox())!.y;
        const before = await top();

        await postUpdate(story.id, "First of the new ones.");
        await expect(page.getByTestId("new-updates")).toHaveText(/1 new update$/, { timeout: 2_000 });
        const secondId = await postUpdate(story.id, "Second of the new ones.");
        await expect(page.getByTestId("new-updates")).toHaveText(/2 new updates$/, { timeout: 2_000 });
        await expect(page.getByTestId("new-updates")).toBeInViewport();
        // Not shown yet, and what the reader reads has not moved.
        await expect(page.locator(`#update-${secondId}`)).toHaveCount(0);
        expect(Math.abs((await top()) - before)).toBeLessThan(1);
        await page.screenshot({ path: "/tmp/live-shots/new-updates-button.png" });

        await page.getByTestId("new-updates").click();
        await expect(page.getByTestId("new-updates")).toHaveCount(0);
        await expect(listed(page)).toHaveCount(22);
        await expect(listed(page).first()).toHaveAttribute("id", `update-${secondId}`);
        await expect(page.locator(`#update-${secondId}`)).toBeInViewport();
        await expect(page.locator(`#update-${secondId}`)).toBeFocused();
        expect(await sameDocument(page)).toBe(true);
      } finally {
        await removeStory(story.id);
      }
    });

    test("an edit and a delete apply in place; the end of the coverage shows without a reload", async ({ page }) => {
      const story = await liveStory([{ n: 1 }, { n: 2 }, { n: 3 }]);
      try {
        await openLive(page, story.slug);
        const edited = page.locator(`#update-${story.idOf(2).id}`);
        await expect(edited).not.toContainText("Edited");
        await query(
          `update live_updates set content = 'Corrected: the road is open.', content_doc = $2, edited_at = now(), version = nextval('live_update_versions') where id = $1`,
          [story.idOf(2).id, JSON.stringify({ type: "doc", content: [paragraph("Corrected: the road is open.")] })],
        );
        await expect(edited).toContainText("Corrected: the road is open.", { timeout: 2_000 });
        await expect(edited).toContainText("Edited");
        // In its place: still the second of three.
        await expect(listed(page).nth(1)).toHaveAttribute("id", `update-${story.idOf(2).id}`);

        await query(`update live_updates set deleted_at = now(), version = nextval('live_update_versions') where id = $1`, [story.idOf(3).id]);
        await expect(page.locator(`#update-${story.idOf(3).id}`)).toHaveCount(0, { timeout: 2_000 });
        await expect(listed(page)).toHaveCount(2);

        await query(`update articles set live_ended_at = now() where id = $1`, [story.id]);
        await expect(page.getByTestId("live-status")).toContainText("Live coverage has ended", { timeout: 2_000 });
        expect(await sameDocument(page)).toBe(true);
      } finally {
        await removeStory(story.id);
      }
    });

    test("in a hidden tab the stream closes; back in view it reopens after the last version seen and catches up", async ({ page }) => {
      const story = await liveStory([{ n: 1 }]);
      try {
        const streams: string[] = [];
        page.on("request", (r) => {
          if (r.url().includes("/api/live/")) streams.push(r.url());
        });
        await openLive(page, story.slug);
        const seen = await postUpdate(story.id, "Seen while in view.");
        await expect(page.locator(`#update-${seen}`)).toHaveCount(1, { timeout: 2_000 });
        const lastSeen = await newestVersion(story.id);

        const setHidden = (hidden: boolean) =>
          page.evaluate((value) => {
            Object.defineProperty(document, "hidden", { configurable: true, get: () => value });
            Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (value ? "hidden" : "visible") });
            document.dispatchEvent(new Event("visibilitychange"));
          }, hidden);
        await setHidden(true);
        const missed = await postUpdate(story.id, "Posted while the tab was hidden.");
        // The stream is closed: nothing arrives while hidden.
        await page.waitForTimeout(1_500);
        await expect(page.locator(`#update-${missed}`)).toHaveCount(0);
        const opened = streams.length;

        await setHidden(false);
        await expect(page.locator(`#update-${missed}`)).toHaveCount(1, { timeout: 2_000 });
        expect(streams.length).toBe(opened + 1);
        expect(new URL(streams[streams.length - 1]!).searchParams.get("after")).toBe(String(lastSeen));
        expect(await sameDocument(page)).toBe(true);
      } finally {
        await removeStory(story.id);
      }
    });
  });
});
