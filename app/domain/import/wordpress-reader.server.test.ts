import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ImportFileError, type ImportPost, type ImportRecord } from "./import-records";
import { DOCTYPE_REFUSAL, readWordPressExport } from "./wordpress-reader.server";

const FIXTURES = path.resolve(import.meta.dirname, "../../../tests/fixtures/import");
const fixture = (name: string) => path.join(FIXTURES, name);

async function readAll(file: string): Promise<ImportRecord[]> {
  const records: ImportRecord[] = [];
  for await (const record of readWordPressExport(file)) records.push(record);
  return records;
}

/** Reads until it throws; returns what came before and the error. */
async function readUntilError(file: string): Promise<{ records: ImportRecord[]; error: unknown }> {
  const records: ImportRecord[] = [];
  try {
    for await (const record of readWordPressExport(file)) records.push(record);
  } catch (error) {
    return { records, error };
  }
  return { records, error: null };
}

const posts = (records: ImportRecord[]) => records.filter((r): r is ImportPost => r.type === "post");

async function tempFile(name: string, content: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "wxr-test-"));
  const file = path.join(dir, name);
  await fs.writeFile(file, content);
  return file;
}

describe("readWordPressExport: the Theme Unit Test data", async () => {
  const records = await readAll(fixture("themeunittestdata.wordpress.xml"));
  const all = posts(records);

  it("starts with the site, then authors and terms before any item", () => {
    expect(records[0]).toEqual({ type: "site", kind: "wordpress", baseUrl: "https://wpthemetestdata.wordpress.com", title: "Theme Unit Test Data" });
    const firstItem = records.findIndex((r) => r.type === "post" || r.type === "attachment");
    const declared = records.slice(1, firstItem);
    expect(declared.every((r) => r.type === "author" || r.type === "term" || r.type === "skip")).toBe(true);
    expect(declared.filter((r) => r.type === "author").map((r) => r.type === "author" && r.sourceId)).toEqual(["themedemos", "themereviewteam"]);
  });

  it("reads every post, page and attachment, and skips the menu items", () => {
    expect(all.filter((p) => p.kind === "post")).toHaveLength(51);
    expect(all.filter((p) => p.kind === "page")).toHaveLength(21);
    expect(records.filter((r) => r.type === "attachment")).toHaveLength(38);
    expect(records.filter((r) => r.type === "skip" && r.reason.includes('"nav_menu_item"'))).toHaveLength(70);
    expect(all.filter((p) => p.status === "draft")).toHaveLength(1);
    expect(all.filter((p) => p.status === "future")).toHaveLength(1);
  });

  it("reads comments, leaving pingbacks and trackbacks out with a note", () => {
    const comments = all.flatMap((p) => p.comments);
    expect(comments).toHaveLength(28);
    expect(comments.filter((c) => c.status === "pending")).toHaveLength(3);
    expect(comments.some((c) => c.parentSourceId !== null)).toBe(true);
    expect(records).toContainEqual({ type: "skip", what: "comments of post 1149", reason: "2 trackbacks, 2 pingbacks left out (not comments)" });
  });

  it("reads nested categories with their parents, and tags", () => {
    const terms = records.filter((r) => r.type === "term");
    expect(terms.filter((t) => t.kind === "category").length).toBeGreaterThanOrEqual(67);
    expect(terms.filter((t) => t.kind === "tag").length).toBeGreaterThanOrEqual(110);
    expect(terms).toContainEqual(expect.objectContaining({ kind: "category", slug: "grandchild-category", parentSlug: "child-category-03" }));
    expect(terms).toContainEqual(expect.objectContaining({ kind: "category", slug: "child-2", parentSlug: "child-1" }));
    expect(terms).toContainEqual(expect.objectContaining({ kind: "tag", slug: "8bit", name: "8BIT", description: "Tags posts about 8BIT." }));
  });

  it("reads sticky, password-protected, untitled posts and featured images", () => {
    expect(all.filter((p) => p.sticky).map((p) => p.slug)).toEqual(["template-sticky"]);
    const locked = all.filter((p) => p.passwordProtected);
    expect(locked.map((p) => p.sourceId)).toEqual(["1168"]);
    const untitled = all.find((p) => p.sourceId === "1169")!;
    expect(untitled.title).toBe("");
    expect(untitled.slug).toBe("edge-case-no-title");
    expect(all.filter((p) => p.featuredImage !== null).length).toBeGreaterThan(0);
    const keyboard = all.find((p) => p.sourceId === "1724")!;
    expect(keyboard).toMatchObject({ publishedAt: "2018-10-21T03:03:48.000Z", authorSourceIds: ["themereviewteam"], tagSlugs: ["codex"] });
    expect(keyboard.html).toContain("<!-- wp:paragraph -->");
  });

  it("reads attachments with their parent, alt and caption", () => {
    expect(records).toContainEqual(
      expect.objectContaining({ type: "attachment", sourceId: "611", parentSourceId: "555", url: "https://wpthemetestdata.files.wordpress.com/2008/06/canola2.jpg", alt: "canola", title: "canola2" }),
    );
  });
});

describe("readWordPressExport: small files", () => {
  it("reads the https namespace of WordPress.com, Co-Authors Plus bylines, Yoast and comment statuses", async () => {
    const records = await readAll(fixture("wordpress-com-https.xml"));
    expect(records[0]).toEqual({ type: "site", kind: "wordpress", baseUrl: "https://riversidedaily.wordpress.com", title: "Riverside Daily" });
    const guest = records.findIndex((r) => r.type === "author" && r.sourceId === "guest-writer");
    const post = records.findIndex((r) => r.type === "post" && r.sourceId === "101");
    expect(guest).toBeGreaterThan(0);
    expect(guest).toBeLessThan(post);
    expect(records.filter((r) => r.type === "author").map((r) => r.type === "author" && [r.sourceId, r.displayName])).toEqual([
      ["maria.lopez", "María López"],
      ["tom", "Tom Okafor"],
      ["guest-writer", "A Guest Writer"],
    ]);
    expect(records).toContainEqual(expect.objectContaining({ type: "term", kind: "tag", slug: "housing", name: "Housing" }));
    expect(records).toContainEqual(expect.objectContaining({ type: "term", kind: "category", slug: "council", parentSlug: "news" }));
    expect(records).toContainEqual(expect.objectContaining({ type: "skip", reason: 'the taxonomy "nav_menu" is not imported' }));
    const [published, draft] = posts(records);
    expect(published).toMatchObject({
      kind: "post",
      slug: "council-passes-the-budget",
      status: "publish",
      publishedAt: "2024-03-05T09:00:00.000Z",
      excerpt: "Seven to two.",
      authorSourceIds: ["maria.lopez", "tom", "guest-writer"],
      categorySlugs: ["council"],
      tagSlugs: ["budget", "housing"],
      featuredImage: { attachmentSourceId: "102", url: null, alt: null, caption: null },
      sticky: true,
      seoTitle: "Budget passed | Riverside",
      seoDescription: "The council passed the budget 7–2.",
    });
    expect(published.comments).toEqual([
      { sourceId: "11", parentSourceId: null, authorName: "Reader", authorEmail: "r@example.test", authorUrl: "https://r.example.test/", date: "2024-03-05T11:00:00.000Z", content: "Finally.", status: "approved" },
      { sourceId: "12", parentSourceId: "11", authorName: "Tom Okafor", authorEmail: "tom@example.test", authorUrl: null, date: "2024-03-05T12:30:00.000Z", content: "Thanks!", status: "pending" },
      { sourceId: "13", parentSourceId: null, authorName: "Spammer", authorEmail: null, authorUrl: null, date: "2024-03-05T12:00:00.000Z", content: "Buy now", status: "spam" },
    ]);
    expect(records).toContainEqual({ type: "skip", what: "comments of post 101", reason: "1 pingback left out (not comments)" });
    expect(records).toContainEqual(
      expect.objectContaining({ type: "attachment", sourceId: "102", parentSourceId: "101", alt: "The council chamber", caption: "The chamber, <em>before</em> the vote" }),
    );
    expect(draft).toMatchObject({ sourceId: "103", status: "draft", publishedAt: null, slug: "unfinished-the-bridge", authorSourceIds: ["maria.lopez"] });
    expect(records).toContainEqual({ type: "skip", what: "nav_menu_item 104", reason: 'the post type "nav_menu_item" is not imported' });
  });

  it("refuses a DOCTYPE before any record", async () => {
    const { records, error } = await readUntilError(fixture("doctype-entity.xml"));
    expect(records).toEqual([]);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toBe(DOCTYPE_REFUSAL);
  });

  it("skips malformed items and reads the rest (WXR 1.0)", async () => {
    const records = await readAll(fixture("malformed-item.xml"));
    expect(records.filter((r) => r.type === "skip")).toEqual([
      { type: "skip", what: 'item 2 ("No id at all")', reason: "it has no wp:post_id" },
      { type: "skip", what: "post 3", reason: 'its date "2008-13-45 99:00:00" is not a date' },
      { type: "skip", what: "post 4", reason: "it is in the trash" },
    ]);
    expect(records).toContainEqual(expect.objectContaining({ type: "term", slug: "local", parentSlug: "general" }));
    const read = posts(records);
    expect(read.map((p) => p.sourceId)).toEqual(["1", "5"]);
    expect(read[0]).toMatchObject({ categorySlugs: ["general"], authorSourceIds: ["admin"], publishedAt: "2008-05-01T08:00:00.000Z" });
    // A zero GMT date falls back to post_date (as UTC); an empty post_name, to the title's slug.
    expect(read[1]).toMatchObject({ slug: "unicode-only", publishedAt: "2008-05-05T10:00:00.000Z", passwordProtected: true, categorySlugs: ["local"] });
    // WXR 1.0 has no wp:author: dc:creator logins become authors, once, before their first post.
    expect(records.filter((r) => r.type === "author").map((r) => r.type === "author" && r.sourceId)).toEqual(["admin", "editor"]);
  });

  it("names the line where the XML breaks, after the records before it", async () => {
    const { records, error } = await readUntilError(fixture("broken-xml.xml"));
    expect(posts(records).map((p) => p.sourceId)).toEqual(["1"]);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toMatch(/^The XML breaks at line 17, /);
  });

  it.each([
    ["ghost.xml", '{"db":[{"meta":{},"data":{"posts":[]}}]}', "This is not a WordPress export (WXR): it is JSON"],
    ["page.html", "<!DOCTYPE html><html><body><p>Hi</p></body></html>", "This is not a WordPress export (WXR): it is an HTML page."],
    ["page2.html", "<html><head><title>x</title></head></html>", "This is not a WordPress export (WXR): its root element is <html>, not <rss>."],
    ["feed.xml", '<?xml version="1.0"?><rss version="2.0"><channel><title>x</title></channel></rss>', "This is not a WordPress export (WXR): it is an RSS feed without"],
    ["empty.xml", "", "This is not a WordPress export (WXR): the file is empty."],
  ])("refuses %s in one line", async (name, content, message) => {
    const { records, error } = await readUntilError(await tempFile(name, content));
    expect(records).toEqual([]);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message.startsWith(message)).toBe(true);
    expect((error as Error).message).not.toContain("\n");
  });
});
