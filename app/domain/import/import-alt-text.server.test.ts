import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, pages } from "~/db/schema";
import type { StoryDocument } from "~/domain/articles/story-document.schema";
import { setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { startOldSite } from "../../../tests/setup/old-site";
import { storiesWithoutAlt } from "./import-admin.server";
import { createImport, importReport, runImport, type ImportSummary } from "./import-engine.server";

// Issue 39, "Gallery images without alt text become alt="Image"": an image the old site gave no alt
// text (nor a caption) is kept without one, each is named in the report, and the Import screen lists
// the stories that still show one, with a link to edit each.

const fx = setUpArticleFixture("import-alt-text");
const log = pino({ level: "silent" });

let oldSite: Awaited<ReturnType<typeof startOldSite>>;
let work: string;
beforeAll(async () => {
  oldSite = await startOldSite();
  work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-import-alt-"));
});
afterAll(async () => {
  await oldSite.close();
  await fs.rm(work, { recursive: true, force: true });
});

const attachment = (id: number, name: string, meta: { alt?: string; caption?: string }) =>
  `<item><title>${name}</title><wp:post_id>${id}</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:post_parent>10</wp:post_parent><wp:attachment_url>${oldSite.base}/wp-content/uploads/${name}.jpg</wp:attachment_url>` +
  (meta.caption ? `<excerpt:encoded><![CDATA[${meta.caption}]]></excerpt:encoded>` : "") +
  (meta.alt ? `<wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key><wp:meta_value><![CDATA[${meta.alt}]]></wp:meta_value></wp:postmeta>` : "") +
  `</item>`;

const wxr = () => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Gallery Gazette</title><link>${oldSite.base}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${oldSite.base}</wp:base_site_url>
<wp:author><wp:author_login>ed</wp:author_login><wp:author_display_name><![CDATA[Ed]]></wp:author_display_name></wp:author>
${attachment(91, "quay", { alt: "Boats at the quay" })}${attachment(92, "crowd", {})}${attachment(93, "lanterns", { caption: "Lanterns on the water" })}${attachment(94, "stalls", {})}
<item><title>Festival night</title><link>${oldSite.base}/festival/</link><dc:creator>ed</dc:creator><content:encoded><![CDATA[The festival in pictures.

[gallery]]]></content:encoded><wp:post_id>10</wp:post_id><wp:post_date_gmt>2024-03-01 20:00:00</wp:post_date_gmt><wp:post_name>festival</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>
<item><title>Our photographers</title><link>${oldSite.base}/photographers/</link><dc:creator>ed</dc:creator><content:encoded><![CDATA[Who takes our pictures.

<img src="${oldSite.base}/wp-content/uploads/team.jpg" />]]></content:encoded><wp:post_id>20</wp:post_id><wp:post_date_gmt>2024-01-01 08:00:00</wp:post_date_gmt><wp:post_name>photographers</wp:post_name><wp:status>publish</wp:status><wp:post_type>page</wp:post_type></item>
</channel></rss>`;

describe("images without alt text", () => {
  let id: string;
  let summary: ImportSummary;
  beforeAll(async () => {
    const file = path.join(work, "gallery.xml");
    await fs.writeFile(file, wxr());
    id = await createImport(fx.t.db, { kind: "wordpress", fileName: "gallery.xml", filePath: file, mediaDir: null, dryRun: false, createdById: null });
    const row = (await runImport({ db: fx.t.db, storage: fx.storage, log, allowPrivateHosts: true, publicUrl: "http://localhost:3000" }, id, { id: null, name: "Import test" }))!;
    expect(row.status).toBe("done");
    summary = row.summary as ImportSummary;
  });

  const galleryAlts = async () => {
    const [story] = await fx.t.db.select({ doc: articles.contentDoc }).from(articles).where(eq(articles.slug, "festival"));
    return (story!.doc as StoryDocument).content.flatMap((b) => (b.type === "storyImage" ? [b.attrs.alt] : []));
  };

  it("keeps a gallery image without alt text without one, instead of a made-up word", async () => {
    // Its own alt, none, its caption, none.
    expect(await galleryAlts()).toEqual(["Boats at the quay", "", "Lanterns on the water", ""]);
    // An imported page may hold one too.
    const [page] = await fx.t.db.select({ doc: pages.contentDoc }).from(pages).where(eq(pages.title, "Our photographers"));
    expect((page!.doc as StoryDocument).content.find((b) => b.type === "storyImage")).toMatchObject({ attrs: { alt: "" } });
  });

  it("flags each in the report, with its story", async () => {
    expect(summary.imagesWithoutAlt).toBe(3);
    // (The gallery's four and the page's one were all brought in, and counted.)
    expect(summary.images).toBe(5);
    const notes = (await importReport(fx.t.db, id))!.notes.filter((n) => n.kind === "alt");
    expect(notes.map((n) => n.what)).toEqual(["post 10 “Festival night”", "post 10 “Festival night”", "page 20 “Our photographers”"]);
    expect(notes[0]!.message).toMatch(/^An image has no alt text \(\/media\/images\/[\w.-]+\): describe it when you next edit the story\.$/);
  });

  it("lists the stories that still show one, with their edit links, until an editor describes it", async () => {
    const [story] = await fx.t.db.select({ id: articles.id, doc: articles.contentDoc }).from(articles).where(eq(articles.slug, "festival"));
    const [page] = await fx.t.db.select({ id: pages.id }).from(pages).where(eq(pages.title, "Our photographers"));
    const source = summary.source!;
    expect(await storiesWithoutAlt(fx.t.db, source)).toEqual({
      total: 2,
      stories: [
        { title: "Festival night", editPath: `/admin/articles/edit/${story!.id}`, images: 2 },
        { title: "Our photographers", editPath: `/admin/pages/edit/${page!.id}`, images: 1 },
      ],
    });
    // An editor describes the gallery's images: the story leaves the list.
    const doc = story!.doc as StoryDocument;
    const described = { ...doc, content: doc.content.map((b) => (b.type === "storyImage" && !b.attrs.alt ? { ...b, attrs: { ...b.attrs, alt: "Described" } } : b)) };
    await fx.t.db.update(articles).set({ contentDoc: described }).where(eq(articles.id, story!.id));
    expect(await storiesWithoutAlt(fx.t.db, source)).toEqual({ total: 1, stories: [expect.objectContaining({ title: "Our photographers" })] });
  });
});
