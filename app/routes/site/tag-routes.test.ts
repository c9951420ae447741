import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { tags } from "~/db/schema";
import { readEveryTime } from "~/domain/articles/story-memo.server";
import { createSiteFrame } from "~/domain/settings/site-frame.server";
import { mergeTags } from "~/domain/tags/tags.server";
import { loader as sitemapIndex } from "~/routes/resources/sitemap";
import { loader as sitemapChild } from "~/routes/resources/sitemap-child";
import { loader as tagRss } from "~/routes/resources/tag-rss";
import { loader as articlePage } from "~/routes/site/article";
import { loader as tagPage, TAG_PAGE_SIZE } from "~/routes/site/tag";
import { saveArticle, setUpArticleFixture } from "../../../tests/setup/article-fixture";

// Issue 29's reader side of tags, through the route loaders over a real database: the tag's page and
// its feed, the old address of a merged tag, the sitemap, and the tags on a story's page.

const ORIGIN = "https://news.example";
const fx = setUpArticleFixture("tag-routes");
const silentLog = { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} };

type Loader = (args: never) => unknown;
/** What GET `path` answers through `loader`: its data, or a thrown answer's status and Location. */
async function get(loader: Loader, path: string, params: Record<string, string> = {}) {
  const context = {
    db: fx.t.db,
    env: { publicUrl: ORIGIN },
    log: silentLog,
    siteFrame: createSiteFrame(fx.t.db, { on: () => {} }),
    storyMemo: readEveryTime,
    commentSpam: { formTimer: { issue: () => "stamp" } },
  };
  try {
    const result = await loader({ params, context, request: new Request(`${ORIGIN}${path}`) } as never);
    if (result instanceof Response) return { status: result.status, body: await result.text(), data: null };
    const answer = result as { data?: unknown; type?: string };
    return { status: 200, body: "", data: (answer.type === "DataWithResponseInit" ? answer.data : result) as Record<string, unknown> };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: "", data: null, location: thrown.headers.get("Location") };
    const status = (thrown as { init?: { status?: number } }).init?.status;
    if (status) return { status, body: "", data: null };
    throw thrown;
  }
}

beforeAll(async () => {
  await saveArticle(fx, { title: "Harbour ferry returns", slug: "ferry-returns", intent: "publish", tags: "Ferries, Harbour" });
  await saveArticle(fx, { title: "Ferry timetable", slug: "ferry-timetable", intent: "publish", tags: "Ferry Lines" });
  await saveArticle(fx, { title: "A draft about boats", slug: "boats-draft", intent: "draft", tags: "Ferries, Boats Only" });
});

describe("a tag's page", () => {
  it("lists its public stories, newest first, with a breadcrumb's data and pagination", async () => {
    const answer = await get(tagPage, "/tag/ferries", { slug: "ferries" });
    expect(answer.status).toBe(200);
    const data = answer.data as { tag: { name: string; slug: string }; articles: { slug: string }[]; page: number; pageCount: number };
    expect(data.tag).toEqual({ name: "Ferries", slug: "ferries" });
    expect(data.articles.map((a) => a.slug)).toEqual(["ferry-returns"]);
    expect(data.pageCount).toBe(1);
    expect(TAG_PAGE_SIZE).toBe(24);
    expect((await get(tagPage, "/tag/ferries?page=2", { slug: "ferries" })).status).toBe(404);
  });

  it("is a 404 for an unknown tag and for a tag of drafts alone", async () => {
    expect((await get(tagPage, "/tag/nothing", { slug: "nothing" })).status).toBe(404);
    expect((await get(tagPage, "/tag/boats-only", { slug: "boats-only" })).status).toBe(404);
    expect((await get(tagRss, "/tag/boats-only/rss.xml", { slug: "boats-only" })).status).toBe(404);
  });

  it("has an RSS feed of its public stories", async () => {
    const answer = await get(tagRss, "/tag/ferries/rss.xml", { slug: "ferries" });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain("<title>Ferries | ");
    expect(answer.body).toContain(`${ORIGIN}/article/ferry-returns`);
    expect(answer.body).not.toContain("boats-draft");
  });

  it("answers a merged tag's old address with a 301 to the tag it went into, page and feed", async () => {
    const [from] = await fx.t.db.select().from(tags).where(eq(tags.slug, "ferry-lines"));
    const [into] = await fx.t.db.select().from(tags).where(eq(tags.slug, "ferries"));
    await mergeTags(fx.t.db, from!.id, into!.id);
    const page = await get(tagPage, "/tag/ferry-lines?page=1", { slug: "ferry-lines" });
    expect(page).toMatchObject({ status: 301, location: "/tag/ferries?page=1" });
    expect(await get(tagRss, "/tag/ferry-lines/rss.xml", { slug: "ferry-lines" })).toMatchObject({ status: 301, location: "/tag/ferries/rss.xml" });
    const merged = (await get(tagPage, "/tag/ferries", { slug: "ferries" })).data as { articles: { slug: string }[] };
    expect(merged.articles.map((a) => a.slug).sort()).toEqual(["ferry-returns", "ferry-timetable"]);
  });
});

describe("the sitemap", () => {
  it("lists the tags with public stories, not those of drafts alone", async () => {
    expect((await get(sitemapIndex, "/sitemap.xml")).body).toContain(`${ORIGIN}/sitemaps/tags.xml`);
    const child = await get(sitemapChild, "/sitemaps/tags.xml", { file: "tags.xml" });
    expect(child.status).toBe(200);
    expect(child.body).toContain(`${ORIGIN}/tag/ferries`);
    expect(child.body).toContain(`${ORIGIN}/tag/harbour`);
    expect(child.body).not.toContain("boats-only");
  });
});

describe("a story's page", () => {
  it("shows its tags in order as names and addresses", async () => {
    const answer = await get(articlePage, "/article/ferry-returns", { slug: "ferry-returns" });
    expect((answer.data as { tags: unknown }).tags).toEqual([
      { name: "Ferries", slug: "ferries" },
      { name: "Harbour", slug: "harbour" },
    ]);
  });
});
