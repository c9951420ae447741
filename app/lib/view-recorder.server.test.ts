import { count, eq } from "drizzle-orm";
import pino from "pino";
import { beforeEach, describe, expect, test } from "vitest";
import { createDb } from "~/db/client.server";
import { articles, categories, pageViews } from "~/db/schema";
import { createTestDatabase } from "../../tests/setup/test-database";
import { articleSlugFromPath, MAX_PENDING_ARTICLES, MAX_PENDING_PAGE_VIEWS, ViewRecorder } from "./view-recorder.server";

const { db, url } = await createTestDatabase();
const log = pino({ level: process.env.TEST_LOG ?? "silent" });

async function createArticle(slug: string) {
  const [category] = await db
    .insert(categories)
    .values({ name: `Cat ${slug}`, slug: `cat-${slug}` })
    .returning();
  await db.insert(articles).values({ title: slug, slug, content: "Body", categoryId: category!.id });
}

async function viewsOf(slug: string) {
  const [row] = await db.select({ views: articles.views }).from(articles).where(eq(articles.slug, slug));
  return row!.views;
}

async function pageViewRows(path: string) {
  const [row] = await db.select({ n: count() }).from(pageViews).where(eq(pageViews.path, path));
  return row!.n;
}

describe("articleSlugFromPath", () => {
  test("an article path gives its decoded slug", () => {
    expect(articleSlugFromPath("/article/hello-world")).toBe("hello-world");
    expect(articleSlugFromPath("/article/hello-world/?ref=home")).toBe("hello-world");
    expect(articleSlugFromPath("/article/hello%2Dworld")).toBe("hello-world");
  });

  test("a slug that cannot exist is none: no query is made with it", () => {
    expect(articleSlugFromPath("/article/%00")).toBeNull();
    expect(articleSlugFromPath("/article/caf%C3%A9")).toBeNull();
    expect(articleSlugFromPath("/article/Hello")).toBeNull();
    expect(articleSlugFromPath("/article/%E0%A4%A")).toBeNull();
  });

  test("any other path gives no slug", () => {
    expect(articleSlugFromPath("/")).toBeNull();
    expect(articleSlugFromPath("/category/news")).toBeNull();
    expect(articleSlugFromPath("/article/a/b")).toBeNull();
  });
});

describe("ViewRecorder", () => {
  beforeEach(async () => {
    await db.delete(pageViews);
  });

  test("200 concurrent views of an article plus a flush raise its views by exactly 200 and write 200 page views", async () => {
    await createArticle("two-hundred");
    const recorder = new ViewRecorder(db, log);
    await Promise.all(Array.from({ length: 200 }, async () => recorder.record("/article/two-hundred")));
    await recorder.flush();
    expect(await viewsOf("two-hundred")).toBe(200);
    expect(await pageViewRows("/article/two-hundred")).toBe(200);
    expect(recorder.pending("two-hundred")).toBe(0);
  });

  test("loads of one path in one millisecond wait as one entry and are written as a row each, at that time", async () => {
    const recorder = new ViewRecorder(db, log);
    const at = Date.parse("2026-11-26T08:00:00.123Z");
    for (let i = 0; i < 3; i++) recorder.record("/category/news", at);
    recorder.record("/category/news", at + 1);
    recorder.record("/", at);
    expect((recorder as unknown as { pageViews: unknown[] }).pageViews).toHaveLength(3);
    expect(recorder.pendingPageViews()).toBe(5);
    await recorder.flush();
    const rows = await db.select({ path: pageViews.path, viewedAt: pageViews.viewedAt }).from(pageViews);
    const times = (path: string) => rows.filter((row) => row.path === path).map((row) => row.viewedAt.toISOString()).sort();
    expect(times("/category/news")).toEqual(["2026-11-26T08:00:00.123Z", "2026-11-26T08:00:00.123Z", "2026-11-26T08:00:00.123Z", "2026-11-26T08:00:00.124Z"]);
    expect(times("/")).toEqual(["2026-11-26T08:00:00.123Z"]);
    expect(recorder.pendingPageViews()).toBe(0);
  });

  test("a live count that overlaps a flush still counts every view: it reads again once the write is done", async () => {
    await createArticle("overlapped");
    const recorder = new ViewRecorder(db, log);
    recorder.record("/article/overlapped");
    let reads = 0;
    // The first read sees the stored count from before the flush, and the flush takes the buffer
    // before the answer is put together: the moment a beacon could answer one view short.
    const readStored = async () => {
      reads++;
      const stored = await viewsOf("overlapped");
      if (reads === 1) await recorder.flush();
      return stored;
    };
    expect(await recorder.liveViews("overlapped", readStored)).toBe(1);
    expect(reads).toBe(2);
    expect(await viewsOf("overlapped")).toBe(1);
  });

  test("a live count waits for a flush under way and adds what is still buffered", async () => {
    await createArticle("buffered");
    const recorder = new ViewRecorder(db, log);
    recorder.record("/article/buffered");
    const flushing = recorder.flush();
    recorder.record("/article/buffered");
    expect(await recorder.liveViews("buffered", () => viewsOf("buffered"))).toBe(2);
    await flushing;
    expect(await recorder.liveViews("unknown", async () => null)).toBeNull();
  });

  test("views that are not of an article are written as page views only", async () => {
    await createArticle("untouched");
    const recorder = new ViewRecorder(db, log);
    recorder.record("/category/news");
    recorder.record("/");
    await recorder.flush();
    expect(await pageViewRows("/category/news")).toBe(1);
    expect(await pageViewRows("/")).toBe(1);
    expect(await viewsOf("untouched")).toBe(0);
  });

  test("flushes running at the same time in two processes never lose an increment (2 x 500)", async () => {
    await createArticle("contended");
    // Two pools stand for two app processes sharing one PostgreSQL.
    const first = createDb(url, 5);
    const second = createDb(url, 5);
    try {
      // A small buffer makes each recorder flush many times while the other is flushing too.
      const a = new ViewRecorder(first.db, log, 25);
      const b = new ViewRecorder(second.db, log, 25);
      const flushes: Promise<void>[] = [];
      for (let i = 0; i < 500; i++) {
        a.record("/article/contended");
        b.record("/article/contended");
        if (i % 7 === 0) flushes.push(a.flush(), b.flush());
        if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      }
      await Promise.all([...flushes, a.flush(), b.flush()]);
      expect(await viewsOf("contended")).toBe(1000);
      expect(await pageViewRows("/article/contended")).toBe(1000);
    } finally {
      await first.pool.end();
      await second.pool.end();
    }
  });

  test("views whose write fails are kept and written by the next flush", async () => {
    await createArticle("retried");
    let failures = 1;
    // The real database, except that the first transaction fails as a dropped connection would.
    const flaky = new Proxy(db, {
      get(target, key, receiver) {
        if (key === "transaction" && failures > 0) {
          return async () => {
            failures--;
            throw new Error("connection terminated unexpectedly");
          };
        }
        return Reflect.get(target, key, receiver);
      },
    });
    const recorder = new ViewRecorder(flaky, log);
    recorder.record("/article/retried");
    recorder.record("/article/retried");
    await recorder.flush();
    expect(await viewsOf("retried")).toBe(0);
    expect(recorder.pending("retried")).toBe(2);
    await recorder.flush();
    expect(await viewsOf("retried")).toBe(2);
    expect(await pageViewRows("/article/retried")).toBe(2);
  });

  test("a batch the database refuses (a NUL byte) is dropped, and later views are written again", async () => {
    await createArticle("after-refusal");
    const recorder = new ViewRecorder(db, log);
    recorder.record("/bad\u0000path");
    recorder.record("/article/after-refusal");
    await recorder.flush();
    expect(recorder.pending("after-refusal")).toBe(0);
    recorder.record("/article/after-refusal");
    await recorder.flush();
    expect(await viewsOf("after-refusal")).toBe(1);
    expect(await pageViewRows("/article/after-refusal")).toBe(1);
  });

  test("while the database is down, what waits in memory is capped (oldest page views dropped)", async () => {
    const down = new Proxy(db, {
      get(target, key, receiver) {
        if (key === "transaction") return async () => Promise.reject(new Error("database is down"));
        return Reflect.get(target, key, receiver);
      },
    });
    const recorder = new ViewRecorder(down, log, Number.MAX_SAFE_INTEGER);
    for (let i = 0; i < MAX_PENDING_PAGE_VIEWS + 50; i++) recorder.record(i < 50 ? `/old-${i}` : "/page");
    for (let i = 0; i < MAX_PENDING_ARTICLES + 5; i++) recorder.record(`/article/made-up-${i}`);
    await recorder.flush();
    const internals = recorder as unknown as { pageViews: { path: string; n: number }[]; articleViews: Map<string, number> };
    expect(recorder.pendingPageViews()).toBe(MAX_PENDING_PAGE_VIEWS);
    expect(internals.pageViews.reduce((sum, group) => sum + group.n, 0)).toBe(MAX_PENDING_PAGE_VIEWS);
    expect(internals.pageViews.some((v) => v.path.startsWith("/old-"))).toBe(false);
    expect(internals.articleViews.size).toBe(MAX_PENDING_ARTICLES);
  });
});
