import { testCommentSpam } from "~/domain/comments/test-comment-spam.server";
import fs from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { articleSlugRedirects } from "~/db/schema";
import { publishMediaArticle } from "~/domain/media/media.server";
import { AppError } from "~/lib/app-error";
import { CHANGE_CHANNEL } from "~/lib/change-feed.server";
import { loader as articlePageLoader } from "~/routes/site/article";
import { fixtureCategoryId, saveArticle, setUpArticleFixture, submitArticle } from "../../tests/setup/article-fixture";
import { unpublishArticle } from "~/domain/articles/article-admin.server";
import { slugRedirectsMessage, TAKE_OVER_SLUG_LABEL } from "~/domain/articles/articles.schema";
import { getArticleBySlug } from "~/domain/articles/articles.server";
import { findSlugRedirect } from "~/domain/articles/slug-redirects.server";

const log = pino({ level: process.env.TEST_LOG ?? "silent" });
const fx = setUpArticleFixture("redirects");


const submit = (values: Record<string, string>, id?: string) => submitArticle(fx, { intent: "publish", ...values }, { id });
const save = (values: Record<string, string>, id?: string) => saveArticle(fx, { intent: "publish", ...values }, { id });

/** What GET /article/{slug}{query} answers: a redirect (status and Location), 404, or 200 with the article's slug. */
async function visit(slugAndQuery: string) {
  const url = new URL(`http://localhost/article/${slugAndQuery}`);
  const slug = url.pathname.slice("/article/".length);
  const args = { params: { slug }, request: new Request(url), context: { db: fx.t.db, log, commentSpam: testCommentSpam } } as unknown as Parameters<typeof articlePageLoader>[0];
  try {
    const { data } = await articlePageLoader(args);
    return { status: 200, slug: data.article.slug };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location"), cacheControl: thrown.headers.get("Cache-Control") };
    const init = (thrown as { init?: { status?: number } }).init;
    if (init?.status) return { status: init.status };
    throw thrown;
  }
}

const redirectRows = () => fx.t.db.select().from(articleSlugRedirects);

describe("a published article's slug change", () => {
  it("answers 301 from the old address to the new one, with the query string", async () => {
    const article = await save({ title: "Mayor resigns", slug: "mayor-resigns" });
    await save({ title: "Mayor resigns after vote", slug: "mayor-resigns-after-vote" }, article.id);
    expect(await visit("mayor-resigns?utm_source=x&older-than=abc")).toMatchObject({
      status: 301,
      location: "/article/mayor-resigns-after-vote?utm_source=x&older-than=abc",
    });
    // Not cached for ever: the address may be taken back or the article unpublished later.
    expect((await visit("mayor-resigns")).cacheControl).toBe("public, max-age=300, s-maxage=30");
    expect(await visit("mayor-resigns-after-vote")).toEqual({ status: 200, slug: "mayor-resigns-after-vote" });
  });

  it("a chain a → b → c answers from a and from b straight to c (one hop)", async () => {
    const article = await save({ title: "Chain", slug: "chain-a" });
    await save({ title: "Chain", slug: "chain-b" }, article.id);
    await save({ title: "Chain", slug: "chain-c" }, article.id);
    expect(await visit("chain-a")).toMatchObject({ status: 301, location: "/article/chain-c" });
    expect(await visit("chain-b")).toMatchObject({ status: 301, location: "/article/chain-c" });
    expect(await visit("chain-c")).toEqual({ status: 200, slug: "chain-c" });
  });

  it("taking back one of its own old slugs removes that redirect; the others now lead there", async () => {
    const article = await save({ title: "Back", slug: "back-a" });
    await save({ title: "Back", slug: "back-b" }, article.id);
    await save({ title: "Back", slug: "back-a" }, article.id);
    const rows = (await redirectRows()).filter((r) => r.articleId === article.id).map((r) => r.oldSlug);
    expect(rows).toEqual(["back-b"]);
    expect(await visit("back-a")).toEqual({ status: 200, slug: "back-a" });
    expect(await visit("back-b")).toMatchObject({ status: 301, location: "/article/back-a" });
  });

  it("answers 404 while the article is not publicly visible, and 301 again once it is", async () => {
    const article = await save({ title: "Hidden", slug: "hidden-old" });
    await save({ title: "Hidden", slug: "hidden-new" }, article.id);
    await unpublishArticle(fx.t.db, article.id);
    expect(await findSlugRedirect(fx.t.db, "hidden-old")).toBeNull();
    expect(await visit("hidden-old")).toEqual({ status: 404 });
    await save({ title: "Hidden", slug: "hidden-new" }, article.id);
    expect(await visit("hidden-old")).toMatchObject({ status: 301, location: "/article/hidden-new" });
  });

  it("an unpublished (once public) draft's rename leaves a redirect too; a never-published draft's does not", async () => {
    const once = await save({ title: "Once", slug: "once-public" });
    await unpublishArticle(fx.t.db, once.id);
    await save({ title: "Once", slug: "once-renamed", intent: "draft" }, once.id);
    const never = await save({ title: "Never", slug: "never-public", intent: "draft" });
    await save({ title: "Never", slug: "never-renamed", intent: "draft" }, never.id);
    const scheduled = await save({ title: "Later", slug: "later-public", publishAt: "2999-01-01T10:00" });
    await save({ title: "Later", slug: "later-renamed", publishAt: "2999-01-01T10:00" }, scheduled.id);
    const olds = (await redirectRows()).map((r) => r.oldSlug);
    expect(olds).toContain("once-public");
    expect(olds).not.toContain("never-public");
    expect(olds).not.toContain("later-public");
  });

  it("a deleted article takes its redirects with it", async () => {
    const article = await save({ title: "Gone", slug: "gone-a" });
    await save({ title: "Gone", slug: "gone-b" }, article.id);
    const { deleteArticle } = await import("~/domain/articles/article-admin.server");
    await deleteArticle(fx.t.db, article.id);
    expect((await redirectRows()).map((r) => r.oldSlug)).not.toContain("gone-a");
  });
});

describe("a slug that still redirects to another article", () => {
  it("is refused beside the slug for a new article, naming where it leads, and nothing is saved", async () => {
    const first = await save({ title: "Budget passes", slug: "budget" });
    await save({ title: "Budget passes", slug: "budget-passes" }, first.id);
    const result = await submit({ title: "Another budget", slug: "budget" });
    expect(result).toMatchObject({
      ok: false,
      status: 409,
      failure: {
        code: "slug_redirects",
        error: slugRedirectsMessage("budget", "Budget passes"),
        fieldErrors: { slug: "The address /article/budget still redirects to “Budget passes”. Choose another slug, or tick “Take over this address”." },
      },
    });
    expect(TAKE_OVER_SLUG_LABEL).toBe("Take over this address");
    expect(await getArticleBySlug(fx.t.db, "budget")).toBeNull();
    expect(await visit("budget")).toMatchObject({ status: 301, location: "/article/budget-passes" });
  });

  it("is refused for another existing article too", async () => {
    const first = await save({ title: "Fire", slug: "fire" });
    await save({ title: "Fire", slug: "fire-downtown" }, first.id);
    const other = await save({ title: "Other", slug: "other-fire" });
    const result = await submit({ title: "Other", slug: "fire" }, other.id);
    expect(result).toMatchObject({ ok: false, status: 409, failure: { code: "slug_redirects" } });
    expect(await visit("other-fire")).toEqual({ status: 200, slug: "other-fire" });
  });

  it("with “Take over this address” ticked, the redirect is removed and the slug taken", async () => {
    const first = await save({ title: "Storm", slug: "storm" });
    await save({ title: "Storm", slug: "storm-warning" }, first.id);
    const second = await save({ title: "Another storm", slug: "storm", takeOverSlug: "on" });
    expect(second.slug).toBe("storm");
    expect((await redirectRows()).map((r) => r.oldSlug)).not.toContain("storm");
    expect(await visit("storm")).toEqual({ status: 200, slug: "storm" });
    expect(await visit("storm-warning")).toEqual({ status: 200, slug: "storm-warning" });
  });

  it("the media library's Publish is refused with the same fact (it has no take-over)", async () => {
    const first = await save({ title: "Flood", slug: "flood" });
    await save({ title: "Flood", slug: "flood-update" }, first.id);
    await fs.mkdir(path.join(fx.mediaRoot, "files"), { recursive: true });
    await fs.writeFile(path.join(fx.mediaRoot, "files", "doc.pdf"), "%PDF");
    const { media } = await import("~/db/schema");
    await fx.t.db.insert(media).values({ bucket: "files", name: "doc.pdf", originalName: "doc.pdf", contentType: "application/pdf", size: 4 });
    const attempt = publishMediaArticle(fx.t.db, fx.storage, { bucket: "files", name: "doc.pdf", title: "Flood", categoryId: await fixtureCategoryId(fx), excerpt: null, content: "x", featuredImageAlt: null });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ code: "slug_redirects", message: expect.stringContaining("/article/flood still redirects to “Flood”") });
  });

  it("two saves racing for one free slug: one wins, the other gets the clear slug-taken error", async () => {
    const results = await Promise.all([submit({ title: "Race", slug: "race" }), submit({ title: "Race 2", slug: "race" })]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ status: 400, failure: { code: "slug_taken", fieldErrors: { slug: "This slug is already used by another article." } } });
  });
});

describe("page caches", () => {
  it("a slug change and a take-over announce a change on the change channel (every page cache clears)", async () => {
    const client = new pg.Client({ connectionString: fx.t.url });
    await client.connect();
    try {
      const heard: string[] = [];
      client.on("notification", (m) => heard.push(m.payload ?? ""));
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      const article = await save({ title: "Cache", slug: "cache-a" });
      heard.length = 0;
      await save({ title: "Cache", slug: "cache-b" }, article.id);
      await expect.poll(() => heard.some((p) => p.includes('"articles"') && p.includes("UPDATE")), { timeout: 5000 }).toBe(true);
      heard.length = 0;
      await fx.t.db.delete(articleSlugRedirects).where(eq(articleSlugRedirects.oldSlug, "cache-a"));
      await expect.poll(() => heard.some((p) => p.includes('"article_slug_redirects"')), { timeout: 5000 }).toBe(true);
    } finally {
      await client.end();
    }
  });
});
