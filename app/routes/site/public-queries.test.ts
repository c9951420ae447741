import { drizzle } from "drizzle-orm/node-postgres";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { articleAuthors, articleCorrections, articles, articleTags, authors, categories, comments, tags, tagSlugRedirects } from "~/db/schema";
import { readEveryTime } from "~/domain/articles/story-memo.server";
import { createSiteFrame } from "~/domain/settings/site-frame.server";
import { loader as authorRss } from "~/routes/resources/author-rss";
import { loader as categoryRss } from "~/routes/resources/category-rss";
import { loader as newsSitemap } from "~/routes/resources/news-sitemap";
import { loader as siteRss } from "~/routes/resources/rss";
import { loader as sitemapIndex } from "~/routes/resources/sitemap";
import { loader as sitemapChild } from "~/routes/resources/sitemap-child";
import { loader as tagRss } from "~/routes/resources/tag-rss";
import { loader as articlePage } from "~/routes/site/article";
import { loader as authorPage } from "~/routes/site/author";
import { loader as categoryPage } from "~/routes/site/category";
import { loader as homePage } from "~/routes/site/home";
import { loader as searchPage } from "~/routes/site/search";
import { loader as tagPage } from "~/routes/site/tag";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";

// Issue 13: every query of a public page uses an index. Each public page kind's loader runs over a
// database that logs its queries; each query is then planned with sequential scans turned off. A
// query no index can answer still plans a sequential scan (at a prohibitive cost) and fails here.
// What the planner picks at 100,000 articles is timed by `npm run bench -- --scale`.

/** The tables that grow with the archive; the small ones (categories, authors, settings) may be read whole. */
const LARGE_TABLES = new Set(["articles", "comments", "article_authors", "author_listing", "article_corrections", "article_slug_redirects", "article_tags", "tag_slug_redirects", "audience_story_hours", "audience_events"]);
/** A raw audience table's day partition (audience_events_20261129) counts as its table. */
const tableOf = (relation: string) => relation.replace(/^(audience_events|audience_reads)_\d{8}$/, "$1");
const ORIGIN = "https://news.example";
const HOUR = 3_600_000;

let t: TestDatabase;
let logged: { query: string; params: unknown[] }[] = [];
let db: Db;

const silentLog = { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} };

type Loader = (args: never) => unknown;
/** The queries one GET of `path` makes through `loader`. */
async function queriesOf(loader: Loader, path: string, params: Record<string, string> = {}) {
  logged = [];
  const context = {
    db,
    env: { publicUrl: ORIGIN },
    log: silentLog,
    siteFrame: createSiteFrame(db, { on: () => {} }),
    storyMemo: readEveryTime,
    commentSpam: { formTimer: { issue: () => "stamp" } },
  };
  const result = await loader({ params, context, request: new Request(`${ORIGIN}${path}`) } as never);
  if (result instanceof Response) await result.text();
  return logged.filter(({ query }) => !/^\s*explain\b/i.test(query));
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

/** The large tables a query's plan reads whole, with sequential scans turned off. */
async function tablesReadWhole(query: string, params: unknown[]): Promise<string[]> {
  const client = await t.pool.connect();
  try {
    await client.query("begin");
    await client.query("set local enable_seqscan = off");
    const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`explain (format json) ${query}`, params);
    const whole: string[] = [];
    const walk = (node: PlanNode) => {
      if (node["Node Type"] === "Seq Scan" && node["Relation Name"] && LARGE_TABLES.has(tableOf(node["Relation Name"]))) whole.push(node["Relation Name"]);
      node.Plans?.forEach(walk);
    };
    walk(rows[0]!["QUERY PLAN"][0].Plan);
    return whole;
  } finally {
    await client.query("rollback");
    client.release();
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
  db = drizzle(t.pool, { schema, logger: { logQuery: (query, params) => logged.push({ query, params }) } }) as unknown as Db;
  const [city] = await t.db.insert(categories).values({ name: "City", slug: "city" }).returning({ id: categories.id });
  const [writer] = await t.db.insert(authors).values({ name: "Ada Reporter", slug: "ada-reporter" }).returning({ id: authors.id });
  const stories = await t.db
    .insert(articles)
    .values(
      ["tram-line-opens", "tram-fares-rise", "library-hours", "park-cleanup"].map((slug, i) => ({
        title: `Story about the ${slug.replaceAll("-", " ")}`,
        slug,
        excerpt: "The city council voted on the tram line.",
        content: "The tram line opens downtown.",
        categoryId: city!.id,
        status: "published" as const,
        publishedAt: new Date(Date.now() - (i + 1) * HOUR),
      })),
    )
    .returning({ id: articles.id });
  await t.db.insert(articleAuthors).values(stories.map((s) => ({ articleId: s.id, authorId: writer!.id, position: 0 })));
  const [first] = await t.db.insert(comments).values({ articleId: stories[0]!.id, authorName: "Reader", authorEmail: "r@example.org", content: "A thread." }).returning({ id: comments.id });
  await t.db.insert(comments).values({ articleId: stories[0]!.id, parentCommentId: first!.id, authorName: "Other", authorEmail: "o@example.org", content: "A reply." });
  const [trams] = await t.db.insert(tags).values({ name: "Trams", slug: "trams" }).returning({ id: tags.id });
  await t.db.insert(articleTags).values(stories.slice(0, 2).map((s, position) => ({ articleId: s.id, tagId: trams!.id, position })));
  await t.db.insert(tagSlugRedirects).values({ oldSlug: "tramways", tagId: trams!.id });
  await t.db.insert(articleCorrections).values({ articleId: stories[0]!.id, kind: "correction", text: "An earlier version misnamed the line.", createdByName: "Ed Itor" });
});

describe("every query of a public page can be answered from an index", () => {
  const month = new Date().toISOString().slice(0, 7);
  const pages: [string, Loader, string, Record<string, string>?][] = [
    ["home", homePage, "/"],
    ["a category", categoryPage, "/category/city", { slug: "city" }],
    ["a category's second page", categoryPage, "/category/city?page=2", { slug: "city" }],
    ["an article, its comments, corrections and recirculation", articlePage, "/article/tram-line-opens", { slug: "tram-line-opens" }],
    ["an old address of an article", articlePage, "/article/no-longer-here", { slug: "no-longer-here" }],
    ["an author", authorPage, "/author/ada-reporter", { slug: "ada-reporter" }],
    ["search", searchPage, "/search?q=tram", {}],
    ["search matching a tag's name", searchPage, "/search?q=trams", {}],
    ["a tag", tagPage, "/tag/trams", { slug: "trams" }],
    ["an old address of a tag", tagPage, "/tag/tramways", { slug: "tramways" }],
    ["a tag's feed", tagRss, "/tag/trams/rss.xml", { slug: "trams" }],
    ["the tags sitemap", sitemapChild, "/sitemaps/tags.xml", { file: "tags.xml" }],
    ["the site's feed", siteRss, "/rss.xml"],
    ["a category's feed", categoryRss, "/category/city/rss.xml", { slug: "city" }],
    ["an author's feed", authorRss, "/author/ada-reporter/rss.xml", { slug: "ada-reporter" }],
    ["the sitemap index", sitemapIndex, "/sitemap.xml"],
    ["the news sitemap", newsSitemap, "/news-sitemap.xml"],
    ["the pages sitemap", sitemapChild, "/sitemaps/pages.xml", { file: "pages.xml" }],
    ["the categories sitemap", sitemapChild, "/sitemaps/categories.xml", { file: "categories.xml" }],
    ["the authors sitemap", sitemapChild, "/sitemaps/authors.xml", { file: "authors.xml" }],
    ["a month's articles sitemap", sitemapChild, `/sitemaps/articles-${month}.xml`, { file: `articles-${month}.xml` }],
  ];

  for (const [name, loader, path, params] of pages) {
    it(`${name} (${path})`, async () => {
      let queries: Awaited<ReturnType<typeof queriesOf>>;
      try {
        queries = await queriesOf(loader, path, params);
      } catch (thrown) {
        // A 404 or a redirect thrown by the loader still made its queries.
        if (!(thrown instanceof Response) && !(thrown as { init?: unknown }).init) throw thrown;
        queries = logged;
      }
      expect(queries.length, "the page reads the database").toBeGreaterThan(0);
      for (const { query, params: values } of queries) {
        expect(await tablesReadWhole(query, values), query).toEqual([]);
      }
    });
  }
});
