import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, describe, expect, test } from "vitest";
import { articles, storyPins } from "../app/db/schema";
import type { StoryDocument } from "../app/domain/articles/story-document.schema";
import { createTestDatabase } from "../tests/setup/test-database";
import { IMPORT_USAGE, parseImportArgs } from "./import-args";

// `npm run import` as a person runs it (issue 39): `--pin-sticky` / `--no-pin-sticky` decide whether
// the old site's sticky posts become top stories, and `--retry-media [--media-dir]` brings the images
// an earlier import could not have. Each command in its own process, against this file's database.

const ROOT = path.resolve(import.meta.dirname, "..");
const work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-import-cli-test-"));
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn", NODE_ENV: "production", DATA_DIR: path.join(work, "data"), ...env };
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "scripts/import.ts", ...args], { cwd: ROOT, env: childEnv, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe("npm run import's command line", () => {
  test("reads --pin-sticky, --no-pin-sticky and --retry-media, and refuses what contradicts itself", () => {
    const args = (argv: string[]) => {
      const parsed = parseImportArgs(argv);
      return "args" in parsed ? parsed.args : parsed;
    };
    expect(args(["wordpress", "x.xml"])).toMatchObject({ command: "wordpress", file: "x.xml", pinSticky: undefined, retryMedia: false });
    expect(args(["wordpress", "x.xml", "--pin-sticky"])).toMatchObject({ pinSticky: true });
    expect(args(["ghost", "x.json", "--no-pin-sticky"])).toMatchObject({ pinSticky: false });
    expect(args(["wordpress", "x.xml", "--retry-media", "--media-dir", "up"])).toMatchObject({ retryMedia: true, mediaDir: "up" });
    expect(args(["wordpress", "x.xml", "--pin-sticky", "--no-pin-sticky"])).toEqual({ error: "--pin-sticky and --no-pin-sticky say opposite things: give one" });
    expect(args(["wordpress", "x.xml", "--retry-media", "--dry-run"])).toEqual({ error: "--retry-media imports no story: --dry-run has no place beside it" });
    expect(args(["check-redirects", "r.json", "--retry-media"])).toEqual({ error: "--retry-media goes with wordpress or ghost and the site's export" });
    expect(args(["--help"])).toEqual({ usage: true, code: 0 });
    expect(IMPORT_USAGE).toContain("--retry-media [--media-dir <folder>]");
  });

  test("--no-pin-sticky leaves the front page alone; --retry-media --media-dir brings the images the import could not have", async () => {
    const { db, url } = await createTestDatabase();
    const uploads = path.join(work, "uploads");
    await fs.mkdir(path.join(uploads, "wp-content/uploads/2024"), { recursive: true });
    const file = path.join(work, "export.xml");
    await fs.writeFile(
      file,
      `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old</title><link>https://old.example</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>https://old.example</wp:base_site_url>
<wp:author><wp:author_login>ed</wp:author_login><wp:author_display_name><![CDATA[Ed]]></wp:author_display_name></wp:author>
<item><title>Lead story</title><link>https://old.example/lead/</link><dc:creator>ed</dc:creator><content:encoded><![CDATA[First words.

<img src="https://old.example/wp-content/uploads/2024/flood.jpg" alt="The flood" />]]></content:encoded><wp:post_id>1</wp:post_id><wp:post_date_gmt>2024-02-01 08:00:00</wp:post_date_gmt><wp:post_name>lead</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type><wp:is_sticky>1</wp:is_sticky></item>
</channel></rss>`,
    );
    const env = { DATABASE_URL: url };

    // The site has no story yet, so sticky posts would be pinned unless told not to.
    const imported = await cli(["wordpress", file, "--media-dir", uploads, "--no-pin-sticky", "--report", path.join(work, "import.json")], env);
    expect(imported.stderr).not.toMatch(/Error/);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain("sticky posts: 1; pinned as top stories: 0");
    expect(imported.stdout).toContain("images still missing: 1");
    expect(await db.select().from(storyPins)).toEqual([]);
    const before = (await db.select({ doc: articles.contentDoc }).from(articles).where(eq(articles.slug, "lead")))[0]!;
    expect(JSON.stringify(before.doc)).toContain('"href":"https://old.example/wp-content/uploads/2024/flood.jpg"');

    // The old site's uploads, copied since.
    await sharp({ create: { width: 32, height: 24, channels: 3, background: "#336699" } }).jpeg().toFile(path.join(uploads, "wp-content/uploads/2024/flood.jpg"));
    const retried = await cli(["wordpress", file, "--retry-media", "--media-dir", uploads, "--report", path.join(work, "retry.json")], env);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain("images fetched: 1; still missing: 0");
    const after = (await db.select({ doc: articles.contentDoc }).from(articles).where(eq(articles.slug, "lead")))[0]!;
    expect((after.doc as StoryDocument).content).toContainEqual({ type: "storyImage", attrs: { src: expect.stringMatching(/^\/media\/images\//), alt: "The flood", caption: "", credit: "" } });
    expect(JSON.stringify(after.doc)).not.toContain("old.example/wp-content");
  }, 180_000);
});
