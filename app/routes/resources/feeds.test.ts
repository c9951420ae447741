import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { articleAuthors, articles, authors, categories, media } from "~/db/schema";
import { listArticleSitemapParts, listSitemapArticles, listSitemapAuthors, NEWS_SITEMAP_DAYS } from "~/domain/articles/feeds.server";
import { cdata } from "~/domain/articles/feed-xml.server";
import { createSiteFrame } from "~/domain/settings/site-frame.server";
import { loader as authorRss } from "~/routes/resources/author-rss";
import { loader as categoryRss } from "~/routes/resources/category-rss";
import { loader as newsSitemap } from "~/routes/resources/news-sitemap";
import { loader as robots } from "~/routes/resources/robots";
import { loader as siteRss } from "~/routes/resources/rss";
import { loader as sitemapIndex } from "~/routes/resources/sitemap";
import { loader as sitemapChild } from "~/routes/resources/sitemap-child";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";

// The feeds and sitemaps as a crawler and a feed reader get them (decision 0019): the route loaders
// over a real database, the XML checked by xmllint (the children against the official sitemaps XSD).

const ORIGIN = "https://news.example";
const ROOT = path.resolve(import.meta.dirname, "../../..");
const SITEMAP_XSD = path.join(ROOT, "node_modules/sitemap/schema/sitemap.xsd");
const INDEX_XSD = path.join(ROOT, "tests/fixtures/sitemap-index.xsd");
const HAS_XMLLINT = spawnSync("xmllint", ["--version"]).status === 0;
if (!HAS_XMLLINT && process.env.CI) throw new Error("xmllint is missing: .ci/run installs libxml2-utils");

const DAY = 24 * 60 * 60 * 1000;
let t: TestDatabase;
const ids: Record<string, string> = {};

type Loader = (args: never) => Promise<Response> | Response;
/** What GET answers through a route loader: status and body (a thrown 404 as its status). */
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

/** xmllint's verdict on a document (well-formed, and valid against `schema` when given). */
function xmllint(xml: string, schema?: string): { ok: boolean; output: string } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "frontpage-xml-")), "doc.xml");
  fs.writeFileSync(file, xml);
  const result = spawnSync("xmllint", ["--noout", ...(schema ? ["--schema", schema] : []), file], { encoding: "utf8" });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

async function article(slug: string, values: Partial<typeof articles.$inferInsert>) {
  const [row] = await t.db
    .insert(articles)
    .values({ title: `Story ${slug}`, slug, content: "Body.", status: "published", publishedAt: new Date(Date.now() - 60_000), ...values })
    .returning({ id: articles.id });
  ids[slug] = row.id;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const [{ id: city }] = await t.db.insert(categories).values({ name: "City", slug: "city" }).returning({ id: categories.id });
  ids.city = city;
  const [ann, bo] = await t.db
    .insert(authors)
    .values([
      { name: "Ann Lee", slug: "ann-lee" },
      { name: "Bo Park", slug: "bo-park" },
    ])
    .returning({ id: authors.id });
  await t.db.insert(media).values({ bucket: "images", name: "1700000000000-ferry.jpg", originalName: "ferry.jpg", contentType: "image/jpeg", size: 48_213 });
  const doc = {
    type: "doc",
    content: [
      { type: "paragraph", content: [{ type: "text", text: "The ferry is back, and the whole text is in the feed." }] },
      { type: "paragraph", content: [{ type: "text", text: "A ]]> sequence cannot end the CDATA." }] },
    ],
  };
  await article("ferry", {
    title: "Ferry returns",
    excerpt: "The crossing reopens.",
    categoryId: city,
    contentDoc: doc,
    content: "The ferry is back.",
    featuredImage: "/media/images/1700000000000-ferry.jpg",
    featuredImageAlt: "The ferry at the quay",
  });
  await t.db.insert(articleAuthors).values([
    { articleId: ids.ferry, authorId: ann.id, position: 0 },
    { articleId: ids.ferry, authorId: bo.id, position: 1 },
  ]);
  await article("yesterday", { categoryId: city, publishedAt: new Date(Date.now() - DAY) });
  await article("three-days", { categoryId: city, publishedAt: new Date(Date.now() - 3 * DAY) });
  await article("old-month", { publishedAt: new Date("2024-02-10T12:00:00Z") });
  await article("draft", { status: "draft", publishedAt: null, categoryId: city });
  await article("scheduled", { status: "scheduled", publishedAt: new Date(Date.now() + DAY), categoryId: city });
});

describe("the Google News sitemap", () => {
  it("lists exactly the articles published in the last two days, with publication, date and title", async () => {
    const { status, body } = await get(newsSitemap as Loader);
    expect(status).toBe(200);
    const locs = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.sort()).toEqual([`${ORIGIN}/article/ferry`, `${ORIGIN}/article/yesterday`]);
    expect(NEWS_SITEMAP_DAYS).toBe(2);
    expect(body).toContain("<news:name>Frontpage</news:name>");
    expect(body).toContain("<news:language>en</news:language>");
    expect(body).toContain("<news:title>Ferry returns</news:title>");
    expect(body).toMatch(/<news:publication_date>\d{4}-\d{2}-\d{2}T[\d:.]+Z<\/news:publication_date>/);
    if (HAS_XMLLINT) expect(xmllint(body).ok).toBe(true);
  });

  it("is listed in robots.txt beside the sitemap index", async () => {
    const { body } = await get(robots as unknown as Loader);
    expect(body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect(body).toContain(`Sitemap: ${ORIGIN}/news-sitemap.xml`);
    expect(body).toContain("Disallow: /ads/");
  });
});

describe("the sitemap index and its children", () => {
  it("points at pages, categories, authors, each month's articles and the news sitemap, each with lastmod", async () => {
    const { status, body } = await get(sitemapIndex as Loader);
    expect(status).toBe(200);
    const entries = [...body.matchAll(/<sitemap><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/sitemap>/g)].map((m) => m[1]);
    const month = new Date().toISOString().slice(0, 7);
    expect(entries).toEqual(
      expect.arrayContaining([
        `${ORIGIN}/sitemaps/pages.xml`,
        `${ORIGIN}/sitemaps/categories.xml`,
        `${ORIGIN}/sitemaps/authors.xml`,
        `${ORIGIN}/sitemaps/articles-${month}.xml`,
        `${ORIGIN}/sitemaps/articles-2024-02.xml`,
        `${ORIGIN}/news-sitemap.xml`,
      ]),
    );
    expect(body.match(/<sitemap>/g)).toHaveLength(entries.length);
  });

  it.skipIf(!HAS_XMLLINT)("validates: the index against the protocol's schema, every child against the official sitemap.xsd", async () => {
    const index = (await get(sitemapIndex as Loader)).body;
    const verdict = xmllint(index, INDEX_XSD);
    expect(verdict.ok, verdict.output).toBe(true);
    const children = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!).filter((u) => u.includes("/sitemaps/"));
    expect(children.length).toBeGreaterThanOrEqual(5);
    for (const child of children) {
      const { status, body } = await get(sitemapChild as Loader, { file: child.split("/").pop()! });
      expect(status, child).toBe(200);
      const result = xmllint(body, SITEMAP_XSD);
      expect(result.ok, `${child}: ${result.output}`).toBe(true);
      expect(body.match(/<url>/g)!.length).toBeLessThanOrEqual(50_000);
      // Every URL carries its lastmod.
      expect(body.match(/<url>/g)!.length, child).toBe(body.match(/<lastmod>/g)!.length);
    }
  });

  it("a month's articles: only public ones; the pages, categories and authors children", async () => {
    const month = new Date().toISOString().slice(0, 7);
    const articlesNow = (await get(sitemapChild as Loader, { file: `articles-${month}.xml` })).body;
    for (const slug of ["ferry", "yesterday"]) expect(articlesNow).toContain(`${ORIGIN}/article/${slug}<`);
    for (const slug of ["draft", "scheduled", "old-month"]) expect(articlesNow).not.toContain(`/article/${slug}<`);
    expect((await get(sitemapChild as Loader, { file: "articles-2024-02.xml" })).body).toContain(`${ORIGIN}/article/old-month<`);
    expect((await get(sitemapChild as Loader, { file: "pages.xml" })).body).toContain(`<loc>${ORIGIN}/</loc>`);
    expect((await get(sitemapChild as Loader, { file: "categories.xml" })).body).toContain(`<loc>${ORIGIN}/category/city</loc>`);
    const authorsXml = (await get(sitemapChild as Loader, { file: "authors.xml" })).body;
    expect(authorsXml).toContain(`<loc>${ORIGIN}/author/ann-lee</loc>`);
    // A month without articles, a part past the last, a name it does not list: 404.
    for (const file of ["articles-1999-01.xml", `articles-${month}-2.xml`, "articles-2024-13.xml", "other.xml"]) {
      expect((await get(sitemapChild as Loader, { file })).status, file).toBe(404);
    }
  });

  it("a new site with nothing published lists only its pages, and every child it lists validates", async () => {
    const empty = await createTestDatabase();
    const context = { db: empty.db, env: { publicUrl: ORIGIN }, siteFrame: createSiteFrame(empty.db, { on: () => {} }) };
    const load = async (loader: Loader, params: Record<string, string> = {}) => {
      try {
        const response = await loader({ params, context, request: new Request(`${ORIGIN}/`) } as never);
        return { status: response.status, body: await response.text() };
      } catch (thrown) {
        return { status: (thrown as { init?: { status?: number } }).init?.status ?? 500, body: "" };
      }
    };
    const index = (await load(sitemapIndex as Loader)).body;
    expect([...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([`${ORIGIN}/sitemaps/pages.xml`]);
    if (HAS_XMLLINT) expect(xmllint(index, INDEX_XSD).ok).toBe(true);
    expect((await load(sitemapChild as Loader, { file: "authors.xml" })).status).toBe(404);
    expect((await load(sitemapChild as Loader, { file: "categories.xml" })).status).toBe(404);
  });

  it("splits a month over SITEMAP_MAX_URLS into numbered parts that never overlap", async () => {
    const month = new Date().toISOString().slice(0, 7);
    const inMonth = (await listSitemapArticles(t.db, month, 1)).length;
    expect(inMonth).toBeGreaterThanOrEqual(2);
    const parts = (await listArticleSitemapParts(t.db, 1)).filter((p) => p.month === month);
    expect(parts.map((p) => p.part)).toEqual(Array.from({ length: inMonth }, (_, i) => i + 1));
    const first = await listSitemapArticles(t.db, month, 1, 1);
    const second = await listSitemapArticles(t.db, month, 2, 1);
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    expect(first[0]!.slug).not.toBe(second[0]!.slug);
  });
});

describe("the sitemap index's months (kept by triggers: migration 0017)", () => {
  /** The months as grouping the whole archive says, the way the index was read before. */
  async function countedAgain() {
    const { rows } = await t.pool.query<{ month: string; articles: number; lastmod: Date }>(
      `select to_char(published_at at time zone 'UTC', 'YYYY-MM') as month, count(*)::int as articles, max(updated_at) as lastmod
       from articles where status = 'published' and published_at <= now() group by 1 order by 1 desc`,
    );
    return rows.map((row) => ({ month: row.month, part: 1, lastmod: row.lastmod }));
  }

  it("follow every change to what is public: publishing, a new date, unpublishing, deleting; view counts change nothing", async () => {
    expect(await listArticleSitemapParts(t.db)).toEqual(await countedAgain());
    const { rows } = await t.pool.query<{ id: string }>(
      `insert into articles (title, slug, content, status, published_at) values
         ('Old one', 'sitemap-months-old', 'Body', 'published', '2019-03-31T23:30:00Z'),
         ('Draft one', 'sitemap-months-draft', 'Body', 'draft', null) returning id`,
    );
    const [old, draft] = rows.map((row) => row.id);
    expect((await listArticleSitemapParts(t.db)).map((p) => p.month)).toContain("2019-03");
    expect(await listArticleSitemapParts(t.db)).toEqual(await countedAgain());

    await t.pool.query(`update articles set status = 'published', published_at = '2018-07-02T10:00:00Z' where id = $1`, [draft]);
    await t.pool.query(`update articles set published_at = '2019-04-01T00:30:00Z' where id = $1`, [old]);
    expect(await listArticleSitemapParts(t.db)).toEqual(await countedAgain());
    expect((await listArticleSitemapParts(t.db)).map((p) => p.month)).not.toContain("2019-03");

    const before = await listArticleSitemapParts(t.db);
    await t.pool.query(`update articles set views = views + 5 where id = any($1::uuid[])`, [[old, draft]]);
    expect(await listArticleSitemapParts(t.db)).toEqual(before);

    await t.pool.query(`update articles set status = 'draft' where id = $1`, [old]);
    await t.pool.query(`delete from articles where id = $1`, [draft]);
    const months = (await listArticleSitemapParts(t.db)).map((p) => p.month);
    expect(months).not.toContain("2019-04");
    expect(months).not.toContain("2018-07");
    expect(await listArticleSitemapParts(t.db)).toEqual(await countedAgain());
    await t.pool.query(`delete from articles where id = $1`, [old]);
  });

  it("the authors' rows follow publishing, bylines, unpublishing, deleting and an author's removal", async () => {
    /** The authors' sitemap as joining every byline of the archive says. */
    const joinedAgain = async () =>
      (
        await t.pool.query<{ slug: string; lastmod: Date }>(
          `select au.slug, greatest(au.updated_at, max(a.updated_at)) as lastmod from authors au
           join article_authors aa on aa.author_id = au.id join articles a on a.id = aa.article_id
           where a.status = 'published' and a.published_at <= now() group by au.id order by au.slug`,
        )
      ).rows;
    const listed = async () => (await listSitemapAuthors(t.db)).map((row) => ({ slug: row.slug, lastmod: row.lastmod }));
    expect(await listed()).toEqual(await joinedAgain());
    const { rows: people } = await t.pool.query<{ id: string }>(`insert into authors (name, slug) values ('Sitemap Sam', 'sitemap-sam') returning id`);
    const sam = people[0]!.id;
    const { rows } = await t.pool.query<{ id: string }>(`insert into articles (title, slug, content, status) values ('Sam draft', 'sam-draft', 'Body', 'draft') returning id`);
    const story = rows[0]!.id;
    await t.pool.query(`insert into article_authors (article_id, author_id, position) values ($1, $2, 0)`, [story, sam]);
    expect((await listed()).map((row) => row.slug)).not.toContain("sitemap-sam");
    await t.pool.query(`update articles set status = 'published', published_at = now() where id = $1`, [story]);
    expect((await listed()).map((row) => row.slug)).toContain("sitemap-sam");
    expect(await listed()).toEqual(await joinedAgain());
    // An edit moves the newest change forward.
    await t.pool.query(`update articles set title = 'Sam edited', updated_at = now() + interval '1 hour' where id = $1`, [story]);
    expect(await listed()).toEqual(await joinedAgain());
    await t.pool.query(`update articles set status = 'draft' where id = $1`, [story]);
    expect((await listed()).map((row) => row.slug)).not.toContain("sitemap-sam");
    await t.pool.query(`update articles set status = 'published' where id = $1`, [story]);
    await t.pool.query(`delete from article_authors where article_id = $1`, [story]);
    expect(await listed()).toEqual(await joinedAgain());
    await t.pool.query(`insert into article_authors (article_id, author_id, position) values ($1, $2, 0)`, [story, sam]);
    // Deleting an author takes them out of bylines first (deleteAuthor), then the row.
    await t.pool.query(`delete from article_authors where author_id = $1`, [sam]);
    await t.pool.query(`delete from authors where id = $1`, [sam]);
    expect(await listed()).toEqual(await joinedAgain());
    await t.pool.query(`delete from articles where id = $1`, [story]);
    expect(await listed()).toEqual(await joinedAgain());
  });

  it("two saves in one month at once both count", async () => {
    const a = await t.pool.connect();
    const b = await t.pool.connect();
    try {
      await a.query("begin");
      await b.query("begin");
      await a.query(`insert into articles (title, slug, content, published_at) values ('Race A', 'sitemap-race-a', 'Body', '2017-05-10T00:00:00Z')`);
      // B's count waits for A's month lock, then sees A's row once A commits.
      const second = b.query(`insert into articles (title, slug, content, published_at) values ('Race B', 'sitemap-race-b', 'Body', '2017-05-11T00:00:00Z')`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await a.query("commit");
      await second;
      await b.query("commit");
    } finally {
      a.release();
      b.release();
    }
    expect((await t.pool.query(`select articles from article_sitemap_months where month = '2017-05'`)).rows).toEqual([{ articles: 2 }]);
    await t.pool.query(`delete from articles where slug like 'sitemap-race-%'`);
  });
});

describe("RSS feeds", () => {
  it.skipIf(!HAS_XMLLINT)("/category/city/rss.xml: well-formed RSS 2.0", async () => {
    const { body } = await get(categoryRss as Loader, { slug: "city" });
    const verdict = xmllint(body);
    expect(verdict.ok, verdict.output).toBe(true);
  });

  it("a category's feed: full text, the lead image with type and length, every author, a stable guid, lastBuildDate", async () => {
    const { status, type, body } = await get(categoryRss as Loader, { slug: "city" });
    expect(status).toBe(200);
    expect(type).toBe("application/rss+xml; charset=utf-8");
    expect(body).toContain('<rss version="2.0"');
    expect(body).toContain(`<atom:link href="${ORIGIN}/category/city/rss.xml" rel="self" type="application/rss+xml" />`);
    expect(body).toMatch(/<lastBuildDate>\w{3}, \d{2} \w{3} \d{4} [\d:]{8} GMT<\/lastBuildDate>/);
    const ferry = /<item>(?:(?!<\/item>)[\s\S])*?Ferry returns[\s\S]*?<\/item>/.exec(body)![0];
    expect(ferry).toContain("<content:encoded><![CDATA[");
    expect(ferry).toContain("the whole text is in the feed.");
    // The body's own "]]>" arrives escaped by the story renderer; cdata() splits one anyway (below).
    expect(ferry).toContain("A ]]&gt; sequence cannot end the CDATA.");
    expect(cdata("a]]>b")).toBe("<![CDATA[a]]]]><![CDATA[>b]]>");
    expect(ferry).toContain(`src="${ORIGIN}/media/images/1700000000000-ferry.jpg`);
    expect(ferry).toContain(`<enclosure url="${ORIGIN}/media/images/1700000000000-ferry.jpg" length="48213" type="image/jpeg" />`);
    expect(ferry).toContain(`<media:content url="${ORIGIN}/media/images/1700000000000-ferry.jpg" medium="image" type="image/jpeg" fileSize="48213">`);
    expect(ferry).toContain('<media:description type="plain">The ferry at the quay</media:description>');
    expect([...ferry.matchAll(/<dc:creator>([^<]+)<\/dc:creator>/g)].map((m) => m[1])).toEqual(["Ann Lee", "Bo Park"]);
    expect(ferry).toContain(`<guid isPermaLink="false">urn:uuid:${ids.ferry}</guid>`);
    expect(body).not.toContain("/article/draft<");
    expect(body).not.toContain("/article/scheduled<");
  });

  it("the guid survives a slug change (the link follows it)", async () => {
    await t.db.update(articles).set({ slug: "ferry-is-back" }).where(eq(articles.id, ids.ferry));
    const { body } = await get(siteRss as Loader);
    const item = /<item>(?:(?!<\/item>)[\s\S])*?Ferry returns[\s\S]*?<\/item>/.exec(body)![0];
    expect(item).toContain(`<guid isPermaLink="false">urn:uuid:${ids.ferry}</guid>`);
    expect(item).toContain(`<link>${ORIGIN}/article/ferry-is-back</link>`);
    await t.db.update(articles).set({ slug: "ferry" }).where(eq(articles.id, ids.ferry));
  });

  it("an author's feed carries their articles only; unknown slugs are 404", async () => {
    const { body } = await get(authorRss as Loader, { slug: "bo-park" });
    expect(body.match(/<item>/g)).toHaveLength(1);
    expect(body).toContain("<title>Bo Park | Frontpage</title>");
    expect((await get(authorRss as Loader, { slug: "nobody" })).status).toBe(404);
    expect((await get(categoryRss as Loader, { slug: "nowhere" })).status).toBe(404);
  });
});

it("the xmllint check itself fails on a document that breaks the schema (so a pass means something)", () => {
  if (!HAS_XMLLINT) return;
  expect(xmllint('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><lastmod>x</lastmod></url></urlset>', SITEMAP_XSD).ok).toBe(false);
  expect(execFileSync("xmllint", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }) !== undefined).toBe(true);
});
