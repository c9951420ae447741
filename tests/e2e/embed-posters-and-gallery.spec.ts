import http from "node:http";
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import sharp from "sharp";
import { signInAsAdmin } from "./admin-session";
import { query } from "./db";
import { expect, test, type Page } from "./fixtures";
import { fillPublishingDetails, publishNow } from "./publish-panel";

// Issue 41, acceptance 3, 4 and 7: a story written in the editor with a YouTube block and a gallery of
// four images. The site fetches the video's poster once, in the background, from a loopback stand-in
// of YouTube (EMBED_FETCH_BASE: tests/setup/e2e-server.mjs points it at E2E_PORT + 2000, where this
// spec listens); the reader's page shows our /media copy of the thumbnail and the video's title, and
// asks nothing of another host before play. The gallery is a grid whose pictures open a full-screen
// viewer: ArrowRight moves, Escape closes.

const STAND_IN_PORT = Number(process.env.E2E_PORT ?? 3203) + 2000;
const VIDEO_ID = "PstrGal41aZ";
const VIDEO_TITLE = "Harbour lights: the night ferry's last run";
const SHOTS = path.join(os.tmpdir(), "frontpage-embed-posters");

let standIn: http.Server;
const standInRequests: string[] = [];
let thumbnail: Buffer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  // A 16:9 thumbnail with something to see (a gradient band), as YouTube's are.
  const band = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><defs><linearGradient id="g"><stop offset="0" stop-color="#0b3954"/><stop offset="1" stop-color="#e0a458"/></linearGradient></defs><rect width="1280" height="720" fill="url(#g)"/><circle cx="900" cy="300" r="120" fill="#fef3c7"/></svg>`);
  thumbnail = await sharp(band).jpeg().toBuffer();
  standIn = http.createServer((req, res) => {
    const url = new URL(req.url!, "http://stand-in");
    standInRequests.push(url.pathname);
    if (url.pathname === "/youtube/oembed" && url.searchParams.get("url") === `https://www.youtube.com/watch?v=${VIDEO_ID}`) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ title: VIDEO_TITLE, author_name: "Harbour Radio", thumbnail_url: `http://127.0.0.1:${STAND_IN_PORT}/youtube/vi/${VIDEO_ID}/hqdefault.jpg` }));
    } else if (url.pathname === `/youtube/vi/${VIDEO_ID}/hqdefault.jpg`) {
      res.writeHead(200, { "content-type": "image/jpeg" });
      res.end(thumbnail);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    standIn.once("error", reject);
    standIn.listen(STAND_IN_PORT, "127.0.0.1", resolve);
  });
});

test.afterAll(async () => {
  await new Promise((resolve) => standIn?.close(resolve));
});

/** Four distinct photos (JPEG), as a writer would upload them. */
async function photos(): Promise<{ name: string; mimeType: string; buffer: Buffer }[]> {
  const colours = ["#1d4ed8", "#b91c1c", "#15803d", "#a16207"];
  return Promise.all(
    colours.map(async (colour, i) => ({
      name: `harbour-${i + 1}.jpg`,
      mimeType: "image/jpeg",
      buffer: await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><rect width="1200" height="800" fill="${colour}"/><rect x="${100 + i * 200}" y="200" width="300" height="300" fill="#f8fafc"/></svg>`))
        .jpeg()
        .toBuffer(),
    })),
  );
}

let slug = "";

test("a story written with a YouTube block and a gallery: the poster arrives from the stand-in, served from /media", async ({ page }) => {
  test.slow();
  await signInAsAdmin(page);
  const run = Date.now().toString(36);
  slug = `harbour-gallery-${run}`;
  await page.goto("/admin/articles/new", { waitUntil: "networkidle" });
  await expect(page.getByRole("toolbar", { name: "Story formatting" })).toBeVisible();
  await page.getByLabel("Title *").fill(`Harbour gallery ${run}`);
  const content = page.getByLabel("Content *");
  await content.click();
  await page.keyboard.type("The night ferry made its last run under the harbour lights.");
  await page.keyboard.press("Enter");

  // The YouTube block.
  await page.getByRole("button", { name: "Embed video or post" }).click();
  const embedDialog = page.getByRole("dialog", { name: "Embed a video or post" });
  await embedDialog.getByLabel("YouTube or X address").fill(`https://youtu.be/${VIDEO_ID}`);
  await embedDialog.getByRole("button", { name: "Embed", exact: true }).click();
  await expect(embedDialog).toBeHidden();

  // The gallery, from the "+" insert menu: four uploads, one alt text missing first.
  await content.press("Control+End");
  await page.getByRole("button", { name: "Insert block" }).click();
  await page.getByRole("option", { name: /Gallery/ }).click();
  const galleryDialog = page.getByRole("dialog", { name: "Insert gallery" });
  await galleryDialog.getByLabel("Upload gallery images").setInputFiles(await photos());
  await expect(galleryDialog.getByText("4 of at most 12 images")).toBeVisible({ timeout: 30_000 });
  for (let i = 1; i <= 3; i++) {
    await galleryDialog.getByLabel(`Alt text of image ${i} *`).fill(`Harbour photo ${i}`);
    await galleryDialog.getByLabel(`Caption of image ${i}`).fill(`The quay, view ${i}`);
  }
  await galleryDialog.getByRole("button", { name: "Insert gallery" }).click();
  await expect(galleryDialog.getByRole("alert")).toHaveText("Describe image 4 in its alt text.");
  await galleryDialog.getByLabel("Alt text of image 4 *").fill("Harbour photo 4");
  // Reordered: the fourth goes first.
  await galleryDialog.getByRole("button", { name: "Move image 4 up" }).click();
  await galleryDialog.getByRole("button", { name: "Move image 3 up" }).click();
  await galleryDialog.getByRole("button", { name: "Move image 2 up" }).click();
  await expect(galleryDialog.getByLabel("Alt text of image 1 *")).toHaveValue("Harbour photo 4");
  await galleryDialog.getByRole("button", { name: "Insert gallery" }).click();
  await expect(galleryDialog).toBeHidden();
  await expect(page.locator(".ProseMirror [data-story-gallery] img")).toHaveCount(4);

  // The article form is axe-clean with both blocks in it.
  const formAxe = await new AxeBuilder({ page }).analyze();
  expect(formAxe.violations.map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(" ")) }))).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator(".ProseMirror [data-story-gallery]").screenshot({ path: path.join(SHOTS, "editor-gallery-390.png") });
  await page.setViewportSize({ width: 1280, height: 800 });

  await fillPublishingDetails(page);
  await publishNow(page);

  // The poster: fetched once in the background, its thumbnail stored in the media library.
  await expect
    .poll(async () => (await query<{ poster_url: string | null }>("select poster_url from embed_posters where provider = 'youtube' and embed_id = $1 and fetched_at is not null", [VIDEO_ID]))[0]?.poster_url ?? null, {
      timeout: 30_000,
    })
    .toMatch(/^\/media\/images\//);
  expect(standInRequests.filter((p) => p === "/youtube/oembed")).toHaveLength(1);
  const [stored] = await query<{ source: string; content_type: string }>("select source, content_type from media where original_name = $1", [`youtube-${VIDEO_ID}-poster.jpg`]);
  expect(stored).toEqual({ source: "embed", content_type: "image/jpeg" });
});

/** Every request of a page, by URL. */
function recordRequests(page: Page) {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

test("the reader sees the poster and the title, and nothing leaves for another host before play", async ({ browser, baseURL }) => {
  test.slow();
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests = recordRequests(page);
  // The page (cached before the poster arrived, if a reader came) now carries it: the change notice dropped it.
  await page.goto(`/article/${slug}`, { waitUntil: "networkidle" });
  const embed = page.locator('.story-embed[data-provider="youtube"]');
  await embed.scrollIntoViewIfNeeded();
  const frame = page.frameLocator('.story-embed[data-provider="youtube"] iframe');
  const poster = frame.getByRole("img", { name: VIDEO_TITLE });
  await expect(poster).toBeVisible();
  await expect(poster).toHaveAttribute("src", /^\/media\/images\/\d+-[a-z0-9]+\.jpg$/);
  await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(frame.getByText(VIDEO_TITLE)).toBeVisible();
  await expect(embed.locator("iframe")).toHaveAttribute("title", `YouTube video: ${VIDEO_TITLE} (press play to load it from YouTube)`);
  await expect(embed.getByRole("link", { name: "Watch on YouTube" })).toHaveAttribute("href", `https://www.youtube.com/watch?v=${VIDEO_ID}`);
  // The raw address is nowhere in the page's text.
  await expect(page.locator("main")).not.toContainText("youtube.com/watch");
  await page.waitForLoadState("networkidle");
  const origin = new URL(baseURL!).origin;
  expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("about:") && !url.startsWith("data:"))).toEqual([]);

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(" ")) }))).toEqual([]);

  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await embed.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await embed.screenshot({ path: path.join(SHOTS, `poster-${width}.png`) });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }

  // Play: the player loads in the frame, and only now (answered here: no network in tests).
  await page.route("https://www.youtube-nocookie.com/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title><p>The player</p>" }),
  );
  await frame.getByRole("link", { name: /Play video/ }).click();
  await expect(frame.getByText("The player")).toBeVisible();
  expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("about:") && !url.startsWith("data:"))).toEqual([
    `https://www.youtube-nocookie.com/embed/${VIDEO_ID}?autoplay=1`,
  ]);
  await context.close();
});

test("the gallery is a grid of four; a picture opens the viewer, ArrowRight moves, Escape closes and focus returns", async ({ browser }) => {
  test.slow();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`/article/${slug}`, { waitUntil: "networkidle" });
  const gallery = page.getByRole("group", { name: "Gallery of 4 images" });
  await expect(gallery.getByRole("listitem")).toHaveCount(4);
  const columns = () => gallery.locator("ul").evaluate((ul) => getComputedStyle(ul).gridTemplateColumns.split(" ").length);
  expect(await columns()).toBe(2);
  await gallery.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await gallery.screenshot({ path: path.join(SHOTS, "gallery-390.png") });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The first picture is the fourth upload (moved first in the editor); without JavaScript each is a link to the whole image.
  const first = gallery.getByRole("link", { name: "Harbour photo 4" });
  await expect(first).toHaveAttribute("href", /^\/media\/images\/[^?]+\.jpg$/);
  await first.click();
  const viewer = page.getByRole("dialog", { name: "Gallery viewer" });
  await expect(viewer).toBeVisible();
  await expect(viewer.locator(".gallery-viewer-count")).toHaveText("1 of 4");
  await expect(viewer.getByRole("img", { name: "Harbour photo 4" })).toBeVisible();
  await expect.poll(() => viewer.getByRole("img", { name: "Harbour photo 4" }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 }).toBe(true);
  await page.screenshot({ path: path.join(SHOTS, "viewer-390.png") });
  await page.keyboard.press("ArrowRight");
  await expect(viewer.locator(".gallery-viewer-count")).toHaveText("2 of 4");
  await expect(viewer.getByRole("img", { name: "Harbour photo 1" })).toBeVisible();
  await expect(viewer.locator(".gallery-viewer-caption")).toHaveText("The quay, view 1");
  await viewer.getByRole("button", { name: "Previous image" }).click();
  await expect(viewer.locator(".gallery-viewer-count")).toHaveText("1 of 4");
  // A swipe to the left (a touch pointer) moves on.
  const box = (await viewer.locator(".gallery-viewer-stage").boundingBox())!;
  await viewer.locator(".gallery-viewer-stage").dispatchEvent("pointerdown", { pointerType: "touch", clientX: box.x + 300, clientY: box.y + 200, isPrimary: true });
  await viewer.locator(".gallery-viewer-stage").dispatchEvent("pointerup", { pointerType: "touch", clientX: box.x + 100, clientY: box.y + 200, isPrimary: true });
  await expect(viewer.locator(".gallery-viewer-count")).toHaveText("2 of 4");
  const viewerAxe = await new AxeBuilder({ page }).analyze();
  expect(viewerAxe.violations.map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(" ")) }))).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();
  await expect(first).toBeFocused();

  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await columns()).toBe(4);
  await gallery.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await gallery.screenshot({ path: path.join(SHOTS, "gallery-1280.png") });
  await gallery.getByRole("link", { name: "Harbour photo 2" }).click();
  await expect(viewer.locator(".gallery-viewer-count")).toHaveText("3 of 4");
  await expect.poll(() => viewer.getByRole("img", { name: "Harbour photo 2" }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 }).toBe(true);
  await page.screenshot({ path: path.join(SHOTS, "viewer-1280.png") });
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();
  await context.close();
});
