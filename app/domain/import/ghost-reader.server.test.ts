import { spawnSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readGhostExport } from "./ghost-reader.server";
import { htmlFromLexical, htmlFromMobiledoc } from "./ghost-render.server";
import { ImportFileError, type ImportPost, type ImportRecord } from "./import-records";
import { detectExportKind, readExport } from "./read-export.server";

const FIXTURES = path.resolve(import.meta.dirname, "../../../tests/fixtures/import");
const fixture = (name: string) => path.join(FIXTURES, name);

async function readAll(file: string): Promise<ImportRecord[]> {
  const records: ImportRecord[] = [];
  for await (const record of readGhostExport(file)) records.push(record);
  return records;
}

const posts = (records: ImportRecord[]) => records.filter((r): r is ImportPost => r.type === "post");

async function tempFile(name: string, content: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ghost-test-"));
  const file = path.join(dir, name);
  await fs.writeFile(file, content);
  return file;
}

describe("readGhostExport: a Ghost 5 export (db[0], lexical and html)", async () => {
  const records = await readAll(fixture("ghost-5.json"));
  const [harbour, members, about, scheduled, draft] = posts(records);

  it("reads the site, authors and public tags first", () => {
    expect(records[0]).toEqual({ type: "site", kind: "ghost", baseUrl: null, title: "Harbour Times" });
    expect(records.slice(1, 5)).toEqual([
      { type: "author", sourceId: "1", slug: "ana", displayName: "Ana Novak", email: "ana@example.test", bio: "Harbour reporter." },
      { type: "author", sourceId: "6650u2", slug: "dev-lee", displayName: "Dev Lee", email: "dev@example.test", bio: null },
      { type: "term", kind: "tag", slug: "transport", name: "Transport", parentSlug: null, description: "Getting around." },
      { type: "term", kind: "tag", slug: "harbour", name: "Harbour", parentSlug: null, description: null },
    ]);
    expect(records.some((r) => r.type === "term" && r.slug === "hash-wide-layout")).toBe(false);
  });

  it("reads authors in order, the primary tag, the feature image and SEO from posts_meta", () => {
    expect(harbour).toMatchObject({
      kind: "post",
      slug: "harbour-reopens",
      link: "/harbour-reopens/",
      status: "publish",
      publishedAt: "2024-05-20T10:00:00.000Z",
      modifiedAt: "2024-05-21T09:30:00.000Z",
      excerpt: "Ferries are back.",
      authorSourceIds: ["6650u2", "1"],
      categorySlugs: ["harbour"],
      tagSlugs: ["harbour", "transport"],
      featuredImage: {
        attachmentSourceId: null,
        url: "__GHOST_URL__/content/images/2024/05/harbour-wide.jpg",
        alt: "The harbour from the pier",
        caption: 'Photo: <a href="https://example.test">Port</a>',
      },
      sticky: true,
      seoTitle: "Harbour reopens after two years",
      seoDescription: "The port is open again.",
    });
  });

  it("renders lexical when there is no html, and notes the card it cannot render", () => {
    expect(harbour.html).toContain('<p>The <strong>harbour</strong> reopens, <a href="__GHOST_URL__/port-statement/"><em>says the port</em></a></p>');
    expect(harbour.html).toContain("<ol><li>Ferries</li><li>Fishing</li></ol>");
    expect(harbour.html).toContain('<figure><img src="__GHOST_URL__/content/images/2024/05/harbour.jpg" alt="Boats in the harbour"><figcaption><span>The harbour at dawn</span></figcaption></figure>');
    expect(harbour.html).toContain("<hr>");
    expect(harbour.html).toContain("<strong>markdown</strong>");
    expect(harbour.html).toContain("<table><tr><td>1</td></tr></table>");
    expect(harbour.html).toContain('<a href="https://www.youtube.com/watch?v=abc123">');
    expect(harbour.html).toContain('<!-- ghost card "product" not converted -->');
    expect(records).toContainEqual({ type: "skip", what: "post 6650a1 (harbour-reopens)", reason: 'a "product" card could not be converted; it is left out of the story' });
  });

  it("prefers html, reads members-only posts as private, pages, scheduled posts and drafts", () => {
    expect(members).toMatchObject({ html: "<p>For members.</p>", status: "private", tagSlugs: [], categorySlugs: [] });
    expect(about).toMatchObject({ kind: "page", slug: "about", link: "/about/", status: "publish" });
    expect(scheduled).toMatchObject({ status: "future", publishedAt: "2030-06-01T08:00:00.000Z" });
    expect(draft).toMatchObject({ status: "draft", publishedAt: null, html: "" });
  });
});

describe("readGhostExport: a Ghost 3 export ({ meta, data }, mobiledoc only)", async () => {
  const records = await readAll(fixture("ghost-3.json"));
  const [bridge, contact] = posts(records);

  it("renders mobiledoc: markups, atoms, lists, and image/markdown/html/embed/hr cards", () => {
    expect(bridge.html).toContain('<p>Plain, <strong>bold</strong> and <a href="https://example.test/a?b=1&amp;c=2" rel="noopener"><em>an italic link</em></a><br>after a soft return &lt;3</p>');
    expect(bridge.html).toContain("<h2>A heading</h2>");
    expect(bridge.html).toContain("<ul><li>first</li><li><strong>second</strong></li></ul>");
    expect(bridge.html).toContain("<blockquote>A quote</blockquote>");
    expect(bridge.html).toContain("<h2>From markdown</h2>");
    expect(bridge.html).toContain('<figure><img src="https://old.example.test/content/images/2019/03/bridge.jpg" alt="The old bridge"><figcaption>Built in <em>1890</em></figcaption></figure>');
    expect(bridge.html).toContain('<div class="note">Raw HTML</div>');
    expect(bridge.html).toContain('<a href="https://twitter.com/example/status/1">');
    expect(bridge.html).toContain("<hr>");
    expect(records).toContainEqual(expect.objectContaining({ type: "skip", reason: 'a "paywall" card could not be converted; it is left out of the story' }));
  });

  it("reads authors in order, SEO fields on the post, old dates and `page: true`", () => {
    expect(bridge).toMatchObject({
      authorSourceIds: ["5d00u2", "5d00u1"],
      categorySlugs: ["history"],
      tagSlugs: ["history", "bridges"],
      seoTitle: "The bridge turns 130",
      seoDescription: "A century and three decades.",
      publishedAt: "2019-03-01T10:00:00.000Z",
      featuredImage: { attachmentSourceId: null, url: "https://old.example.test/content/images/2019/03/bridge-wide.jpg", alt: null, caption: null },
    });
    expect(contact).toMatchObject({ kind: "page", html: "<p>Write to us.</p>", authorSourceIds: ["5d00u1"] });
    expect(records.at(-1)).toEqual({ type: "skip", what: "post 5d00b3", reason: "it has no slug" });
  });
});

describe("readGhostExport: files that are not Ghost exports", () => {
  it.each([
    ["wxr.json", '<?xml version="1.0"?><rss/>', "This is not a Ghost export: it is XML or HTML"],
    ["bad.json", "{ not json", "This is not a Ghost export: it is not valid JSON"],
    ["other.json", '{"name":"frontpage"}', "This is not a Ghost export: it has no db[0].data.posts nor data.posts."],
    ["list.json", "[1,2]", 'This is not a Ghost export: its JSON is not an object with "db" or "data".'],
    ["empty.json", "", "This is not a Ghost export: the file is empty."],
    ["junk-posts.json", `{"db":[{"data":{"posts":[${"{},".repeat(20_000)}{}]}}]}`, "This is not a Ghost export: more than 10,000 of its records have no id."],
    ["junk-table.json", `{"data":{"posts":[],"x":[${"{},".repeat(20_000)}{}]}}`, "This is not a Ghost export: more than 10,000 of its records have no id."],
    ["junk-outside.json", `{"data":{"posts":[]},"x":[${"[],".repeat(200_000)}[]]}`, "This is not a Ghost export: it holds more than 100,000 objects or arrays outside Ghost's records."],
    ["junk-inside.json", `{"data":{"posts":[{"id":"1","x":[${"{},".repeat(200_000)}{}]}]}}`, "This is not a Ghost export: it holds more than 100,000 objects or arrays outside Ghost's records."],
  ])("refuses %s in one line", async (name, content, message) => {
    const records: ImportRecord[] = [];
    const error = await (async () => {
      try {
        for await (const record of readGhostExport(await tempFile(name, content))) records.push(record);
      } catch (e) {
        return e;
      }
    })();
    expect(records).toEqual([]);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message.startsWith(message)).toBe(true);
    expect((error as Error).message).not.toContain("\n");
  });
});

describe("readGhostExport: a hostile file of 200 MB (issue 39)", () => {
  /** A 200 MB export whose posts are millions of `{}`, written as a stream. */
  async function hostileFile(shape: "posts" | "inside"): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ghost-hostile-"));
    const file = path.join(dir, `${shape}.json`);
    const out = createWriteStream(file);
    const write = (text: string) => new Promise<void>((resolve) => (out.write(text) ? resolve() : out.once("drain", () => resolve())));
    await write(shape === "posts" ? '{"db":[{"data":{"posts":[' : '{"db":[{"data":{"posts":[{"id":"1","slug":"a","x":[');
    const block = "{},".repeat(1 << 16);
    for (let written = 0; written < 200 * 1024 * 1024; written += block.length) await write(block);
    await write(shape === "posts" ? "{}]}}]}" : "{}]}]}}]}");
    await new Promise<void>((resolve) => out.end(resolve));
    return file;
  }

  it.each(["posts", "inside"] as const)("made of {} (%s a post) is refused in one line within the import's 256 MB heap", async (shape) => {
    const file = await hostileFile(shape);
    try {
      // The import's own heap (npm run import runs with --max-old-space-size=256), in a process of its own.
      const script = `import { readGhostExport } from "./app/domain/import/ghost-reader.server.ts";
        try { for await (const r of readGhostExport(${JSON.stringify(file)})) {} console.log("READ"); }
        catch (e) { console.log("REFUSED " + e.message); }
        console.log("HEAP " + Math.round(process.memoryUsage().heapUsed / 1048576));`;
      const run = spawnSync(process.execPath, ["--max-old-space-size=256", "--import", "tsx", "--input-type=module", "-e", script], {
        cwd: path.resolve(import.meta.dirname, "../../.."),
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^REFUSED This is not a Ghost export: /m);
      expect(Number(/HEAP (\d+)/.exec(run.stdout)?.[1])).toBeLessThan(256);
    } finally {
      await fs.rm(path.dirname(file), { recursive: true, force: true });
    }
  }, 180_000);
});

describe("ghost-render", () => {
  it("renders empty or broken documents as nothing", () => {
    expect(htmlFromMobiledoc("not json")).toBe("");
    expect(htmlFromLexical("{}")).toBe("");
    expect(htmlFromLexical({ root: { children: [{ type: "paragraph", children: [{ type: "text", text: "a<b", format: 3 }] }] } })).toBe("<p><strong><em>a&lt;b</em></strong></p>");
  });
});

describe("detectExportKind and readExport", () => {
  it("tells XML from JSON by the first bytes, and refuses anything else", async () => {
    expect(await detectExportKind(fixture("themeunittestdata.wordpress.xml"))).toBe("wordpress");
    expect(await detectExportKind(fixture("ghost-5.json"))).toBe("ghost");
    expect(await detectExportKind(await tempFile("bom.json", '\uFEFF\n  {"db":[]}'))).toBe("ghost");
    await expect(detectExportKind(await tempFile("x.txt", "hello"))).rejects.toBeInstanceOf(ImportFileError);
    await expect(detectExportKind(await tempFile("e.txt", ""))).rejects.toThrow(/empty/);
    const first = await readExport("ghost", fixture("ghost-3.json")).next();
    expect(first.value).toMatchObject({ type: "site", kind: "ghost" });
  });
});
