import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { purgedSharedCache, SHORT_SHARED_CACHE } from "../app/lib/cache-control";
import { PageCache } from "./page-cache";

// React Router itself is replaced by a stand-in that answers like it does: a page for GET, the same
// status and headers without a body for HEAD (React Router drops the body of a HEAD answer).
const renders = new Map<string, number>();
/** What a page says changes when a test gives it a version; a path in `gone` answers 404 (unpublished). */
const versions = new Map<string, number>();
const gone = new Set<string>();

vi.mock("react-router", () => ({
  createRequestHandler: () => async (request: Request) => {
    const renderedPath = new URL(request.url).pathname;
    renders.set(renderedPath, (renders.get(renderedPath) ?? 0) + 1);
    // A page that takes a while to render (the database is slow), so readers arrive during it.
    if (renderedPath.startsWith("/category/slow")) await new Promise((resolve) => setTimeout(resolve, renderedPath.includes("slower") ? 1000 : 100));
    if (request.method === "POST") {
      try {
        return new Response(`read ${(await request.arrayBuffer()).byteLength}`, { status: 200 });
      } catch {
        return new Response("body failed", { status: 500 });
      }
    }
    if (gone.has(renderedPath)) return new Response("not found", { status: 404 });
    const version = versions.get(renderedPath);
    const body = `<!doctype html><p>page ${renderedPath}${version ? ` v${version}` : ""}</p>${renderedPath.includes("long") ? "<p>A long page.</p>".repeat(100) : ""}`;
    return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  },
}));

const { answerExpectContinue, createAppHandler, MAX_BODY_BYTES, mayChangePages } = await import("./request-handler");
const { personalAnswers } = await import("./middleware/personal-answers");

const cache = new PageCache();
let databaseUp = true;
/** What the handler's changesHeard does (ChangeFeed.caughtUp in the server); undefined: no change feed. */
let changesHeard: (() => Promise<boolean>) | undefined;
const counted: string[] = [];
/** The shared-cache lifetime the handler gives pages it stores (server/cdn: a day once a CDN is purged). */
let sharedCache = SHORT_SHARED_CACHE;
let origin = "";
let server: ReturnType<ReturnType<typeof express>["listen"]>;

beforeAll(async () => {
  const app = express();
  // As server/index.ts wires it: the Cache-Control of personal answers is decided in front of the handler.
  app.use(personalAnswers());
  // As the security headers would (server/middleware/security-headers.ts): every answer gets a policy.
  app.use((_req, res, next) => {
    res.setHeader("Content-Security-Policy", "script-src 'nonce-fresh'");
    next();
  });
  app.all("/{*path}", createAppHandler({ build: {} as never, mode: "production", cache, loadContext: () => ({}) as never, databaseUp: () => databaseUp, onPageView: (path) => void counted.push(path), sharedCache: () => sharedCache, changesHeard: () => changesHeard?.() ?? Promise.resolve(false) }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the page cache in the request handler", () => {
  test("while the database is down, a cached page is still served and a page not in the cache answers 503 with a retry hint", async () => {
    expect((await fetch(`${origin}/category/kept`)).status).toBe(200);
    databaseUp = false;
    try {
      const kept = await fetch(`${origin}/category/kept`);
      expect([kept.status, kept.headers.get("x-cache")]).toEqual([200, "HIT"]);
      const missing = await fetch(`${origin}/category/never-rendered`, { headers: { Accept: "text/html" } });
      expect(missing.status).toBe(503);
      expect(missing.headers.get("retry-after")).toBe("5");
      expect(missing.headers.get("cache-control")).toBe("no-store");
      expect(await missing.text()).toContain("temporarily unavailable");
    } finally {
      databaseUp = true;
    }
  });

  test("a HEAD request never stores its empty body for the GETs that follow", async () => {
    const head = await fetch(`${origin}/category/world`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const get = await fetch(`${origin}/category/world`);
    expect(get.status).toBe(200);
    expect(await get.text()).toBe("<!doctype html><p>page /category/world</p>");
  });

  test("cached pages tell browsers to ask again each time and let only CDNs serve a stale copy", async () => {
    const page = await fetch(`${origin}/category/headers`);
    expect(page.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30");
    expect(page.headers.get("cache-control")).not.toContain("stale-while-revalidate");
    expect(page.headers.get("cdn-cache-control")).toBe("max-age=30, stale-while-revalidate=60");
  });

  test("with a purged CDN, pages are kept a day by shared caches; a stale copy's answer (a render under way) only 5 s (decision 0045)", async () => {
    sharedCache = purgedSharedCache(86_400);
    try {
      const page = await fetch(`${origin}/category/purged`);
      expect(page.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=86400");
      expect(page.headers.get("cdn-cache-control")).toBe("max-age=86400, stale-while-revalidate=60, stale-if-error=86400");
      expect(page.headers.get("surrogate-control")).toBe("max-age=86400, stale-while-revalidate=60, stale-if-error=86400");
      cache.markStale(["site"]);
      const stale = await fetch(`${origin}/category/purged`);
      expect(stale.headers.get("x-cache")).toBe("STALE");
      expect(stale.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=5");
      expect(stale.headers.get("cdn-cache-control")).toBe("max-age=5");
      expect(stale.headers.get("surrogate-control")).toBe("max-age=5");
      await expect.poll(async () => (await fetch(`${origin}/category/purged`)).headers.get("x-cache")).toBe("HIT");
      expect((await fetch(`${origin}/category/purged`)).headers.get("cache-control")).toBe("public, max-age=0, s-maxage=86400");
    } finally {
      sharedCache = SHORT_SHARED_CACHE;
    }
  });

  test("a public page that does not exist is kept by shared caches 30 s, tagged as the page it would be and with the redirects", async () => {
    sharedCache = purgedSharedCache(86_400);
    gone.add("/article/not-yet");
    try {
      const missing = await fetch(`${origin}/article/not-yet`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30");
      expect(missing.headers.get("surrogate-key")).toBe("site article:not-yet redirects");
      expect(missing.headers.get("cache-tag")).toBe("site,article:not-yet,redirects");
      // Signed in: nobody's shared copy.
      const personal = await fetch(`${origin}/article/not-yet`, { headers: { Cookie: "better-auth.session_token=abc" } });
      expect(personal.headers.get("cache-control")).toBe("private, no-store");
      expect(personal.headers.get("surrogate-key")).toBeNull();
    } finally {
      gone.delete("/article/not-yet");
      sharedCache = SHORT_SHARED_CACHE;
    }
  });

  test("a HEAD after a GET is answered from the stored page, without a body", async () => {
    expect(await (await fetch(`${origin}/about`)).text()).toContain("page /about");
    const head = await fetch(`${origin}/about`, { method: "HEAD", headers: { "Accept-Encoding": "identity" } });
    expect(head.headers.get("x-cache")).toBe("HIT");
    expect(await head.text()).toBe("");
  });

  test("the page-view beacon every browser sends keeps the cached pages", async () => {
    await fetch(`${origin}/category/kept`);
    expect((await fetch(`${origin}/category/kept`)).headers.get("x-cache")).toBe("HIT");
    const beacon = await fetch(`${origin}/api/views`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"path":"/"}' });
    expect(beacon.status).toBe(200);
    expect((await fetch(`${origin}/category/kept`)).headers.get("x-cache")).toBe("HIT");
  });

  test("a signed-in reader's page is kept by no shared cache", async () => {
    const page = await fetch(`${origin}/category/personal`, { headers: { Cookie: "theme=dark; better-auth.session_token=abc" } });
    expect(page.headers.get("x-cache")).toBeNull();
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(page.headers.get("vary")).toContain("Cookie");
    // The same address without the session is the public, cached page.
    expect((await fetch(`${origin}/category/personal`)).headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30");
  });

  test("a rendered answer (a signed-in reader's page) leaves compressed, as the reader's browser takes it", async () => {
    const raw = (acceptEncoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${origin}/category/long-compressed`, { headers: { Cookie: "better-auth.session_token=abc", "Accept-Encoding": acceptEncoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
    const page = `<!doctype html><p>page /category/long-compressed</p>${"<p>A long page.</p>".repeat(100)}`;
    const br = await raw("gzip, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(page);
    const gzip = await raw("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(page);
    const plain = await raw("identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(page);
  });

  test("an editorial write answers once this process has heard its change notices, which drop only what they name (decision 0028)", async () => {
    for (const path of ["/category/changed", "/category/untouched"]) await fetch(`${origin}${path}`);
    expect((await fetch(`${origin}/category/changed`)).headers.get("x-cache")).toBe("HIT");
    let answered = false;
    changesHeard = async () => {
      // The notice arrives after the write's own work is done, before its answer.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toBe(false);
      cache.clearTags(["category:changed"]);
      return true;
    };
    try {
      await fetch(`${origin}/admin/categories`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" });
      answered = true;
    } finally {
      changesHeard = undefined;
    }
    expect((await fetch(`${origin}/category/changed`)).headers.get("x-cache")).toBe("MISS");
    expect((await fetch(`${origin}/category/untouched`)).headers.get("x-cache")).toBe("HIT");
  });

  test("an editorial write whose notices were not heard (the change feed is down) clears every page at once", async () => {
    await fetch(`${origin}/category/changed-unheard`);
    expect((await fetch(`${origin}/category/changed-unheard`)).headers.get("x-cache")).toBe("HIT");
    await fetch(`${origin}/admin/categories`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" });
    expect((await fetch(`${origin}/category/changed-unheard`)).headers.get("x-cache")).toBe("MISS");
  });

  test("a stale page (a comment heard from another process, or past its time-to-live) is served at once while one render replaces it", async () => {
    await fetch(`${origin}/category/slower-changed`);
    expect((await fetch(`${origin}/category/slower-changed`)).headers.get("x-cache")).toBe("HIT");
    const before = renders.get("/category/slower-changed");
    versions.set("/category/slower-changed", 2);
    cache.markStale(["site"]);
    const stale = await Promise.all(Array.from({ length: 20 }, () => fetch(`${origin}/category/slower-changed`)));
    expect(stale.map((answer) => answer.headers.get("x-cache"))).toEqual(Array(20).fill("STALE"));
    for (const answer of stale) expect(await answer.text()).toBe("<!doctype html><p>page /category/slower-changed</p>");
    await vi.waitFor(async () => expect((await fetch(`${origin}/category/slower-changed`)).headers.get("x-cache")).toBe("HIT"), { timeout: 5000 });
    expect(await (await fetch(`${origin}/category/slower-changed`)).text()).toBe("<!doctype html><p>page /category/slower-changed v2</p>");
    // Twenty stale answers, one render.
    expect(renders.get("/category/slower-changed")).toBe(before! + 1);
  });

  test("a stale page that is gone when rendered again (unpublished: 404) is forgotten, not served again", async () => {
    await fetch(`${origin}/category/withdrawn`);
    gone.add("/category/withdrawn");
    cache.markStale(["site"]);
    expect((await fetch(`${origin}/category/withdrawn`)).headers.get("x-cache")).toBe("STALE");
    await vi.waitFor(async () => expect((await fetch(`${origin}/category/withdrawn`)).status).toBe(404), { timeout: 5000 });
  });
});

describe("every page load is counted where it arrives (issue 13)", () => {
  test("HTML and navigation data, rendered or from the cache, each once under the page's own address; not HEAD, prefetches, bots or writes", async () => {
    counted.length = 0;
    const chrome = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36" };
    await fetch(`${origin}/article/counted-load`, { headers: chrome });
    await fetch(`${origin}/article/counted-load`, { headers: chrome }); // a cache hit
    await fetch(`${origin}/article/counted-load.data?_routes=root%2Croutes%2Fsite%2Farticle`, { headers: chrome });
    await fetch(`${origin}/category/news?page=2`, { headers: chrome });
    await fetch(`${origin}/about?story`, { headers: chrome });
    await fetch(`${origin}/category/news.data?page=3&_routes=root&index`, { headers: chrome });
    await fetch(`${origin}/_root.data`, { headers: chrome });
    await fetch(`${origin}/article/counted-load`, { method: "HEAD", headers: chrome });
    await fetch(`${origin}/article/counted-load.data`, { headers: { ...chrome, "Sec-Purpose": "prefetch" } });
    await fetch(`${origin}/article/counted-load`, { headers: { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" } });
    await fetch(`${origin}/article/counted-load`, { method: "POST", headers: { ...chrome, "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" });
    await fetch(`${origin}/admin`, { headers: chrome });
    expect(counted).toEqual([
      "/article/counted-load",
      "/article/counted-load",
      "/article/counted-load",
      "/category/news?page=2",
      "/about?story",
      "/category/news?page=3",
      "/",
    ]);
  });
});

describe("one render at a time", () => {
  test("30 readers asking at once for a page not in the cache get it from one render", async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => fetch(`${origin}/category/slow-page`)));
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    expect(renders.get("/category/slow-page")).toBe(1);
    expect(answers.filter((a) => a.headers.get("x-cache") === "MISS")).toHaveLength(1);
    for (const answer of answers) expect(await answer.text()).toContain("page /category/slow-page");
  });
});

describe("validators", () => {
  test("a cached page has an ETag; a browser holding that version gets 304 without a body or a new policy, and the load still counts", async () => {
    counted.length = 0;
    const chrome = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36" };
    const first = await fetch(`${origin}/category/validated`, { headers: chrome });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    const again = await fetch(`${origin}/category/validated`, { headers: { ...chrome, "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("content-security-policy")).toBeNull();
    expect(again.headers.get("etag")).toBe(etag);
    // Another version (or none) gets the page, with its policy.
    const other = await fetch(`${origin}/category/validated`, { headers: { ...chrome, "If-None-Match": 'W/"something-else"' } });
    expect(other.status).toBe(200);
    expect(other.headers.get("content-security-policy")).toBe("script-src 'nonce-fresh'");
    expect(counted).toEqual(["/category/validated", "/category/validated", "/category/validated"]);
  });
});

describe("a comment clears its article's pages only (decision 0024)", () => {
  test("posting a comment re-renders only its article's page and data; every other page stays cached, and cached pages name their tags", async () => {
    for (const path of ["/article/commented", "/article/commented.data", "/article/other", "/category/news", "/"]) await fetch(`${origin}${path}`);
    const hit = await fetch(`${origin}/article/commented`);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    expect(hit.headers.get("cache-tag")).toBe("site,article:commented");
    expect(hit.headers.get("surrogate-key")).toBe("site article:commented");
    expect((await fetch(`${origin}/category/news`)).headers.get("cache-tag")).toBe("site,category:news");

    const rendersBefore = new Map(renders);
    versions.set("/article/commented", 2);
    versions.set("/article/commented.data", 2);
    const posted = await fetch(`${origin}/api/articles/commented/comments`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "content=hi" });
    expect(posted.status).toBe(200);
    expect(cache.lastCleared.sort()).toEqual(["/article/commented", "/article/commented.data"]);
    // Rendered again before the post was answered: the commenter's next look shows the comment.
    const after = await fetch(`${origin}/article/commented`);
    expect(after.headers.get("x-cache")).toBe("HIT");
    expect(await after.text()).toContain("page /article/commented v2");
    for (const path of ["/article/other", "/category/news", "/"]) expect((await fetch(`${origin}${path}`)).headers.get("x-cache"), path).toBe("HIT");
    // Exactly the article's two pages were rendered again; nothing else.
    const rendered = [...renders].filter(([path, n]) => n !== (rendersBefore.get(path) ?? 0)).map(([path]) => path);
    expect(rendered.sort()).toEqual(["/api/articles/commented/comments", "/article/commented", "/article/commented.data"]);

    // The same without JavaScript: the article page's own form.
    await fetch(`${origin}/article/other`);
    versions.set("/article/other", 3);
    await fetch(`${origin}/article/other`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "intent=comment" });
    expect(cache.lastCleared).toEqual(["/article/other"]);
    expect(await (await fetch(`${origin}/article/other`)).text()).toContain("page /article/other v3");
    expect((await fetch(`${origin}/category/news`)).headers.get("x-cache")).toBe("HIT");
  });
});

describe("which writes clear the page cache", () => {
  test("successful content writes do; reads, refused writes, counting, attachments and sign-in do not", () => {
    expect(mayChangePages("POST", "/admin/articles/new", 302)).toBe(true);
    expect(mayChangePages("DELETE", "/api/admin/media/3", 200)).toBe(true);
    expect(mayChangePages("POST", "/article/some-story", 200)).toBe(true);
    expect(mayChangePages("POST", "/article/some-story", 400)).toBe(false);
    expect(mayChangePages("GET", "/admin", 200)).toBe(false);
    expect(mayChangePages("POST", "/api/views", 200)).toBe(false);
    expect(mayChangePages("POST", "/API/Views", 200)).toBe(false);
    expect(mayChangePages("POST", "/api/uploads/comment", 200)).toBe(false);
    expect(mayChangePages("POST", "/api/auth/sign-in/email", 200)).toBe(false);
    expect(mayChangePages("POST", "/auth/sign-out", 200)).toBe(false);
  });
});

/** A POST sent in 64 KB chunks, chunked (no Content-Length) unless `declare` is set; resolves with the answer. */
function post(path: string, size: number, declare = false): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
    if (declare) headers["Content-Length"] = String(size);
    const req = http.request(`${origin}${path}`, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, text }));
    });
    // The server may answer and close before the whole body is written.
    req.on("error", (error) => (req.writableFinished ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const write = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n))) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

describe("request body limit", () => {
  test("a body within the limit reaches the route whole", async () => {
    expect(await post("/article/a", 1024 * 1024)).toEqual({ status: 200, text: `read ${1024 * 1024}` });
  });

  test("a declared Content-Length over the limit is refused with 413 before routing", async () => {
    const answer = await post("/article/a", MAX_BODY_BYTES + 1, true).catch(() => null);
    // Either the 413 arrived or the server closed the connection on the rest of the body; never a 200.
    if (answer) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toEqual({ error: "The request body is larger than the 4 MB limit." });
    }
  });

  test("a chunked body that grows past the limit is cut off with 413", async () => {
    const answer = await post("/api/views", MAX_BODY_BYTES + 256 * 1024).catch(() => null);
    if (answer) expect(answer.status).toBe(413);
  });

  test("the upload routes keep their own, larger limits", async () => {
    const size = MAX_BODY_BYTES + 1024 * 1024;
    expect(await post("/api/uploads/comment?kind=image", size)).toEqual({ status: 200, text: `read ${size}` });
    expect(await post("/api/admin/uploads/video", size)).toEqual({ status: 200, text: `read ${size}` });
  });
});

describe("page actions take forms", () => {
  const send = (path: string, contentType?: string) =>
    fetch(`${origin}${path}`, { method: "POST", headers: contentType ? { "Content-Type": contentType } : {}, body: "{}" });

  test("a JSON or bare body to a page is refused with 415 before it reaches the action", async () => {
    for (const type of ["application/json", "text/plain", undefined]) {
      const response = await send("/admin/login", type);
      expect(response.status, String(type)).toBe(415);
      expect((await response.json()).error).toContain("as a form");
    }
  });

  test("a POST without a body (a sign-out) reaches the action as an empty form", async () => {
    const response = await fetch(`${origin}/auth/sign-out`, { method: "POST" });
    expect(response.status).toBe(200);
  });

  test("forms reach the action, and API routes keep their own body types", async () => {
    expect((await send("/article/a", "application/x-www-form-urlencoded")).status).toBe(200);
    expect((await send("/article/a", "multipart/form-data; boundary=x")).status).toBe(200);
    expect((await send("/api/views", "application/json")).status).toBe(200);
  });
});

describe("a client that asks before sending (Expect: 100-continue)", () => {
  /** Sends only the headers of a POST that declares `length` bytes; resolves with 100 or the final status. */
  async function ask(path: string, length: number): Promise<{ status: number; body: string }> {
    const server = http.createServer((_req, res) => res.end("handled"));
    server.on("checkContinue", (req, res) => answerExpectContinue(req, res, () => server.emit("request", req, res)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      return await new Promise((resolve, reject) => {
        const req = http.request({
          host: "127.0.0.1",
          port: (server.address() as AddressInfo).port,
          path,
          method: "POST",
          headers: { Expect: "100-continue", "Content-Length": String(length), "Content-Type": "multipart/form-data; boundary=x" },
        });
        req.on("continue", () => {
          resolve({ status: 100, body: "" });
          req.destroy();
        });
        req.on("response", (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.flushHeaders();
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  test("an upload declared over its kind's limit is refused with 413 before its body is sent", async () => {
    expect(await ask("/api/admin/uploads/image", 11 * 1024 * 1024)).toEqual({ status: 413, body: '{"error":"Image is larger than the 10 MB limit."}' });
    expect(await ask("/api/uploads/comment?kind=video", 101 * 1024 * 1024)).toEqual({
      status: 413,
      body: '{"error":"Video is larger than the 100 MB limit."}',
    });
    expect((await ask("/admin/settings", MAX_BODY_BYTES + 1)).status).toBe(413);
  });

  test("a request target no URL parser accepts is passed on, not thrown (the listener runs outside Express)", async () => {
    expect((await ask("//[", 10)).status).toBe(100);
    expect((await ask("http://[", 10)).status).toBe(100);
  });

  test("within the limit (or for a kind the route will refuse itself) the client is told to go on", async () => {
    expect((await ask("/api/admin/uploads/image", 5 * 1024 * 1024)).status).toBe(100);
    expect((await ask("/api/uploads/comment?kind=video", 50 * 1024 * 1024)).status).toBe(100);
    expect((await ask("/api/uploads/comment?kind=other", 500 * 1024 * 1024)).status).toBe(100);
  });
});
