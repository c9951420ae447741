import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articles, authors, liveUpdates } from "~/db/schema";
import { createSiteFrame } from "~/domain/settings/site-frame.server";
import { loader as articleRss } from "~/routes/resources/article-rss";
import { loader as newsSitemap } from "~/routes/resources/news-sitemap";
import { loader as sitemapChild } from "~/routes/resources/sitemap-child";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";

// A live story's feed and its times in the sitemaps (issue 31): the route loaders over a real
// database, as a feed reader and a crawler get them.

const ORIGIN = "https://news.example";
const SITEMAP_XSD = path.join(path.resolve(import.meta.dirname, "../../.."), "node_modules/sitemap/schema/sitemap.xsd");
const HAS_XMLLINT = spawnSync("xmllint", ["--version"]).status === 0;
if (!HAS_XMLLINT && process.env.CI) throw new Error("xmllint is missing: .ci/run installs libxml2-utils");

let t: TestDatabase;
const ids: Record<string, string> = {};
const MINUTE = 60_000;
const now = Date.now();

type Loader = (args: never) => Promise<Response> | Response;
async function get(loader: Loader, params: Record<string, string> = {}) {
  const context = { db: t.db, env: { publicUrl: ORIGIN }, siteFrame: createSiteFrame(t.db, { on: () => {} }) };
  try {
    const response = await loader({ params, context, request: new Request(`${ORIGIN}/`) } as never);
    return { status: response.status, type: response.headers.get("Content-Type"), body: await response.text() };
  } catch (thrown) {
    const status = (thrown as { init?: { status?: number } }).init?.status;
    if (status) return { status, type: null, body: "" };
    throw thrown;
  }
}

function xmllint(xml: string, schema?: string): { ok: boolean; output: string } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "frontpage-xml-")), "doc.xml");
  fs.writeFileSync(file, xml);
  const result = spawnSync("xmllint", ["--noout", ...(schema ? ["--schema", schema] : []), file], { encoding: "utf8" });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

const paragraph = (text: string) => ({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

beforeAll(async () => {
  t = await createTestDatabase();
  const [ann] = await t.db.insert(authors).values({ name: "Ann Lee", slug: "ann-lee" }).returning({ id: authors.id });
  const story = (slug: string, values: Partial<typeof articles.$inferInsert>) =>
    t.db
      .insert(articles)
      .values({ title: `Story ${slug}`, slug, content: "Body.", status: "published", publishedAt: new Date(now - 120 * MINUTE), ...values })
      .returning({ id: articles.id })
      .then(([row]) => (ids[slug] = row!.id));
  await story("storm-live", { title: "Storm <over> the harbour", excerpt: "What we know so far.", liveStartedAt: new Date(now - 100 * MINUTE) });
  await story("never-live", {});
  await story("draft-live", { status: "draft", publishedAt: null, liveStartedAt: new Date(now - 100 * MINUTE) });
  // 55 updates a minute apart (no. 55 the newest), one deleted, one edited later than all.
  await t.db.insert(liveUpdates).values(
    Array.from({ length: 55 }, (_, i) => ({
      articleId: ids["storm-live"]!,
      headline: i % 2 ? `Update no. ${i + 1}` : null,
      content: `Text of update no. ${i + 1} & more.`,
      contentDoc: paragraph(`Text of update no. ${i + 1} & more.`),
      authorId: ann!.id,
      createdAt: new Date(now - (90 - i) * MINUTE),
    })),
  );
  await t.pool.query(
    `update live_updates set deleted_at = now(), version = nextval('live_update_versions') where article_id = $1 and content like 'Text of update no. 54 %'`,
    [ids["storm-live"]],
  );
  await t.pool.query(
    `update live_updates set edited_at = $2, content = 'Edited text.', version = nextval('live_update_versions') where article_id = $1 and content like 'Text of update no. 10 %'`,
    [ids["storm-live"], new Date(now - 5 * MINUTE)],
  );
});

describe("a live story's feed", () => {
  it("carries its newest 50 updates, newest first, each a link to its anchor, with its time, text and author", async () => {
    const { status, type, body } = await get(articleRss as Loader, { slug: "storm-live" });
    expect(status).toBe(200);
    expect(type).toBe("application/rss+xml; charset=utf-8");
    if (HAS_XMLLINT) expect(xmllint(body).output).toBe("");
    expect(body).toContain("<title>Storm &lt;over&gt; the harbour: live updates | ");
    expect(body).toContain(`<link>${ORIGIN}/article/storm-live</link>`);
    expect(body).toContain("<description>What we know so far.</description>");
    const items = [...body.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]!);
    expect(items).toHaveLength(50);
    // No. 55 first (odd numbers have no headline of their own: their text), no. 54 deleted, then
    // no. 53, and no. 52 with its headline.
    expect(items[0]).toContain("<title>Text of update no. 55 &amp; more.</title>");
    expect(items[1]).toContain("<title>Text of update no. 53 &amp; more.</title>");
    expect(items[2]).toContain("<title>Update no. 52</title>");
    expect(body).not.toContain("no. 54 ");
    const rows = await t.pool.query<{ id: string; created_at: Date }>(
      `select id, created_at from live_updates where article_id = $1 and deleted_at is null order by created_at desc limit 1`,
      [ids["storm-live"]],
    );
    const newest = rows.rows[0]!;
    expect(items[0]).toContain(`<link>${ORIGIN}/article/storm-live?update=${newest.id}#update-${newest.id}</link>`);
    expect(items[0]).toContain(`<guid isPermaLink="false">urn:uuid:${newest.id}</guid>`);
    expect(items[0]).toContain(`<pubDate>${newest.created_at.toUTCString()}</pubDate>`);
    expect(items[0]).toContain("<description>Text of update no. 55 &amp; more.</description>");
    expect(items[0]).toContain("<dc:creator>Ann Lee</dc:creator>");
    expect(items[0]).toContain("<content:encoded><![CDATA[<p>Text of update no. 55 &amp; more.</p>]]></content:encoded>");
    // The oldest of the 50 is no. 5 (55 posted, one deleted); no. 10's edit is its text now.
    expect(items[49]).toContain("no. 5 ");
    expect(body).toContain("<description>Edited text.</description>");
    // The latest change is the edit five minutes ago, later than every post.
    expect(body).toContain(`<lastBuildDate>${new Date(now - 5 * MINUTE).toUTCString()}</lastBuildDate>`);
  });

  it("is 404 for a story that was never live, one that is not public, and an unknown one", async () => {
    for (const slug of ["never-live", "draft-live", "no-such-story"]) expect((await get(articleRss as Loader, { slug })).status, slug).toBe(404);
  });

  it("stays once the coverage has ended (the updates stay)", async () => {
    await t.db.execute(sql`update articles set live_ended_at = now() where slug = 'storm-live'`);
    try {
      expect((await get(articleRss as Loader, { slug: "storm-live" })).status).toBe(200);
    } finally {
      await t.db.execute(sql`update articles set live_ended_at = null where slug = 'storm-live'`);
    }
  });
});

describe("a live story in the sitemaps", () => {
  it("the news sitemap gives a live story its latest update's time as lastmod, and none to the others", async () => {
    const { body } = await get(newsSitemap as Loader);
    if (HAS_XMLLINT) expect(xmllint(body).output).toBe("");
    const entry = (slug: string) => new RegExp(`<url>\\s*<loc>${ORIGIN}/article/${slug}</loc>([\\s\\S]*?)</url>`).exec(body)?.[1];
    expect(entry("storm-live")).toContain(`<lastmod>${new Date(now - 5 * MINUTE).toISOString()}</lastmod>`);
    expect(entry("never-live")).toBeDefined();
    expect(entry("never-live")).not.toContain("<lastmod>");
  });

  it("the article sitemap's lastmod is the later of the story's change and its latest update", async () => {
    // The story itself last changed before its latest update (its edit five minutes ago).
    await t.pool.query(`update articles set updated_at = $2 where id = $1`, [ids["storm-live"], new Date(now - 60 * MINUTE)]);
    const month = new Date(now - 120 * MINUTE).toISOString().slice(0, 7);
    const { body } = await get(sitemapChild as Loader, { file: `articles-${month}.xml` });
    if (HAS_XMLLINT) expect(xmllint(body, SITEMAP_XSD).output).toContain("validates");
    expect(body).toContain(`<url><loc>${ORIGIN}/article/storm-live</loc><lastmod>${new Date(now - 5 * MINUTE).toISOString()}</lastmod></url>`);
    const [never] = (await t.pool.query<{ updated_at: Date }>(`select updated_at from articles where slug = 'never-live'`)).rows;
    expect(body).toContain(`<url><loc>${ORIGIN}/article/never-live</loc><lastmod>${never!.updated_at.toISOString()}</lastmod></url>`);
  });
});
