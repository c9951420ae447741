import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { count, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articleRevisions, articles, importMissingImages, pages } from "~/db/schema";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { startOldSite } from "../../../tests/setup/old-site";
import { NOTHING_TO_RETRY, RETRY_UNDER_WAY, startMediaRetry } from "./import-admin.server";
import { createImport, getImport, importReport, runImport, type ImportSummary } from "./import-engine.server";
import { IMPORT_TASK, importTasks } from "./import-job.server";
import { missingImageCount, placeImages } from "./import-media-retry.server";

// Issue 39, "Images that could not be fetched are lost for good": an image the old site did not serve
// during the import is remembered with its story, and "Retry missing images" (a job of the queue, as
// the import is) brings it later and puts it where the story's link to the old host stood.

const fx = setUpArticleFixture("import-media-retry");
const log = pino({ level: "silent" });
const ACTOR = { id: null, name: "Import test" };

let oldSite: Awaited<ReturnType<typeof startOldSite>>;
let work: string;
beforeAll(async () => {
  oldSite = await startOldSite();
  work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-import-retry-"));
});
afterAll(async () => {
  await oldSite.close();
  await fs.rm(work, { recursive: true, force: true });
});

const UPLOADS = "/wp-content/uploads/2024/01";

const wxr = (site: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Harbour Herald</title><link>${site}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${site}</wp:base_site_url>
<wp:author><wp:author_login>editor</wp:author_login><wp:author_display_name><![CDATA[Eda Editor]]></wp:author_display_name></wp:author>
<item><title>Harbour photo</title><wp:post_id>90</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_parent>10</wp:post_parent><wp:attachment_url>${site}${UPLOADS}/harbour.jpg</wp:attachment_url><excerpt:encoded><![CDATA[The harbour at dawn]]></excerpt:encoded><wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key><wp:meta_value><![CDATA[Boats in the harbour]]></wp:meta_value></wp:postmeta></item>
<item><title>Storm hits the harbour</title><link>${site}/2024/01/storm/</link><dc:creator>editor</dc:creator><content:encoded><![CDATA[The storm came in overnight.

<img src="${site}${UPLOADS}/waves.jpg" alt="Waves over the wall" />

<ul><li><img src="${site}${UPLOADS}/pier.jpg" alt="The pier" /></li></ul>

<img src="${site}${UPLOADS}/calm.jpg" alt="Calm" />]]></content:encoded><wp:post_id>10</wp:post_id><wp:post_date_gmt>2024-01-05 07:00:00</wp:post_date_gmt><wp:post_name>storm</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type><wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>90</wp:meta_value></wp:postmeta></item>
<item><title>About the Herald</title><link>${site}/about/</link><dc:creator>editor</dc:creator><content:encoded><![CDATA[We print the news.

<img src="${site}${UPLOADS}/office.jpg" alt="Our office" />]]></content:encoded><wp:post_id>20</wp:post_id><wp:post_date_gmt>2024-01-01 07:00:00</wp:post_date_gmt><wp:post_name>about</wp:post_name><wp:status>publish</wp:status><wp:post_type>page</wp:post_type></item>
</channel></rss>`;

const services = () => ({ db: fx.t.db, storage: fx.storage, log, allowPrivateHosts: true, publicUrl: "http://localhost:3000" });

async function run(id: string) {
  const row = await runImport(services(), id, ACTOR);
  expect(row?.status).toBe("done");
  return { row: row!, summary: row!.summary as ImportSummary };
}

const story = async () => (await fx.t.db.select().from(articles).where(eq(articles.slug, "storm")))[0]!;
const page = async () => (await fx.t.db.select().from(pages).where(eq(pages.title, "About the Herald")))[0]!;
const images = (doc: unknown) => ((doc as StoryDocument).content ?? []).flatMap(function all(b): { src: string; alt: string }[] {
  if (b.type === "storyImage") return [{ src: b.attrs.src, alt: b.attrs.alt }];
  if (b.type === "blockquote") return b.content.flatMap(all);
  if (b.type === "bulletList" || b.type === "orderedList") return b.content.flatMap((item) => item.content.flatMap(all));
  return [];
});

describe("Retry missing images", () => {
  let file: string;
  let source: string;
  let importId: string;

  beforeAll(async () => {
    file = path.join(work, "herald.xml");
    await fs.writeFile(file, wxr(oldSite.base));
    // During the import, the old site fails to serve the featured photo and three of the body's images.
    for (const name of ["harbour.jpg", "waves.jpg", "pier.jpg", "office.jpg"]) oldSite.gone.add(`${UPLOADS}/${name}`);
    importId = await createImport(fx.t.db, { kind: "wordpress", fileName: "herald.xml", filePath: file, mediaDir: null, dryRun: false, createdById: null });
    source = (await run(importId)).summary.source!;
  });

  it("remembers each image the import could not have with its story, and the story links to its old address instead", async () => {
    const { summary } = { summary: (await getImport(fx.t.db, importId))!.summary as ImportSummary };
    expect(summary.missingImages).toBe(4);
    expect(await missingImageCount(fx.t.db, source)).toBe(4);
    const storm = await story();
    expect(storm.featuredImage).toBeNull();
    const doc = JSON.stringify(storm.contentDoc);
    expect(doc).toContain(`"href":"${oldSite.base}${UPLOADS}/waves.jpg"`);
    expect(doc).toContain(`"href":"${oldSite.base}${UPLOADS}/pier.jpg"`);
    expect(images(storm.contentDoc)).toEqual([{ src: expect.stringMatching(/^\/media\/images\//), alt: "Calm" }]);
  });

  it("a second run of the import reports them as imported before and brings none", async () => {
    oldSite.gone.clear();
    oldSite.gone.add(`${UPLOADS}/office.jpg`);
    const again = await run(await createImport(fx.t.db, { kind: "wordpress", fileName: "herald.xml", filePath: file, mediaDir: null, dryRun: false, createdById: null }));
    expect(again.summary.unchanged).toBe(2);
    expect((await story()).featuredImage).toBeNull();
    expect(await missingImageCount(fx.t.db, source)).toBe(4);
  });

  it("brings, as a job of the queue, what the old site serves now and puts each image where its link stood", async () => {
    const revisionsBefore = (await fx.t.db.select({ n: count() }).from(articleRevisions))[0]!.n;
    const retryId = await startMediaRetry(fx.t.db, importId, ACTOR);
    // One retry of a site at a time.
    await expect(startMediaRetry(fx.t.db, importId, ACTOR)).rejects.toMatchObject({ message: RETRY_UNDER_WAY });
    const { tasks } = importTasks({ ...services(), dataDir: work });
    await (tasks[IMPORT_TASK] as (payload: unknown, helpers: unknown) => Promise<void>)({ importId: retryId }, {});
    const retry = (await getImport(fx.t.db, retryId))!;
    expect(retry).toMatchObject({ status: "done", retryMedia: true });
    // The report: how many were fetched, how many are still missing (the page's: the old site still fails it).
    expect(retry.summary).toMatchObject({ images: 3, missingImages: 1, source });
    const report = (await importReport(fx.t.db, retryId))!;
    expect(report.notes).toEqual([expect.objectContaining({ kind: "media", what: "page “About the Herald”", message: expect.stringContaining("Still missing") })]);
    expect(report.redirects).toEqual([]);

    const storm = await story();
    expect(storm.featuredImage).toMatch(/^\/media\/images\//);
    expect(storm.featuredImageAlt).toBe("Boats in the harbour");
    expect(storm.featuredImageCaption).toBe("The harbour at dawn");
    const doc = JSON.stringify(storm.contentDoc);
    expect(doc).not.toContain(`${oldSite.base}${UPLOADS}/waves.jpg`);
    expect(doc).not.toContain(`${oldSite.base}${UPLOADS}/pier.jpg`);
    expect(images(storm.contentDoc).map((i) => i.alt)).toEqual(["Waves over the wall", "The pier", "Calm"]);
    expect(storm.content).toContain("The storm came in overnight.");
    // The change is in History, named after who asked for it.
    expect((await fx.t.db.select({ n: count() }).from(articleRevisions))[0]!.n).toBe(revisionsBefore + 1);
    expect(JSON.stringify((await page()).contentDoc)).toContain(`${oldSite.base}${UPLOADS}/office.jpg`);
    expect(await missingImageCount(fx.t.db, source)).toBe(1);
  });

  it("takes the rest from a folder of the old site's uploads, and then has nothing left to retry", async () => {
    const mediaDir = path.join(work, "uploads-copy");
    await fs.mkdir(path.join(mediaDir, "wp-content/uploads/2024/01"), { recursive: true });
    await fs.writeFile(path.join(mediaDir, "wp-content/uploads/2024/01/office.jpg"), oldSite.photo);
    const retryId = await createImport(fx.t.db, { kind: "wordpress", fileName: "herald.xml", filePath: file, mediaDir, dryRun: false, createdById: null, retryMedia: { source } });
    const { summary } = await run(retryId);
    expect(summary).toMatchObject({ images: 1, missingImages: 0 });
    expect(images((await page()).contentDoc)).toEqual([{ src: expect.stringMatching(/^\/media\/images\//), alt: "Our office" }]);
    expect(await fx.t.db.select().from(importMissingImages).where(eq(importMissingImages.source, source))).toEqual([]);
    await expect(startMediaRetry(fx.t.db, importId, ACTOR)).rejects.toMatchObject({ message: NOTHING_TO_RETRY });
  });

  it("forgets a story's missing images when the story is deleted", async () => {
    const [row] = await fx.t.db
      .insert(importMissingImages)
      .values({ source, articleId: (await story()).id, place: "body", url: `${oldSite.base}${UPLOADS}/late.jpg`, reason: "gone" })
      .returning();
    expect(row).toBeDefined();
    await fx.t.db.execute(sql`delete from articles where slug = 'storm'`);
    expect(await missingImageCount(fx.t.db, source)).toBe(0);
  });
});

describe("placeImages", () => {
  const link = (href: string, text: string) => ({ type: "paragraph" as const, content: [{ type: "text" as const, text, marks: [{ type: "link" as const, attrs: { href } }] }] });

  it("replaces only paragraphs that stand in for a fetched image, in lists and quotes too", () => {
    const doc: StoryDocument = {
      type: "doc",
      content: [
        link("https://old.example/a.jpg", "A"),
        { type: "paragraph", content: [{ type: "text", text: "See " }, { type: "text", text: "this", marks: [{ type: "link", attrs: { href: "https://old.example/a.jpg" } }] }] },
        { type: "bulletList", content: [{ type: "listItem", content: [link("https://old.example/a.jpg", "A")] }] },
        { type: "blockquote", content: [link("https://old.example/b.jpg", "B")] },
      ],
    };
    const { doc: next, placed } = placeImages(doc, new Map([["https://old.example/a.jpg", { src: "/media/images/a.jpg", alt: "A", caption: "Cap" }]]));
    expect([...placed]).toEqual(["https://old.example/a.jpg"]);
    const image = { type: "storyImage", attrs: { src: "/media/images/a.jpg", alt: "A", caption: "Cap", credit: "" } };
    expect(next.content).toEqual([
      image,
      doc.content[1],
      { type: "bulletList", content: [{ type: "listItem", content: [{ type: "paragraph" }, image] }] },
      doc.content[3],
    ]);
    expect(doc.content[0]).toEqual(link("https://old.example/a.jpg", "A")); // the input is left as it was
  });
});
