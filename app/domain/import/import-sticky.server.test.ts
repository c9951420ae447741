import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articles, imports, storyPins } from "~/db/schema";
import { setUpArticleFixture } from "../../../tests/setup/article-fixture";
import { pinStickyChoice, startImport } from "./import-admin.server";
import { createImport, importReport, pinStickyByDefault, runImport, type ImportSummary } from "./import-engine.server";

// Issue 39, "Sticky posts are pinned to the front page without a word": the dry run counts and names
// them, and they become top stories only when the import is started so — by default only on a site
// that has no story yet. The choice is the import's own (imports.pin_sticky), read by the job.

const fx = setUpArticleFixture("import-sticky");
const log = pino({ level: "silent" });
const ACTOR = { id: null, name: "Import test" };

let work: string;
beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-import-sticky-"));
});
afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

/** An export of three posts, two of them sticky, each of its own site (so each import writes them anew). */
async function exportOf(site: string) {
  const item = (id: number, slug: string, sticky: boolean) =>
    `<item><title>${slug}</title><link>https://${site}.example/${slug}/</link><dc:creator>ed</dc:creator><content:encoded><![CDATA[Text of ${slug}.]]></content:encoded><wp:post_id>${id}</wp:post_id><wp:post_date_gmt>2024-02-0${id} 08:00:00</wp:post_date_gmt><wp:post_name>${slug}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type><wp:is_sticky>${sticky ? 1 : 0}</wp:is_sticky></item>`;
  const file = path.join(work, `${site}.xml`);
  await fs.writeFile(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>${site}</title><link>https://${site}.example</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>https://${site}.example</wp:base_site_url>
<wp:author><wp:author_login>ed</wp:author_login><wp:author_display_name><![CDATA[Ed]]></wp:author_display_name></wp:author>
${item(1, `${site}-lead`, true)}${item(2, `${site}-second`, true)}${item(3, `${site}-plain`, false)}
</channel></rss>`,
  );
  return file;
}

const services = () => ({ db: fx.t.db, storage: fx.storage, log, allowPrivateHosts: true, publicUrl: "http://localhost:3000" });

async function importOf(site: string, options: { dryRun?: boolean; pinSticky?: boolean } = {}) {
  const file = await exportOf(site);
  const id = await createImport(fx.t.db, { kind: "wordpress", fileName: `${site}.xml`, filePath: file, mediaDir: null, dryRun: options.dryRun ?? false, createdById: null, pinSticky: options.pinSticky });
  const row = (await runImport(services(), id, ACTOR))!;
  expect(row.status).toBe("done");
  return { id, row, summary: row.summary as ImportSummary, report: (await importReport(fx.t.db, id))! };
}

/** The top stories pinned among this site's stories, by slug. */
async function pinnedOf(site: string) {
  const rows = await fx.t.db
    .select({ slug: articles.slug })
    .from(storyPins)
    .innerJoin(articles, eq(articles.id, storyPins.articleId))
    .where(inArray(articles.slug, [`${site}-lead`, `${site}-second`, `${site}-plain`]));
  return rows.map((r) => r.slug).sort();
}

describe("sticky posts", () => {
  it("are counted and named by the dry run, which pins nothing", async () => {
    const { summary, report } = await importOf("dryrun", { dryRun: true });
    expect(summary.sticky).toBe(2);
    expect(report.notes.filter((n) => n.kind === "sticky").map((n) => n.what)).toEqual(["post 1 “dryrun-lead”", "post 2 “dryrun-second”"]);
    expect(await fx.t.db.select().from(storyPins)).toEqual([]);
  });

  it("become top stories by default on a site with no story yet", async () => {
    expect(await pinStickyByDefault(fx.t.db)).toBe(true);
    const { row, summary } = await importOf("empty");
    expect(row.pinSticky).toBe(true);
    expect(summary).toMatchObject({ sticky: 2, pinned: 2 });
    expect(await pinnedOf("empty")).toEqual(["empty-lead", "empty-second"]);
  });

  it("stay off the front page by default on a site with stories, each reported", async () => {
    expect(await pinStickyByDefault(fx.t.db)).toBe(false);
    const { row, summary, report } = await importOf("existing");
    expect(row.pinSticky).toBe(false);
    expect(summary.sticky).toBe(2);
    expect(summary.pinned ?? 0).toBe(0);
    expect(await pinnedOf("existing")).toEqual([]);
    expect(report.notes.filter((n) => n.kind === "sticky").map((n) => n.message)).toEqual([
      "Sticky on the old site: not pinned (the import was started without pinning sticky posts).",
      "Sticky on the old site: not pinned (the import was started without pinning sticky posts).",
    ]);
  });

  it("become top stories on a site with stories when the import is started so", async () => {
    const { summary } = await importOf("chosen", { pinSticky: true });
    expect(summary).toMatchObject({ sticky: 2, pinned: 2 });
    expect(await pinnedOf("chosen")).toEqual(["chosen-lead", "chosen-second"]);
  });

  it("are pinned or not as the screen's Start import says, the choice kept with the import for its job", async () => {
    const dryRun = await importOf("screen", { dryRun: true });
    const id = await startImport(fx.t.db, dryRun.id, ACTOR, { pinSticky: pinStickyChoice("no") });
    const [row] = await fx.t.db.select({ pinSticky: imports.pinSticky }).from(imports).where(eq(imports.id, id));
    expect(row!.pinSticky).toBe(false);
    expect((await runImport(services(), id, ACTOR))!.status).toBe("done");
    expect(await pinnedOf("screen")).toEqual([]);

    const other = await importOf("screen-yes", { dryRun: true });
    const yes = await startImport(fx.t.db, other.id, ACTOR, { pinSticky: pinStickyChoice("yes") });
    expect((await fx.t.db.select({ pinSticky: imports.pinSticky }).from(imports).where(eq(imports.id, yes)))[0]!.pinSticky).toBe(true);
    // Unsaid: the site's default (it has stories: not pinned).
    const unsaid = await importOf("screen-unsaid", { dryRun: true });
    const unsaidId = await startImport(fx.t.db, unsaid.id, ACTOR, { pinSticky: pinStickyChoice("") });
    expect((await fx.t.db.select({ pinSticky: imports.pinSticky }).from(imports).where(eq(imports.id, unsaidId)))[0]!.pinSticky).toBe(false);
    expect(() => pinStickyChoice("maybe")).toThrow("Say yes or no to pinning sticky posts.");
  });
});
