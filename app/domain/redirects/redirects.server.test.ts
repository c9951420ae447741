import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, test } from "vitest";
import { auditEvents, redirects } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { ChangeFeed, type ChangeEvent } from "~/lib/change-feed.server";
import { createLogger } from "~/lib/logger.server";
import { ViewRecorder } from "~/lib/view-recorder.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { refusal } from "../../../tests/setup/refusal";
import { RedirectTable } from "./redirect-table.server";
import { FROM_TAKEN, HOME_NOT_REDIRECTED, LEADS_TO_ITSELF, TOO_MANY_HOPS, redirectFormSchema } from "./redirects.schema";
import { addImportedRedirects, createRedirect, deleteRedirect, findRedirect, importRedirectRows, listRedirects, updateRedirect } from "./redirects.server";

const { db, url } = await createTestDatabase();
const log = createLogger("silent");
const admin: Actor = { id: "user-admin", name: "Ada Admin", role: "admin" };
const input = (fromPath: string, toPath: string, statusCode = "301") => redirectFormSchema.parse({ fromPath, toPath, statusCode });
const add = (fromPath: string, toPath: string, statusCode = "301") => createRedirect(db, admin, input(fromPath, toPath, statusCode));
const clear = () => db.delete(redirects);

describe("adding, changing and deleting a redirect", () => {
  test("is saved normalized, recorded in the activity log, and changed and deleted by id", async () => {
    await clear();
    const row = await add("/2019/05/some-story/", "/article/some-story");
    expect(row).toMatchObject({ fromPath: "/2019/05/some-story", toPath: "/article/some-story", statusCode: 301, hits: 0, source: "manual" });
    await updateRedirect(db, admin, row.id, input("/2019/05/some-story", "/article/other", "302"));
    expect((await findRedirect(db, "/2019/05/some-story/"))).toMatchObject({ toPath: "/article/other", statusCode: 302 });
    await deleteRedirect(db, admin, row.id);
    expect(await findRedirect(db, "/2019/05/some-story")).toBeNull();
    const kinds = (await db.select({ kind: auditEvents.kind }).from(auditEvents).where(eq(auditEvents.objectId, String(row.id)))).map((e) => e.kind).sort();
    expect(kinds).toEqual(["redirect.create", "redirect.delete", "redirect.update"]);
    expect((await refusal(deleteRedirect(db, admin, row.id))).code).toBe("not_found");
  });

  test("the form refuses an empty or invalid address beside its field", () => {
    const result = redirectFormSchema.safeParse({ fromPath: "", toPath: "javascript:alert(1)", statusCode: "307" });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path[0]).sort()).toEqual(["fromPath", "statusCode", "toPath"]);
  });

  test("a redirect to itself (a slash or a query apart) is refused", async () => {
    await clear();
    for (const [from, to] of [["/a", "/a"], ["/a/", "/a"], ["/a", "/a/?utm=x"]]) {
      const error = await refusal(add(from!, to!));
      expect([error.field, error.message]).toEqual(["toPath", LEADS_TO_ITSELF]);
    }
  });

  test("the back office's and the API's own addresses, and the home page, are refused", async () => {
    for (const from of ["/admin", "/admin/redirects/", "/api/views", "/api/auth/sign-in/email", "/auth/sign-out", "/media/x.jpg", "/assets/app.js", "/healthz", "/preview/abc", "/join/t"]) {
      const error = await refusal(add(from, "/article/x"));
      expect(error.field, from).toBe("fromPath");
      expect(error.message, from).toMatch(/one of the site's own addresses/);
    }
    expect((await refusal(add("/", "/article/x"))).message).toBe(HOME_NOT_REDIRECTED);
    // A query of the home page is an old site's address (WordPress's ?p=123).
    await add("/?p=123", "/article/x");
  });

  test("a live page's address may be redirected: redirects are answered first", async () => {
    await add("/article/old-story", "/article/new-story");
    expect(await findRedirect(db, "/article/old-story")).toMatchObject({ toPath: "/article/new-story" });
  });

  test("a loop through existing redirects is refused, as is too long a chain", async () => {
    await clear();
    await add("/b", "/c");
    await add("/c", "/d/");
    const loop = await refusal(add("/d", "/b?x=1"));
    expect(loop.field).toBe("toPath");
    expect(loop.message).toBe("This would make a loop: /d/ leads back to /d.");
    // Changing one of them into a loop is refused too.
    const [c] = await db.select().from(redirects).where(eq(redirects.fromPath, "/c"));
    expect((await refusal(updateRedirect(db, admin, c!.id, input("/c", "/b")))).message).toMatch(/loop/);
    await add("/d", "/e");
    await add("/e", "/f");
    await add("/a", "/b"); // a → b → c → d → e → f: five redirects
    expect((await refusal(add("/z", "/a"))).message).toBe(TOO_MANY_HOPS);
    // An absolute URL ends a chain.
    await add("/f", "https://example.org/f");
  });

  test("a second redirect from the same old address is refused", async () => {
    await clear();
    await add("/same", "/article/a");
    const error = await refusal(add("/same/", "/article/b"));
    expect([error.field, error.message]).toEqual(["fromPath", FROM_TAKEN]);
  });
});

describe("findRedirect: what a request is answered with", () => {
  test("its path and query first, then its path alone, a trailing slash either way", async () => {
    await clear();
    await add("/a/b/", "/article/ab");
    await add("/list?page=2&sort=new", "/category/news?page=2");
    await add("/list", "/category/news");
    expect((await findRedirect(db, "/a/b"))?.toPath).toBe("/article/ab");
    expect((await findRedirect(db, "/a/b/?utm_source=x"))?.toPath).toBe("/article/ab");
    expect((await findRedirect(db, "/list/?sort=new&page=2"))?.toPath).toBe("/category/news?page=2");
    expect((await findRedirect(db, "/list?page=3"))?.toPath).toBe("/category/news");
    expect(await findRedirect(db, "/a")).toBeNull();
  });
});

describe("addImportedRedirects (the importer's)", () => {
  test("adds in bulk, idempotently, never overwriting, skipping rows that lead to themselves", async () => {
    await clear();
    await add("/author/jdoe/", "/author/john");
    const rows = [
      { fromPath: "/2019/05/some-story/", toPath: "/article/some-story" },
      { fromPath: "/?p=123", toPath: "/article/x" },
      { fromPath: "/?page_id=7", toPath: "/ethics", statusCode: 302 as const },
      { fromPath: "/category/news/", toPath: "/category/news" },
      { fromPath: "/tag/x/", toPath: "/tag/x" },
      { fromPath: "/author/jdoe/", toPath: "/author/jane-doe" },
      { fromPath: "/feed/", toPath: "/rss.xml" },
      { fromPath: "/admin/", toPath: "/article/x" },
    ];
    const first = await db.transaction((tx) => addImportedRedirects(tx, rows, "import:1"));
    expect(first.added).toBe(4);
    expect(first.unchanged).toBe(0);
    expect(first.conflicts).toEqual([{ fromPath: "/author/jdoe", existingTo: "/author/john" }]);
    expect(first.skipped.map((s) => [s.index, s.reason.slice(0, 30)])).toEqual([
      [3, LEADS_TO_ITSELF.slice(0, 30)],
      [4, LEADS_TO_ITSELF.slice(0, 30)],
      [7, "/admin is one of the site's ow"],
    ]);
    expect(await findRedirect(db, "/?page_id=7")).toMatchObject({ toPath: "/ethics", statusCode: 302 });
    const [row] = await db.select().from(redirects).where(eq(redirects.fromPath, "/feed"));
    expect(row!.source).toBe("import:1");

    const again = await db.transaction((tx) => addImportedRedirects(tx, rows, "import:1"));
    expect([again.added, again.unchanged, again.conflicts.length]).toEqual([0, 4, 1]);
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(redirects))[0]!.n).toBe(5);
  });

  test("rows that make a loop together are skipped, the rest added", async () => {
    await clear();
    const result = await db.transaction((tx) =>
      addImportedRedirects(tx, [{ fromPath: "/x", toPath: "/y" }, { fromPath: "/y", toPath: "/x/" }, { fromPath: "/z", toPath: "/x" }], "import:2"),
    );
    expect(result.skipped.map((s) => s.fromPath)).toEqual(["/x", "/y"]);
    expect(result.added).toBe(1);
  });

  test("thousands of rows go in a few statements, inside the caller's transaction", async () => {
    await clear();
    const rows = Array.from({ length: 4500 }, (_, i) => ({ fromPath: `/old/${i}/`, toPath: `/article/story-${i}` }));
    const started = Date.now();
    const result = await db.transaction((tx) => addImportedRedirects(tx, rows, "import:3"));
    expect(result.added).toBe(4500);
    expect(Date.now() - started).toBeLessThan(10_000);
    // Rolled back with the caller's transaction.
    await db
      .transaction(async (tx) => {
        await addImportedRedirects(tx, [{ fromPath: "/rolled-back", toPath: "/article/x" }], "import:3");
        throw new Error("rollback");
      })
      .catch(() => {});
    expect(await findRedirect(db, "/rolled-back")).toBeNull();
    expect((await listRedirects(db, { search: "old/449", pageSize: 20 })).total).toBe(11);
  });
});

describe("importRedirectRows (the back office's CSV)", () => {
  test("saves the good lines, changes an existing old address, and reports the bad ones by line", async () => {
    await clear();
    await add("/kept", "/article/before");
    const result = await importRedirectRows(db, admin, [
      { line: 2, fromPath: "/kept", toPath: "/article/after" },
      { line: 3, fromPath: "/new", toPath: "/article/new", statusCode: 302 },
      { line: 4, fromPath: "/admin/settings", toPath: "/article/x" },
      { line: 5, fromPath: "/self/", toPath: "/self" },
    ]);
    expect(result).toMatchObject({ added: 1, updated: 1, unchanged: 0 });
    expect(result.problems.map((p) => p.line)).toEqual([4, 5]);
    expect((await findRedirect(db, "/kept"))?.toPath).toBe("/article/after");
  });
});

describe("hits and the change notice", () => {
  const feed = new ChangeFeed(url, log);
  afterAll(() => feed.stop());

  test("hits are counted in batches with the page views; the count sends no notice, a change does", async () => {
    await clear();
    await feed.start();
    const heard: ChangeEvent[] = [];
    feed.on("change", (event) => heard.push(event));
    const row = await add("/counted", "/article/x");
    expect(await feed.caughtUp()).toBe(true);
    expect(heard.filter((e) => e.table === "redirects")).toHaveLength(1);

    const recorder = new ViewRecorder(db, log);
    const at = Date.parse("2026-11-20T10:00:00Z");
    recorder.recordRedirectHit(row.id, at);
    recorder.recordRedirectHit(row.id, at + 5000);
    recorder.recordRedirectHit(row.id, at + 1000);
    expect(recorder.pendingRedirectHits(row.id)).toBe(3);
    await recorder.flush();
    const [stored] = await db.select().from(redirects).where(eq(redirects.id, row.id));
    expect(stored!.hits).toBe(3);
    expect(stored!.lastHitAt?.toISOString()).toBe("2026-11-20T10:00:05.000Z");
    expect(await feed.caughtUp()).toBe(true);
    expect(heard.filter((e) => e.table === "redirects")).toHaveLength(1);
  });

  test("each process's table reloads when the notice comes", async () => {
    await clear();
    const table = new RedirectTable(db, log);
    table.watch(feed);
    await table.reload();
    expect(table.answerFor("/later")).toBeNull();
    await add("/later/", "/article/later", "302");
    await feed.caughtUp();
    await table.reload(); // the reload the notice started, or one after it
    expect(table.answerFor("/later?utm_source=x")).toMatchObject({ statusCode: 302, location: "/article/later?utm_source=x" });
    expect(table.answerFor("/later/")).toMatchObject({ location: "/article/later" });
    // Rows written around the service are held to its rules: never the back office's addresses.
    await db.insert(redirects).values({ fromPath: "/admin", toPath: "/article/x" });
    await feed.caughtUp();
    await table.reload();
    expect(table.answerFor("/admin")).toBeNull();
  });
});
