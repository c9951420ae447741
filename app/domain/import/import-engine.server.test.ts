import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { count, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articleAuthors, articles, articleTags, authors, comments, importedRows, imports, storyPins, tags } from "~/db/schema";
import sharp from "~/lib/sharp.server";
import { setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { startOldSite } from "../../../tests/setup/old-site";
import { createImport, getImport, ImportBusyError, importReport, importsToResume, runImport, type ImportServices, type ImportSummary } from "./import-engine.server";
import { readWordPressExport } from "./wordpress-reader.server";

const fx = setUpArticleFixture("import");
const FIXTURES = path.resolve("tests/fixtures/import");
const ACTOR = { id: null, name: "Import test" };
const log = pino({ level: "silent" });

let services: ImportServices;
let work: string;
beforeAll(async () => {
  services = { db: fx.t.db, storage: fx.storage, log, allowPrivateHosts: true, publicUrl: "http://localhost:3000" };
  work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-import-"));
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

async function importFile(kind: "wordpress" | "ghost", file: string, options: { dryRun?: boolean; mediaDir?: string | null; services?: Partial<ImportServices> } = {}) {
  const id = await createImport(fx.t.db, { kind, fileName: path.basename(file), filePath: file, mediaDir: options.mediaDir ?? null, dryRun: options.dryRun ?? false, createdById: null });
  const row = await runImport({ ...services, ...options.services }, id, ACTOR);
  expect(row).not.toBeNull();
  return { id, row: row!, summary: row!.summary as ImportSummary };
}

const total = async (table: typeof articles | typeof comments | typeof authors | typeof tags) => (await fx.t.db.select({ n: count() }).from(table))[0]!.n;
const redirectsOf = async (source: string) =>
  (await fx.t.db.execute<{ from_path: string; to_path: string; status_code: number }>(sql`select from_path, to_path, status_code from redirects where source = ${source} order by from_path`)).rows;

describe("WordPress's theme unit test data", () => {
  const file = path.join(FIXTURES, "themeunittestdata.wordpress.xml");
  let first: Awaited<ReturnType<typeof importFile>>;
  let emptyMedia: string;

  beforeAll(async () => {
    emptyMedia = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-import-media-"));
    first = await importFile("wordpress", file, { mediaDir: emptyMedia });
  }, 120_000);

  it("imports every published post with its text, and its pages", async () => {
    expect(first.row.status).toBe("done");
    const published: { sourceId: string; title: string; text: string; kind: string }[] = [];
    for await (const record of readWordPressExport(file)) {
      if (record.type === "post" && record.status === "publish" && !record.passwordProtected) {
        published.push({ sourceId: record.sourceId, title: record.title, text: record.html, kind: record.kind });
      }
    }
    const posts = published.filter((p) => p.kind === "post");
    expect(posts.length).toBeGreaterThan(30);
    const source = first.summary.source!;
    for (const post of posts) {
      const [row] = await fx.t.db
        .select({ status: articles.status, title: articles.title, content: articles.content })
        .from(importedRows)
        .innerJoin(articles, sql`${articles.id}::text = ${importedRows.targetId}`)
        .where(sql`${importedRows.source} = ${source} and ${importedRows.sourceType} = 'post' and ${importedRows.sourceId} = ${post.sourceId}`);
      expect(row, `post ${post.sourceId} “${post.title}”`).toBeDefined();
      expect(row!.status).toBe("published");
      if (post.title.trim()) expect(row!.title).toBe(post.title.trim().slice(0, 300));
      // Its words are there: the first words of the source's text appear in the stored text.
      const words = post.text.replace(/<[^>]+>|\[[^\]]+\]/g, " ").replace(/&[a-z#0-9]+;/gi, " ").split(/\s+/).filter((w) => /^[A-Za-z]{4,}$/.test(w)).slice(0, 3);
      for (const word of words) expect(row!.content.toLowerCase(), `post ${post.sourceId}`).toContain(word.toLowerCase());
    }
    expect(first.summary.pages).toBeGreaterThan(10);
    expect((await fx.t.db.execute(sql`select count(*)::int as n from pages`)).rows[0]).toMatchObject({ n: first.summary.pages });
  });

  it("flattens nested categories to their top one, keeping the child as a tag, and brings tags and comments", async () => {
    const [child] = await fx.t.db.select().from(tags).where(eq(tags.slug, "grandchild-category"));
    expect(child).toBeDefined();
    expect(first.summary.comments).toBeGreaterThan(10);
    const [pending] = await fx.t.db.select({ n: count() }).from(comments).where(eq(comments.status, "pending"));
    expect(pending!.n).toBeGreaterThan(0);
    // Replies hang under a top-level comment, never deeper.
    const deep = await fx.t.db.execute(sql`select 1 from comments c join comments p on p.id = c.parent_comment_id where p.parent_comment_id is not null`);
    expect(deep.rows).toHaveLength(0);
    // The sticky post is pinned as a top story.
    expect((await fx.t.db.select({ n: count() }).from(storyPins)).at(0)!.n).toBeGreaterThan(0);
  });

  it("reports what it could not convert, naming the story, and the images it could not have", async () => {
    const report = (await importReport(fx.t.db, first.id))!;
    expect(report.notes.some((n) => n.kind === "unconverted" && /post \d+ “/.test(n.what))).toBe(true);
    expect(report.notes.some((n) => n.kind === "media" && n.message.includes("not in the media folder"))).toBe(true);
    expect(report.notes.some((n) => n.message.includes("Password-protected"))).toBe(true);
  });

  it("gives every old address of a public story a 301 to its new one", async () => {
    const report = (await importReport(fx.t.db, first.id))!;
    expect(report.redirects.length).toBeGreaterThan(50);
    const rows = await redirectsOf(`import:${first.summary.source}`);
    expect(rows.every((r) => r.status_code === 301)).toBe(true);
    expect(rows.some((r) => /^\/\?p=\d+$/.test(r.from_path) && r.to_path.startsWith("/article/"))).toBe(true);
    expect(rows.some((r) => /^\/\?page_id=\d+$/.test(r.from_path))).toBe(true);
    expect(rows.some((r) => r.from_path.startsWith("/category/") && r.to_path.startsWith("/category/"))).toBe(true);
    expect(rows.some((r) => r.from_path === "/feed" && r.to_path === "/rss.xml")).toBe(true);
  });

  it("changes nothing when run again", async () => {
    const before = { articles: await total(articles), comments: await total(comments), authors: await total(authors), tags: await total(tags) };
    const redirectsBefore = (await redirectsOf(`import:${first.summary.source}`)).length;
    const again = await importFile("wordpress", file, { mediaDir: emptyMedia });
    expect(again.row.status).toBe("done");
    expect(again.summary.posts).toBe(0);
    expect(again.summary.pages).toBe(0);
    expect(again.summary.comments).toBe(0);
    expect(again.summary.unchanged).toBe(first.summary.posts + first.summary.pages);
    expect({ articles: await total(articles), comments: await total(comments), authors: await total(authors), tags: await total(tags) }).toEqual(before);
    expect((await redirectsOf(`import:${first.summary.source}`)).length).toBe(redirectsBefore);
  }, 120_000);
});

describe("images from the old site", () => {
  let oldSite: Awaited<ReturnType<typeof startOldSite>>;
  let base: string;

  beforeAll(async () => {
    oldSite = await startOldSite();
    base = oldSite.base;
    expect((await sharp(oldSite.photo).metadata()).exif).toBeDefined();
  });
  afterAll(() => oldSite.close());

  const wxr = (site: string, offset = 0) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>Old Gazette</title><link>${site}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${site}</wp:base_site_url><wp:base_blog_url>${site}</wp:base_blog_url>
<wp:author><wp:author_login>editor</wp:author_login><wp:author_display_name><![CDATA[Eda Editor]]></wp:author_display_name></wp:author>
<wp:category><wp:category_nicename>local</wp:category_nicename><wp:category_parent></wp:category_parent><wp:cat_name><![CDATA[Local]]></wp:cat_name></wp:category>
<item><title>Harbour photo</title><link>${site}/harbour/</link><dc:creator>editor</dc:creator><wp:post_id>${90 + offset}</wp:post_id><wp:post_name>harbour</wp:post_name><wp:status>inherit</wp:status><wp:post_parent>${10 + offset}</wp:post_parent><wp:post_type>attachment</wp:post_type><wp:attachment_url>${site}/wp-content/uploads/2024/01/harbour.jpg</wp:attachment_url><excerpt:encoded><![CDATA[The harbour at dawn]]></excerpt:encoded><wp:postmeta><wp:meta_key>_wp_attachment_image_alt</wp:meta_key><wp:meta_value><![CDATA[Boats in the harbour]]></wp:meta_value></wp:postmeta></item>
<item><title>Storm hits the harbour</title><link>${site}/2024/01/storm/</link><dc:creator>editor</dc:creator><content:encoded><![CDATA[The storm came in overnight.

<img src="${site}/wp-content/uploads/2024/01/inline.jpg" alt="Waves" />

Read <a href="${site}/2024/01/calm/">the calm before</a> and <a href="https://elsewhere.example/x">elsewhere</a>.

<img src="${site}/wp-content/uploads/2024/01/missing.png" alt="Gone" />]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded><wp:post_id>${10 + offset}</wp:post_id><wp:post_date_gmt>2024-01-05 07:00:00</wp:post_date_gmt><wp:post_name>storm</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type><category domain="category" nicename="local"><![CDATA[Local]]></category><wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>${90 + offset}</wp:meta_value></wp:postmeta></item>
<item><title>The calm before</title><link>${site}/2024/01/calm/</link><dc:creator>editor</dc:creator><content:encoded><![CDATA[All was quiet.]]></content:encoded><wp:post_id>${11 + offset}</wp:post_id><wp:post_date_gmt>2024-01-04 07:00:00</wp:post_date_gmt><wp:post_name>calm</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type><category domain="category" nicename="local"><![CDATA[Local]]></category></item>
</channel></rss>`;

  it("imports featured and inline images through the upload pipeline, stripped, and points the story at them", async () => {
    const file = path.join(work, "media.xml");
    await fs.writeFile(file, wxr(base));
    const { row, summary } = await importFile("wordpress", file);
    expect(row.status).toBe("done");
    const [story] = await fx.t.db.select().from(articles).where(eq(articles.slug, "storm"));
    expect(story!.featuredImage).toMatch(/^\/media\/images\/[\w.-]+\.jpg$/);
    expect(story!.featuredImageAlt).toBe("Boats in the harbour");
    expect(story!.featuredImageCaption).toBe("The harbour at dawn");
    const doc = JSON.stringify(story!.contentDoc);
    expect(doc).not.toContain(`${base}/wp-content/uploads/2024/01/inline.jpg`);
    expect(doc).toMatch(/"src":"\/media\/images\/[\w.-]+\.jpg"/);
    // The link to the other imported story leads to its new address; the one elsewhere stays.
    expect(doc).toContain('"href":"http://localhost:3000/article/calm"');
    expect(doc).toContain("https://elsewhere.example/x");
    // The image that could not be had keeps a link to the original, and is reported.
    expect(doc).toContain(`${base}/wp-content/uploads/2024/01/missing.png`);
    const report = (await importReport(fx.t.db, row.id))!;
    expect(report.notes.some((n) => n.kind === "media" && n.message.includes("missing.png"))).toBe(true);
    // Stored without the old site's EXIF.
    const stored = fx.storage.localPath("images", story!.featuredImage!.split("/").pop()!)!;
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(summary.images).toBe(2);
    // The byline and category.
    const byline = await fx.t.db.select({ name: authors.name }).from(articleAuthors).innerJoin(authors, eq(authors.id, articleAuthors.authorId)).where(eq(articleAuthors.articleId, story!.id));
    expect(byline.map((b) => b.name)).toEqual(["Eda Editor"]);
    const rows = await redirectsOf(`import:${summary.source}`);
    expect(rows).toEqual(expect.arrayContaining([expect.objectContaining({ from_path: "/2024/01/storm", to_path: "/article/storm" }), expect.objectContaining({ from_path: "/?p=10", to_path: "/article/storm" })]));
  });

  it("refuses loopback and private addresses unless allowed", async () => {
    const file = path.join(work, "private.xml");
    await fs.writeFile(file, wxr(base, 1000).replaceAll("storm", "gale").replaceAll("calm", "lull").replaceAll(".jpg", "-2.jpg").replaceAll(".png", "-2.png"));
    const served = oldSite.requests.length;
    const { row } = await importFile("wordpress", file, { services: { allowPrivateHosts: false } });
    expect(row.status).toBe("done");
    const report = (await importReport(fx.t.db, row.id))!;
    expect(report.notes.some((n) => n.kind === "media" && n.message.includes("private or local address"))).toBe(true);
    expect(oldSite.requests.length).toBe(served);
  });
});

describe("bad files and runs", () => {
  it("refuses an export with a DOCTYPE before writing anything", async () => {
    const before = { articles: await total(articles), rows: (await fx.t.db.select({ n: count() }).from(importedRows))[0]!.n };
    const { row } = await importFile("wordpress", path.join(FIXTURES, "doctype-entity.xml"));
    expect(row.status).toBe("failed");
    expect(row.error).toMatch(/DOCTYPE/);
    expect({ articles: await total(articles), rows: (await fx.t.db.select({ n: count() }).from(importedRows))[0]!.n }).toEqual(before);
  });

  it("says in one line when a file is not an export", async () => {
    const file = path.join(work, "not-an-export.xml");
    await fs.writeFile(file, "<html><body>Hello</body></html>");
    const { row } = await importFile("wordpress", file);
    expect(row.status).toBe("failed");
    expect(row.error).toMatch(/not a WordPress export/);
    expect(row.error!.split("\n")).toHaveLength(1);
  });

  it("a dry run writes nothing but its report", async () => {
    const before = { articles: await total(articles), authors: await total(authors) };
    const { row, summary } = await importFile("wordpress", path.join(FIXTURES, "wordpress-com-https.xml"), { dryRun: true });
    expect(row.status).toBe("done");
    expect(summary.posts).toBeGreaterThan(0);
    expect({ articles: await total(articles), authors: await total(authors) }).toEqual(before);
  });

  it("reads the https namespace of WordPress.com with Co-Authors Plus bylines in order", async () => {
    const { row } = await importFile("wordpress", path.join(FIXTURES, "wordpress-com-https.xml"));
    expect(row.status).toBe("done");
    const bylines = await fx.t.db.execute<{ n: number }>(sql`select count(*)::int as n from article_authors group by article_id order by n desc limit 1`);
    expect(bylines.rows[0]!.n).toBeGreaterThan(1);
  });

  it("never runs two imports at once, and resumes one whose runner stopped", async () => {
    const a = await createImport(fx.t.db, { kind: "wordpress", fileName: "a.xml", filePath: path.join(FIXTURES, "malformed-item.xml"), mediaDir: null, dryRun: false, createdById: null });
    const b = await createImport(fx.t.db, { kind: "wordpress", fileName: "b.xml", filePath: path.join(FIXTURES, "malformed-item.xml"), mediaDir: null, dryRun: false, createdById: null });
    // `a` was running when its process died: its heartbeat is old.
    await fx.t.db.update(imports).set({ status: "running", heartbeatAt: sql`now() - interval '5 minutes'` }).where(eq(imports.id, a));
    await expect(runImport(services, b, ACTOR)).rejects.toBeInstanceOf(ImportBusyError);
    expect((await importsToResume(fx.t.db)).map((r) => r.id)).toEqual(expect.arrayContaining([a, b]));
    const resumed = await runImport(services, a, ACTOR);
    expect(resumed!.status).toBe("done");
    expect((await runImport(services, b, ACTOR))!.status).toBe("done");
    // A malformed item is reported and skipped; the rest is imported.
    const report = (await importReport(fx.t.db, a))!;
    expect(report.notes.some((n) => n.kind === "skipped")).toBe(true);
    expect((await getImport(fx.t.db, a))!.summary).toMatchObject({ skipped: expect.any(Number) });
  });
});

describe("Ghost", () => {
  it("imports posts with their authors in order, tags, the primary tag as category, and pages", async () => {
    const { row, summary } = await importFile("ghost", path.join(FIXTURES, "ghost-5.json"));
    expect(row.status).toBe("done");
    expect(summary.posts).toBeGreaterThan(0);
    expect(summary.pages).toBeGreaterThan(0);
    const multi = await fx.t.db.execute<{ article_id: string; names: string[] }>(
      sql`select aa.article_id, array_agg(au.name order by aa.position) as names from article_authors aa join authors au on au.id = aa.author_id
          where aa.article_id in (select target_id::uuid from imported_rows where source = ${summary.source} and source_type = 'post') group by aa.article_id having count(*) > 1`,
    );
    expect(multi.rows.length).toBeGreaterThan(0);
    const tagged = await fx.t.db
      .select({ n: count() })
      .from(articleTags)
      .where(sql`${articleTags.articleId} in (select target_id::uuid from imported_rows where source = ${summary.source} and source_type = 'post')`);
    expect(tagged[0]!.n).toBeGreaterThan(0);
    const [categorised] = await fx.t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from articles where category_id is not null and id in (select target_id::uuid from imported_rows where source = ${summary.source} and source_type = 'post')`,
    ).then((r) => r.rows);
    expect(categorised!.n).toBeGreaterThan(0);
  });

  it("renders a mobiledoc-only Ghost 3 export", async () => {
    const { row, summary } = await importFile("ghost", path.join(FIXTURES, "ghost-3.json"));
    expect(row.status).toBe("done");
    expect(summary.posts).toBeGreaterThan(0);
  });
});
