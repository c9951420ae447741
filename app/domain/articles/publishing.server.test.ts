import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import pino from "pino";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "~/db/client.server";
import { articles } from "~/db/schema";
import { createCategory } from "~/domain/categories/category-admin.server";
import { postComment } from "~/domain/comments/comments.server";
import { getTopArticles } from "~/domain/stats/stats.server";
import { AppError } from "~/lib/app-error";
import { CHANGE_CHANNEL } from "~/lib/change-feed.server";
import { ViewRecorder } from "~/lib/view-recorder.server";
import { saveArticle, setUpArticleFixture, submitArticle, TEST_TIME_ZONE } from "../../../tests/setup/article-fixture";
import { listArticleSitemapParts, listFeedItems, listNewsSitemapArticles, listSitemapArticles } from "./feeds.server";
import { decidePublication, getArticleForEdit, unpublishArticle } from "./article-admin.server";
import { listAdminArticles } from "./article-list.server";
import {
  getArticleBySlug,
  getArticleForPreview,
  getArticleViews,
  listCategoryArticles,
  listLatestArticles,
} from "./articles.server";
import { PUBLISH_AT_INVALID } from "./articles.schema";
import { publishDueArticles, startPublishingScheduler } from "./scheduler.server";

const log = pino({ level: process.env.TEST_LOG ?? "silent" });
const TZ = TEST_TIME_ZONE;
const fx = setUpArticleFixture("publishing");


const submit = (values: Record<string, string>, id?: string) => submitArticle(fx, values, { id });
const save = (values: Record<string, string>, id?: string) => saveArticle(fx, values, { id });

/** A datetime-local value `minutes` from now on the site's wall clock. */
function wallClock(minutes: number) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: TZ,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(Date.now() + minutes * 60_000));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}`;
}

const statusOf = async (id: string) => (await getArticleForEdit(fx.t.db, id))!.status;

describe("decidePublication", () => {
  const now = new Date("2026-06-01T12:00:00Z");
  const future = new Date("2026-06-02T12:00:00Z");
  const past = new Date("2026-05-01T12:00:00Z");
  it("every transition the form can ask for", () => {
    expect(decidePublication("draft", null, null, now)).toEqual({ status: "draft", publishedAt: null });
    expect(decidePublication("draft", future, null, now)).toEqual({ status: "draft", publishedAt: future });
    expect(decidePublication("publish", future, null, now)).toEqual({ status: "scheduled", publishedAt: future });
    expect(decidePublication("publish", past, null, now)).toEqual({ status: "published", publishedAt: past });
    // Published now: the database's clock decides (null).
    expect(decidePublication("publish", null, null, now)).toEqual({ status: "published", publishedAt: null });
    expect(decidePublication("publish", null, { status: "draft", publishedAt: past }, now)).toEqual({ status: "published", publishedAt: null });
    // An edit of a published article keeps its publication time.
    expect(decidePublication("publish", null, { status: "published", publishedAt: past }, now)).toEqual({ status: "published", publishedAt: past });
    // "Publish at" sent back as the form shows it (to the minute) keeps the stored time to the millisecond.
    const stored = new Date("2026-05-01T12:34:56.789Z");
    const shown = new Date("2026-05-01T12:34:00Z");
    expect(decidePublication("publish", shown, { status: "published", publishedAt: stored }, now)).toEqual({ status: "published", publishedAt: stored });
    const plannedStored = new Date("2026-06-02T12:34:56.789Z");
    expect(decidePublication("publish", new Date("2026-06-02T12:34:00Z"), { status: "scheduled", publishedAt: plannedStored }, now)).toEqual({
      status: "scheduled",
      publishedAt: plannedStored,
    });
    // Another minute is the editor's choice.
    expect(decidePublication("publish", new Date("2026-05-01T12:35:00Z"), { status: "published", publishedAt: stored }, now).publishedAt).toEqual(
      new Date("2026-05-01T12:35:00Z"),
    );
  });
});

describe("the article form's publishing", () => {
  it("Create Article without Publish at publishes now, as before", async () => {
    const article = await save({ title: "Now", slug: "form-now", intent: "publish" });
    expect(article.status).toBe("published");
    expect(await getArticleBySlug(fx.t.db, "form-now")).not.toBeNull();
  });

  it("Save Draft saves a draft that readers cannot see", async () => {
    const article = await save({ title: "Draft", slug: "form-draft", intent: "draft" });
    expect(article).toMatchObject({ status: "draft", publishedAt: null });
    expect(await getArticleBySlug(fx.t.db, "form-draft")).toBeNull();
  });

  it("Create Article with a future Publish at schedules it at that wall-clock time in TIME_ZONE", async () => {
    const publishAt = wallClock(60 * 24);
    const article = await save({ title: "Later", slug: "form-later", intent: "publish", publishAt });
    expect(article.status).toBe("scheduled");
    expect(Math.abs(article.publishedAt!.getTime() - (Date.now() + 24 * 3600_000))).toBeLessThan(120_000);
    expect(await getArticleBySlug(fx.t.db, "form-later")).toBeNull();
  });

  it("Update Article of a published article keeps its publication time", async () => {
    const first = await save({ title: "Kept", slug: "form-kept", intent: "publish", publishAt: "2020-01-02T03:04" });
    expect(first.status).toBe("published");
    const again = await save({ title: "Kept, edited", slug: "form-kept", intent: "publish" }, first.id);
    expect(again.publishedAt?.toISOString()).toBe(first.publishedAt?.toISOString());
    expect((await getArticleBySlug(fx.t.db, "form-kept"))?.publishedAt.toISOString()).toBe("2020-01-02T08:04:00.000Z");
  });

  it("a Publish at that is not a date is a 400 beside the field, and nothing is saved", async () => {
    for (const publishAt of ["next tuesday", "2026-02-30T10:00", "2026-11-23 10:00"]) {
      const result = await submit({ title: "Bad date", slug: "form-bad-date", intent: "publish", publishAt });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.status).toBe(400);
      expect(result.failure.code).toBe("invalid_input");
      expect(result.failure.fieldErrors.publishAt).toBe(PUBLISH_AT_INVALID);
      expect(result.failure.values?.publishAt).toBe(publishAt);
    }
    expect((await fx.t.db.select().from(articles).where(eq(articles.slug, "form-bad-date"))).length).toBe(0);
  });

  it("an unknown button is a 400 and saves nothing", async () => {
    const result = await submit({ title: "Odd", slug: "form-odd", intent: "archive" });
    expect(result).toMatchObject({ ok: false, status: 400, failure: { code: "invalid_input" } });
    expect((await fx.t.db.select().from(articles).where(eq(articles.slug, "form-odd"))).length).toBe(0);
  });

  it("Unpublish takes a published or scheduled article back to draft; a draft is refused", async () => {
    const article = await save({ title: "Gone again", slug: "form-unpublish", intent: "publish" });
    expect((await unpublishArticle(fx.t.db, article.id)).status).toBe("draft");
    expect(await getArticleBySlug(fx.t.db, "form-unpublish")).toBeNull();
    const error = await unpublishArticle(fx.t.db, article.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect(((await unpublishArticle(fx.t.db, "00000000-0000-4000-8000-000000000000").catch((e: unknown) => e)) as AppError).code).toBe("not_found");
  });

  it("the admin list filters by status and the preview reads any status", async () => {
    const drafts = await listAdminArticles(fx.t.db, 1, 100, { status: "draft" });
    expect(drafts.rows.length).toBeGreaterThan(0);
    expect(drafts.rows.every((r) => r.status === "draft")).toBe(true);
    const draft = drafts.rows[0]!;
    expect((await getArticleForPreview(fx.t.db, draft.id))?.status).toBe("draft");
    expect(await getArticleForPreview(fx.t.db, "not-a-uuid")).toBeNull();
  });
});

describe("what readers see", () => {
  let categorySlug: string;
  let categoryId: string;
  beforeAll(async () => {
    const category = await createCategory(fx.t.db, { name: "Visibility", slug: "visibility" });
    categorySlug = category.slug;
    categoryId = category.id;
    const base = { content: "Body", categoryId };
    await fx.t.db.insert(articles).values([
      { ...base, title: "Public", slug: "vis-public", status: "published", publishedAt: new Date(Date.now() - 60_000), views: 5 },
      { ...base, title: "Draft", slug: "vis-draft", status: "draft", publishedAt: null, views: 500 },
      { ...base, title: "Scheduled", slug: "vis-scheduled", status: "scheduled", publishedAt: new Date(Date.now() + 3600_000), views: 400 },
      // Published with a time still ahead (only a direct write can make one): not public before it.
      { ...base, title: "Ahead", slug: "vis-ahead", status: "published", publishedAt: new Date(Date.now() + 3600_000), views: 300 },
    ]);
  });
  const hidden = ["vis-draft", "vis-scheduled", "vis-ahead"];

  it("by slug: only the public one", async () => {
    expect(await getArticleBySlug(fx.t.db, "vis-public")).not.toBeNull();
    for (const slug of hidden) expect(await getArticleBySlug(fx.t.db, slug), slug).toBeNull();
    for (const slug of hidden) expect(await getArticleViews(fx.t.db, slug), slug).toBeNull();
  });

  it("home, category pages, the feeds and the sitemaps", async () => {
    const home = (await listLatestArticles(fx.t.db, 100)).map((a) => a.slug);
    const category = await listCategoryArticles(fx.t.db, categoryId, { offset: 0, limit: 100 });
    const feed = (await listFeedItems(fx.t.db, { kind: "site" })).map((a) => a.slug);
    const categoryFeed = (await listFeedItems(fx.t.db, { kind: "category", categoryId })).map((a) => a.slug);
    const sitemap: string[] = [];
    for (const part of await listArticleSitemapParts(fx.t.db)) sitemap.push(...(await listSitemapArticles(fx.t.db, part.month, part.part)).map((a) => a.slug));
    const news = (await listNewsSitemapArticles(fx.t.db)).map((a) => a.slug);
    expect(home).toContain("vis-public");
    expect(sitemap).toContain("vis-public");
    expect(feed).toContain("vis-public");
    expect(categoryFeed).toEqual(["vis-public"]);
    expect(category.articles.map((a) => a.slug)).toEqual(["vis-public"]);
    expect(category.total).toBe(1);
    for (const slug of hidden) {
      expect(home).not.toContain(slug);
      expect(sitemap).not.toContain(slug);
      expect(feed).not.toContain(slug);
      expect(news).not.toContain(slug);
    }
    expect(categorySlug).toBe("visibility");
  });

  it("comments cannot be posted to a hidden article", async () => {
    const values = { authorName: "A", authorEmail: "a@example.com", content: "Hi", parentCommentId: "", imageUrl: "", videoUrl: "" };
    for (const slug of hidden) {
      const error = await postComment(fx.t.db, log, slug, values).catch((e: unknown) => e);
      expect((error as AppError).code, slug).toBe("not_found");
    }
    await expect(postComment(fx.t.db, log, "vis-public", values)).resolves.toMatchObject({ held: false });
  });

  it("views are counted for public articles only", async () => {
    const recorder = new ViewRecorder(fx.t.db, log);
    recorder.record("/article/vis-public");
    recorder.record("/article/vis-draft");
    await recorder.flush();
    const views = Object.fromEntries(
      (await fx.t.db.select({ slug: articles.slug, views: articles.views }).from(articles)).map((r) => [r.slug, r.views]),
    );
    expect(views["vis-public"]).toBe(6);
    expect(views["vis-draft"]).toBe(500);
  });

  it("the dashboard's top articles are public ones", async () => {
    const top = (await getTopArticles(fx.t.db, 100)).map((a) => a.slug);
    expect(top).toContain("vis-public");
    for (const slug of hidden) expect(top).not.toContain(slug);
  });
});

describe("the scheduler", () => {
  async function scheduled(slug: string, at: Date) {
    const [row] = await fx.t.db
      .insert(articles)
      .values({ title: slug, slug, content: "Body", status: "scheduled", publishedAt: at })
      .returning({ id: articles.id });
    return row!.id;
  }

  it("publishes what is due, and not what is not", async () => {
    const due = await scheduled("sch-due", new Date(Date.now() - 1000));
    const later = await scheduled("sch-later", new Date(Date.now() + 3600_000));
    const published = await publishDueArticles(fx.t.db);
    expect(published.map((a) => a.slug)).toContain("sch-due");
    expect(published.map((a) => a.slug)).not.toContain("sch-later");
    expect(await statusOf(due)).toBe("published");
    expect(await statusOf(later)).toBe("scheduled");
    expect(await getArticleBySlug(fx.t.db, "sch-due")).not.toBeNull();
  });

  it("two schedulers racing (separate pools, as two processes): each due article is published exactly once", async () => {
    const second = createDb(fx.t.url, 5);
    try {
      for (let round = 0; round < 5; round++) {
        const slugs = await Promise.all(Array.from({ length: 20 }, (_, i) => `race-${round}-${i}`).map(async (slug) => {
          await scheduled(slug, new Date(Date.now() - 1000));
          return slug;
        }));
        const [a, b, c] = await Promise.all([publishDueArticles(fx.t.db), publishDueArticles(second.db), publishDueArticles(second.db)]);
        const all = [...a, ...b, ...c].map((x) => x.slug).filter((s) => s.startsWith(`race-${round}-`));
        expect(all.sort()).toEqual([...slugs].sort());
        expect(new Set(all).size).toBe(all.length);
      }
    } finally {
      await second.pool.end();
    }
  });

  it("a scheduler starting after the time publishes at once (catch-up), and stops cleanly", async () => {
    const id = await scheduled("sch-catch-up", new Date(Date.now() - 3600_000));
    const stop = startPublishingScheduler(fx.t.db, log, 3600_000);
    await expect.poll(() => statusOf(id), { timeout: 5000 }).toBe("published");
    await stop();
  });

  it("publishing announces a change on the change channel (page caches clear, dashboards refresh)", async () => {
    const client = new pg.Client({ connectionString: fx.t.url });
    await client.connect();
    try {
      const heard: string[] = [];
      client.on("notification", (m) => heard.push(m.payload ?? ""));
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      await scheduled("sch-notify", new Date(Date.now() - 1000));
      heard.length = 0;
      await publishDueArticles(fx.t.db);
      await expect.poll(() => heard.some((p) => p.includes('"articles"') && p.includes("UPDATE")), { timeout: 5000 }).toBe(true);
      // Unpublishing too (status alone changes).
      const [row] = await fx.t.db.select({ id: articles.id }).from(articles).where(eq(articles.slug, "sch-notify"));
      heard.length = 0;
      await unpublishArticle(fx.t.db, row!.id);
      await expect.poll(() => heard.length, { timeout: 5000 }).toBeGreaterThan(0);
      // A run with nothing due announces nothing (it would clear every page cache at each tick).
      await new Promise((r) => setTimeout(r, 200));
      heard.length = 0;
      expect(await publishDueArticles(fx.t.db)).toEqual([]);
      await fx.t.db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, 'marker')`);
      await expect.poll(() => heard, { timeout: 5000 }).toContain("marker");
      expect(heard).toEqual(["marker"]);
    } finally {
      await client.end();
    }
  });
});

describe("migration 0003", () => {
  it("migrates existing articles as published with published_at = created_at", async () => {
    const serverUrl = inject("postgresUrl");
    const name = `mig_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: Object.assign(new URL(serverUrl), { pathname: "/postgres" }).href });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-migrations-"));
    const pool = new pg.Pool({ connectionString: Object.assign(new URL(serverUrl), { pathname: `/${name}` }).href });
    // Dropping the database WITH (FORCE) below ends any session still closing: not an error of the test.
    pool.on("error", () => {});
    try {
      // Migrations 0000–0002 only: the database as it was before this change.
      const source = path.resolve(import.meta.dirname, "../../../drizzle");
      await fs.cp(source, folder, { recursive: true });
      const journalPath = path.join(folder, "meta", "_journal.json");
      const journal = JSON.parse(await fs.readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
      journal.entries = journal.entries.filter((e) => e.tag < "0003");
      await fs.writeFile(journalPath, JSON.stringify(journal));
      await migrate(drizzle(pool), { migrationsFolder: folder });
      await pool.query(`insert into articles (title, slug, content, created_at) values
        ('Old one', 'old-one', 'Body', '2024-03-04T05:06:07Z'), ('Old two', 'old-two', 'Body', '2025-01-01T00:00:00Z')`);

      await migrate(drizzle(pool), { migrationsFolder: source });
      const { rows } = await pool.query<{ slug: string; status: string; published_at: Date; created_at: Date }>(
        "select slug, status, published_at, created_at from articles order by slug",
      );
      expect(rows.map((r) => r.status)).toEqual(["published", "published"]);
      for (const r of rows) expect(r.published_at.toISOString()).toBe(r.created_at.toISOString());
      expect(rows[0]!.created_at.toISOString()).toBe("2024-03-04T05:06:07.000Z");
      // A row inserted as before (no status, no published_at) is published as of its creation.
      await pool.query(`insert into articles (title, slug, content, created_at) values ('New one', 'new-one', 'Body', '2026-01-01T00:00:00Z')`);
      const { rows: inserted } = await pool.query<{ status: string; published_at: Date }>("select status, published_at from articles where slug = 'new-one'");
      expect(inserted[0]).toEqual({ status: "published", published_at: new Date("2026-01-01T00:00:00Z") });
      // And they are what readers see.
      const { rows: visible } = await pool.query<{ n: number }>("select count(*)::int as n from articles where status = 'published' and published_at <= now()");
      expect(visible[0]!.n).toBe(3);
    } finally {
      await pool.end();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});
