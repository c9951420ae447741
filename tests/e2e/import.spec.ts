import { readFile } from "node:fs/promises";
import { checkRedirects } from "../../app/domain/import/check-redirects.server";
import { startOldSite } from "../setup/old-site";
import { accountWithRole } from "./accounts";
import { signInAsAdmin, toastWith } from "./admin-session";
import { withDb } from "./db";
import { expect, expectNoSidewaysScroll, test, waitForHydration } from "./fixtures";

// Moving in (issue 29): an admin imports a WordPress export through /admin/import — dry run, import
// with live progress, report — and every old address of the file then answers 301 to a page that
// answers 200. The old site's images come from a loopback server of this test (the e2e server runs
// with IMPORT_ALLOW_PRIVATE_HOSTS=1).

let oldSite: Awaited<ReturnType<typeof startOldSite>>;
let base: string;

test.beforeAll(async () => {
  oldSite = await startOldSite({ width: 800, height: 450 });
  base = oldSite.base;
});
test.afterAll(() => oldSite.close());

function wxr(stamp: string) {
  const site = base;
  const item = (id: number, slug: string, title: string, body: string, extra = "") => `<item><title>${title}</title><link>${site}/2023/03/${slug}/</link><dc:creator>reporter-${stamp}</dc:creator>
<content:encoded><![CDATA[${body}]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded><wp:post_id>${id}</wp:post_id><wp:post_date_gmt>2023-03-0${id % 9} 08:00:00</wp:post_date_gmt>
<wp:post_name>${slug}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<category domain="category" nicename="news"><![CDATA[News]]></category><category domain="post_tag" nicename="flood-watch-${stamp}"><![CDATA[Flood Watch ${stamp}]]></category>${extra}</item>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old Gazette ${stamp}</title><link>${site}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${site}</wp:base_site_url>
<wp:author><wp:author_login>reporter-${stamp}</wp:author_login><wp:author_display_name><![CDATA[Rita Reporter ${stamp}]]></wp:author_display_name></wp:author>
<wp:category><wp:category_nicename>news</wp:category_nicename><wp:category_parent></wp:category_parent><wp:cat_name><![CDATA[News]]></wp:cat_name></wp:category>
<wp:tag><wp:tag_slug>flood-watch-${stamp}</wp:tag_slug><wp:tag_name><![CDATA[Flood Watch ${stamp}]]></wp:tag_name></wp:tag>
<item><title>River photo</title><link>${site}/river-photo/</link><wp:post_id>900</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_parent>101</wp:post_parent>
<wp:attachment_url>${site}/wp-content/uploads/2023/03/river.jpg</wp:attachment_url><wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key><wp:meta_value><![CDATA[The river over its banks]]></wp:meta_value></wp:postmeta></item>
${item(101, `river-rises-${stamp}`, `River rises ${stamp}`, `The river rose two metres overnight.\n\n<img src="${site}/wp-content/uploads/2023/03/street.jpg" alt="A flooded street" />\n\nSee <a href="${site}/2023/03/sandbags-${stamp}/">where to find sandbags</a>.\n\n[contact-form-7 id="12"]`, `<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>900</wp:meta_value></wp:postmeta>
<wp:comment><wp:comment_id>1</wp:comment_id><wp:comment_author><![CDATA[Neighbour]]></wp:comment_author><wp:comment_author_email>n@example.com</wp:comment_author_email><wp:comment_date_gmt>2023-03-02 09:00:00</wp:comment_date_gmt><wp:comment_content><![CDATA[Stay safe, everyone.]]></wp:comment_content><wp:comment_approved>1</wp:comment_approved><wp:comment_parent>0</wp:comment_parent></wp:comment>`)}
${item(102, `sandbags-${stamp}`, `Where to find sandbags ${stamp}`, "Sandbags are at the fire station.")}
<item><title>Ethics ${stamp}</title><link>${site}/ethics-${stamp}/</link><dc:creator>reporter-${stamp}</dc:creator><content:encoded><![CDATA[We correct our errors.]]></content:encoded><wp:post_id>201</wp:post_id><wp:post_date_gmt>2023-01-01 08:00:00</wp:post_date_gmt><wp:post_name>ethics-${stamp}</wp:post_name><wp:status>publish</wp:status><wp:post_type>page</wp:post_type></item>
</channel></rss>`;
}

test("an admin imports a WordPress export: dry run, import with progress, report, and every old address redirects", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  await signInAsAdmin(page);
  await page.goto("/admin/import");
  await waitForHydration(page.getByRole("button", { name: "Upload and run a dry run" }));
  await page.getByLabel("Export file (.xml or .json)").setInputFiles({ name: `gazette-${stamp}.xml`, mimeType: "text/xml", buffer: Buffer.from(wxr(stamp)) });
  await page.getByRole("button", { name: "Upload and run a dry run" }).click();
  await expect(toastWith(page, "Export uploaded: dry run started")).toBeVisible();
  const heading = page.getByRole("heading", { name: `Dry run of gazette-${stamp}.xml (WordPress)` });
  await expect(heading).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Finished" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("row", { name: "Posts 2" })).toBeVisible();
  await expect(page.getByRole("row", { name: "Pages 1" })).toBeVisible();
  // Its category is the site's own News (the same name): no new category joins the navigation.
  await expect(page.getByRole("row", { name: "New categories 0" })).toBeVisible();
  // The shortcode it cannot convert is reported with its story.
  await expect(page.getByText(/contact-form-7/).first()).toBeVisible();
  // Nothing was written by the dry run.
  expect((await page.request.get(`/article/river-rises-${stamp}`)).status()).toBe(404);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page, `/admin/import at ${width} px`);
    await page.screenshot({ path: test.info().outputPath(`import-dry-run-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("button", { name: "Start import" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Import this site now?" });
  await expect(dialog).toContainText("2 posts and 1 page come in");
  await dialog.getByRole("button", { name: "Start import" }).click();
  await expect(toastWith(page, "Import started")).toBeVisible();
  await expect(page.getByRole("heading", { name: `Import of gazette-${stamp}.xml (WordPress)` })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Finished" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("row", { name: "Comments 1" })).toBeVisible();

  // The report, downloaded as the screen offers it.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the report" }).click();
  const report = JSON.parse(await readFile(await (await download).path(), "utf8")) as { redirects: { from: string; to: string }[] };
  expect(report.redirects.length).toBeGreaterThanOrEqual(6);
  expect(report.redirects).toEqual(expect.arrayContaining([expect.objectContaining({ from: "/?p=101", to: `/article/river-rises-${stamp}` })]));

  // Every old address answers 301 to a page that answers 200: what `npm run import -- check-redirects` says.
  const checked = await checkRedirects(baseURL!, report.redirects);
  expect(checked.failures).toEqual([]);
  expect(checked.ok).toBe(report.redirects.length);

  // The story, as a reader sees it: its imported featured image, text, the link to the other story
  // rewritten to its new address, the tag; the page at its address.
  await page.goto(`/2023/03/river-rises-${stamp}/`);
  await expect(page).toHaveURL(new RegExp(`/article/river-rises-${stamp}$`));
  await expect(page.getByRole("heading", { level: 1, name: `River rises ${stamp}` })).toBeVisible();
  await expect(page.getByRole("img", { name: "The river over its banks" })).toHaveAttribute("src", /\/media\/images\//);
  await expect(page.getByRole("link", { name: "where to find sandbags", exact: true })).toHaveAttribute("href", new RegExp(`^http://localhost:\\d+/article/sandbags-${stamp}$`));
  await expect(page.getByRole("region", { name: "Comments (1)" }).getByText("Stay safe, everyone.")).toBeVisible();
  expect(await page.content()).not.toContain(`${base}/wp-content/uploads/2023/03/street.jpg`);
  await page.screenshot({ path: test.info().outputPath("imported-story-1280.png") });
  await page.goto(`/tag/flood-watch-${stamp}`);
  await expect(page.getByRole("link", { name: `River rises ${stamp}` }).first()).toBeVisible();
  const feed = await page.request.get(`/tag/flood-watch-${stamp}/rss.xml`);
  expect(await feed.text()).toContain(`Where to find sandbags ${stamp}`);
  await page.goto(`/?page_id=201`);
  await expect(page).toHaveURL(new RegExp(`/ethics-${stamp}$`));
  await expect(page.getByText("We correct our errors.")).toBeVisible();
});

/** Issue 39's export: a sticky post with a gallery (one image without alt text) and an image the old site fails to serve at first. */
function newsroomWxr(stamp: string) {
  const site = base;
  const attachment = (id: number, name: string, alt: string | null) =>
    `<item><title>${name}</title><wp:post_id>${id}</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_parent>301</wp:post_parent><wp:attachment_url>${site}/wp-content/uploads/${name}-${stamp}.jpg</wp:attachment_url>` +
    (alt ? `<wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key><wp:meta_value><![CDATA[${alt}]]></wp:meta_value></wp:postmeta>` : "") +
    `</item>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Harbour Herald ${stamp}</title><link>${site}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${site}</wp:base_site_url>
<wp:author><wp:author_login>herald-${stamp}</wp:author_login><wp:author_display_name><![CDATA[Hal Herald ${stamp}]]></wp:author_display_name></wp:author>
${attachment(901, "boats", "Boats under lanterns")}${attachment(902, "crowd", null)}
<item><title>Harbour festival ${stamp}</title><link>${site}/2024/06/festival-${stamp}/</link><dc:creator>herald-${stamp}</dc:creator><content:encoded><![CDATA[The festival in pictures.

[gallery]

<img src="${site}/wp-content/uploads/fireworks-${stamp}.jpg" alt="Fireworks over the harbour" />]]></content:encoded><wp:post_id>301</wp:post_id><wp:post_date_gmt>2024-06-01 20:00:00</wp:post_date_gmt><wp:post_name>festival-${stamp}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type><wp:is_sticky>1</wp:is_sticky></item>
<item><title>Tide tables ${stamp}</title><link>${site}/2024/06/tides-${stamp}/</link><dc:creator>herald-${stamp}</dc:creator><content:encoded><![CDATA[High water at noon.]]></content:encoded><wp:post_id>302</wp:post_id><wp:post_date_gmt>2024-06-02 08:00:00</wp:post_date_gmt><wp:post_name>tides-${stamp}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>
</channel></rss>`;
}

test("a newsroom imports at 390 px: sticky posts are its choice, images without alt text are listed to edit, and missing images are retried", async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const fireworks = `/wp-content/uploads/fireworks-${stamp}.jpg`;
  // The old site fails to serve one image during the import.
  oldSite.gone.add(fireworks);
  await page.setViewportSize({ width: 390, height: 900 });
  await signInAsAdmin(page);
  await page.goto("/admin/import");
  await waitForHydration(page.getByRole("button", { name: "Upload and run a dry run" }));
  await page.getByLabel("Export file (.xml or .json)").setInputFiles({ name: `herald-${stamp}.xml`, mimeType: "text/xml", buffer: Buffer.from(newsroomWxr(stamp)) });
  await page.getByRole("button", { name: "Upload and run a dry run" }).click();
  await expect(page.getByRole("heading", { name: `Dry run of herald-${stamp}.xml (WordPress)` })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Finished" })).toBeVisible({ timeout: 30_000 });

  // Item 7: the dry run names the sticky post; this site has stories, so it is not chosen to begin with.
  await expect(page.getByRole("row", { name: "Sticky posts 1" })).toBeVisible();
  await expect(page.getByText("1 sticky post would become a top story if you choose so when you start the import (not chosen to begin with: this site has stories):")).toBeVisible();
  await expect(page.getByRole("list", { name: "Sticky posts" }).getByRole("listitem")).toHaveText([`post 301 “Harbour festival ${stamp}”`]);
  await expectNoSidewaysScroll(page, "/admin/import's dry run at 390 px");
  await page.screenshot({ path: test.info().outputPath("import-sticky-dry-run-390.png"), fullPage: true });

  await page.getByRole("button", { name: "Start import" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Import this site now?" });
  await expect(dialog).toContainText("2 posts and 0 pages come in");
  const pin = dialog.getByRole("checkbox", { name: "Pin sticky posts as top stories" });
  await expect(pin).not.toBeChecked();
  await expect(dialog).toContainText("1 sticky post would become a top story on the home page");
  await page.screenshot({ path: test.info().outputPath("import-start-dialog-390.png") });
  await dialog.getByRole("button", { name: "Start import" }).click();
  await expect(toastWith(page, "Import started")).toBeVisible();
  await expect(page.getByRole("heading", { name: `Import of herald-${stamp}.xml (WordPress)` })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Finished" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("row", { name: "Pinned as top stories 0" })).toBeVisible();
  await expect(page.getByRole("row", { name: "Images 2" })).toBeVisible();
  const pinned = await withDb((db) => db.query(`select 1 from story_pins p join articles a on a.id = p.article_id where a.slug = $1`, [`festival-${stamp}`]));
  expect(pinned.rowCount).toBe(0);

  // Item 9: the gallery image without alt text keeps none, is counted, and its story is listed to edit.
  await expect(page.getByRole("row", { name: "Images without alt text 1" })).toBeVisible();
  await expect(page.getByText("1 image has no alt text: the old site had none, and none was made up.")).toBeVisible();
  const toEdit = page.getByRole("list", { name: "Stories with images without alt text" }).getByRole("link", { name: `Harbour festival ${stamp}` });
  await expect(toEdit).toHaveAttribute("href", /^\/admin\/articles\/edit\/[0-9a-f-]{36}$/);
  const editPath = await toEdit.getAttribute("href");

  // Item 8: the image the old site did not serve, offered again.
  await expect(page.getByRole("row", { name: "Images that could not be fetched 1" })).toBeVisible();
  await expectNoSidewaysScroll(page, "/admin/import's import at 390 px");
  await page.screenshot({ path: test.info().outputPath("import-follow-ups-390.png"), fullPage: true });
  const importUrl = page.url();
  await page.goto(`/article/festival-${stamp}`);
  await expect(page.getByRole("link", { name: "Fireworks over the harbour" })).toHaveAttribute("href", `${base}${fireworks}`);
  await expect(page.locator('article img[alt=""][src^="/media/images/"]')).toHaveCount(1);
  await expect(page.getByRole("img", { name: "Boats under lanterns" })).toBeVisible();

  // The old site serves it now.
  oldSite.gone.delete(fireworks);
  await page.goto(importUrl);
  await waitForHydration(page.getByRole("button", { name: "Retry missing images" }));
  await page.getByRole("button", { name: "Retry missing images" }).click();
  await expect(toastWith(page, "Retry of the missing images started")).toBeVisible();
  await expect(page.getByRole("heading", { name: `Retry of the missing images of herald-${stamp}.xml (WordPress)` })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Finished" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("row", { name: "Images fetched 1" })).toBeVisible();
  await expect(page.getByRole("row", { name: "Images still missing 0" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Retry missing images" })).toHaveCount(0);
  await expectNoSidewaysScroll(page, "/admin/import's retry at 390 px");
  await page.screenshot({ path: test.info().outputPath("import-retry-390.png"), fullPage: true });
  await page.goto(`/article/festival-${stamp}`);
  await expect(page.getByRole("img", { name: "Fireworks over the harbour" })).toHaveAttribute("src", /\/media\/images\//);
  expect(await page.content()).not.toContain(`${base}${fireworks}`);

  // The list's link opens the story's editor, where its image is described.
  await page.goto(editPath!);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(page.url()).toContain(editPath!);
});

test("an export with a DOCTYPE is refused, and an editor may not import", async ({ page, baseURL }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/import");
  await waitForHydration(page.getByRole("button", { name: "Upload and run a dry run" }));
  const xxe = `<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>&xxe;</title></channel></rss>`;
  await page.getByLabel("Export file (.xml or .json)").setInputFiles({ name: "evil.xml", mimeType: "text/xml", buffer: Buffer.from(xxe) });
  await page.getByRole("button", { name: "Upload and run a dry run" }).click();
  await expect(page.getByText(/DOCTYPE/).first()).toBeVisible({ timeout: 30_000 });

  const editor = await accountWithRole(baseURL, "import-editor", "editor");
  expect((await editor.context.get("/admin/import")).status()).toBe(403);
  const upload = await editor.context.post("/api/admin/imports", { multipart: { file: { name: "x.xml", mimeType: "text/xml", buffer: Buffer.from(xxe) } }, headers: { Accept: "application/json" } });
  expect(upload.status()).toBe(403);
  await editor.context.dispose();
});
