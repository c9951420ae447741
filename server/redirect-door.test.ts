import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { redirects } from "../app/db/schema";
import type { Actor } from "../app/domain/accounts/actor";
import { RedirectTable } from "../app/domain/redirects/redirect-table.server";
import { redirectFormSchema } from "../app/domain/redirects/redirects.schema";
import { createRedirect, deleteRedirect } from "../app/domain/redirects/redirects.server";
import { ChangeFeed } from "../app/lib/change-feed.server";
import { createLogger } from "../app/lib/logger.server";
import { ViewRecorder } from "../app/lib/view-recorder.server";
import { createTestDatabase } from "../tests/setup/test-database";
import { cacheDoor } from "./cache-door";
import { securityHeaderWriter } from "./middleware/security-headers";
import { PageCache } from "./page-cache";
import { redirectDoor } from "./redirect-door";
import { SHORT_SHARED_CACHE } from "../app/lib/cache-control";

const { db, url } = await createTestDatabase();
const log = createLogger("silent");
const admin: Actor = { id: "user-admin", name: "Ada Admin", role: "admin" };
const changes = new ChangeFeed(url, log);
const table = new RedirectTable(db, log);
const views = new ViewRecorder(db, log);
const cache = new PageCache();
let server: http.Server;
let origin = "";

const add = (fromPath: string, toPath: string, statusCode = "301") => createRedirect(db, admin, redirectFormSchema.parse({ fromPath, toPath, statusCode }));
const get = (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, { redirect: "manual", ...init });
/** Waits until the table, reloaded by the change notice alone, answers `path` as `expected` says. */
async function untilTable(path: string, expected: (answer: ReturnType<RedirectTable["answerFor"]>) => boolean) {
  for (let i = 0; i < 100 && !expected(table.answerFor(path)); i++) await new Promise((r) => setTimeout(r, 20));
}

beforeAll(async () => {
  await changes.start();
  table.watch(changes);
  await add("/2019/05/some-story/", "/article/some-story");
  await add("/?p=123", "/article/x", "302");
  await table.reload();
  const writeSecurityHeaders = securityHeaderWriter({ closing: () => false });
  const redirectsFirst = redirectDoor({ table, writeSecurityHeaders, onHit: (id) => views.recordRedirectHit(id) });
  const door = cacheDoor({ cache, writeSecurityHeaders });
  // As server/index.ts: redirects, then the page cache's door, then the app (here a marker).
  server = http.createServer((req, res) => {
    if (!redirectsFirst(req, res) && !door(req, res)) res.writeHead(299).end("app");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await changes.stop();
});

describe("redirects answered before routing", () => {
  test("an old address answers its status and Location, cached like a public page, with the security headers", async () => {
    const answer = await get("/2019/05/some-story");
    expect(answer.status).toBe(301);
    expect(answer.headers.get("location")).toBe("/article/some-story");
    expect(answer.headers.get("cache-control")).toBe(SHORT_SHARED_CACHE["Cache-Control"]);
    expect(answer.headers.get("cache-tag")).toBe("site,redirects");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    const wp = await get("/?p=123");
    expect([wp.status, wp.headers.get("location")]).toEqual([302, "/article/x"]);
  });

  test("matched by its path alone, the request's query goes on; other paths and other methods reach the app", async () => {
    expect((await get("/2019/05/some-story/?utm_source=feed")).headers.get("location")).toBe("/article/some-story?utm_source=feed");
    expect((await get("/?p=124")).status).toBe(299);
    expect((await get("/")).status).toBe(299);
    expect((await get("/2019/05/some-story/", { method: "POST" })).status).toBe(299);
    const head = await get("/2019/05/some-story", { method: "HEAD" });
    expect(head.status).toBe(301);
  });

  test("a redirect wins over a cached page at its address", async () => {
    cache.set("/article/live", 200, [["content-type", "text/html"]], Buffer.from("<p>live</p>"), undefined, ["site"]);
    expect((await get("/article/live")).status).toBe(200);
    await add("/article/live", "/article/elsewhere");
    await untilTable("/article/live", (answer) => answer !== null);
    const answer = await get("/article/live");
    expect([answer.status, answer.headers.get("location")]).toEqual([301, "/article/elsewhere"]);
  });

  test("a change reaches the table through the change notice: deleted, the address goes back to the page", async () => {
    const [row] = await db.select().from(redirects).where(eq(redirects.fromPath, "/article/live"));
    await deleteRedirect(db, admin, row!.id);
    await untilTable("/article/live", (answer) => answer === null);
    expect((await get("/article/live")).status).toBe(200);
  });

  test("each GET is a hit, written in the view recorder's batch; HEAD is not counted", async () => {
    const [before] = await db.select().from(redirects).where(eq(redirects.fromPath, "/?p=123"));
    await get("/?p=123");
    await get("/?p=123");
    await get("/?p=123", { method: "HEAD" });
    expect(views.pendingRedirectHits(before!.id)).toBe(3); // one from the first test
    await views.flush();
    const [after] = await db.select().from(redirects).where(eq(redirects.fromPath, "/?p=123"));
    expect(after!.hits).toBe(3);
    expect(after!.lastHitAt).not.toBeNull();
  });
});
