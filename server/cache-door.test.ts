import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cacheDoor } from "./cache-door";
import { securityHeaderWriter } from "./middleware/security-headers";
import { PageCache } from "./page-cache";

const cache = new PageCache();
const counted: string[] = [];
let closing = false;
let origin = "";
let server: http.Server;
const chrome = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36" };
const RENDERED_NONCE = "RenderedNonce_01234567";
const page = (text: string) => Buffer.from(`<!doctype html><script nonce="${RENDERED_NONCE}">go()</script><p>${text}</p>`);

beforeAll(async () => {
  const door = cacheDoor({ cache, writeSecurityHeaders: securityHeaderWriter({ closing: () => closing }), onPageView: (path) => void counted.push(path) });
  // Whatever the door does not answer reaches the app (Express in server/index.ts): here a marker.
  server = http.createServer((req, res) => {
    if (!door(req, res)) res.writeHead(299).end("app");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cache.set("/article/kept", 200, [["content-type", "text/html; charset=utf-8"], ["cache-tag", "site,article:kept"]], page("kept"), RENDERED_NONCE, ["site", "article:kept"]);
  cache.set("/article/kept.data", 200, [["content-type", "text/x-script"]], Buffer.from("data of kept"), undefined, ["site", "article:kept"]);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the page cache's door", () => {
  test("answers an anonymous GET of a fresh page itself: the stored page with a new nonce, the one its policy names, and the security headers", async () => {
    const answer = await fetch(`${origin}/article/kept`, { headers: chrome });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-cache")).toBe("HIT");
    expect(answer.headers.get("cache-tag")).toBe("site,article:kept");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("etag")).toMatch(/^W\/"/);
    const nonce = /'nonce-([\w-]{22})'/.exec(answer.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeDefined();
    expect(nonce).not.toBe(RENDERED_NONCE);
    expect(await answer.text()).toBe(`<!doctype html><script nonce="${nonce}">go()</script><p>kept</p>`);
  });

  test("readers at once each get their own nonce in an intact page, plain and gzipped (a reused copy goes back only once sent)", async () => {
    // Larger than what loopback sockets take at once, so a copy given back before it was sent would
    // be overwritten under a reader who has not read it yet.
    const big = (nonce: string) => Buffer.from(`<!doctype html><script nonce="${nonce}">go()</script><p>${"long story ".repeat(900_000)}</p><script nonce="${nonce}">end()</script>`);
    cache.set("/article/big", 200, [["content-type", "text/html; charset=utf-8"]], big(RENDERED_NONCE), RENDERED_NONCE, ["site"]);
    let go!: () => void;
    const everyoneAsked = new Promise<void>((resolve) => (go = resolve));
    const read = (gzip: boolean) =>
      new Promise<{ nonce: string | undefined; text: string }>((resolve, reject) => {
        http
          .get(`${origin}/article/big`, { headers: gzip ? { "Accept-Encoding": "gzip" } : {} }, async (answer) => {
            answer.pause();
            // Nobody reads until every reader has asked: the server's writes wait on them.
            await everyoneAsked;
            const chunks: Buffer[] = [];
            for await (const chunk of answer) chunks.push(chunk as Buffer);
            const body = Buffer.concat(chunks);
            const nonce = /'nonce-([\w-]{22})'/.exec(String(answer.headers["content-security-policy"]))?.[1];
            resolve({ nonce, text: (gzip ? zlib.gunzipSync(body) : body).toString() });
          })
          .on("error", reject);
      });
    // One after another, each while those before are still unread.
    const reading: Promise<{ nonce: string | undefined; text: string }>[] = [];
    for (let i = 0; i < 8; i++) {
      reading.push(read(i % 4 === 3));
      await new Promise((resume) => setTimeout(resume, 20));
    }
    go();
    const answers = await Promise.all(reading);
    for (const { nonce, text } of answers) expect(text === big(nonce!).toString()).toBe(true);
    expect(new Set(answers.map((answer) => answer.nonce)).size).toBe(8);
    cache.forget("/article/big");
  });

  test("compresses as asked, answers 304 to the version a browser holds, and HEAD without a body", async () => {
    const gzipped = await new Promise<http.IncomingMessage>((resolve) => http.get(`${origin}/article/kept`, { headers: { "Accept-Encoding": "gzip" } }, resolve));
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    const chunks: Buffer[] = [];
    for await (const chunk of gzipped) chunks.push(chunk as Buffer);
    expect(zlib.gunzipSync(Buffer.concat(chunks)).toString()).toContain("<p>kept</p>");
    const etag = (await fetch(`${origin}/article/kept`)).headers.get("etag")!;
    const again = await fetch(`${origin}/article/kept`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-security-policy")).toBeNull();
    const head = await fetch(`${origin}/article/kept`, { method: "HEAD" });
    expect([head.status, head.headers.get("x-cache"), await head.text()]).toEqual([200, "HIT", ""]);
  });

  test("counts a reader's load (HTML, data, a 304) where it arrives; not a bot's, a prefetch or a HEAD", async () => {
    counted.length = 0;
    await fetch(`${origin}/article/kept`, { headers: chrome });
    await fetch(`${origin}/article/kept.data`, { headers: chrome });
    await fetch(`${origin}/article/kept`, { headers: { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" } });
    await fetch(`${origin}/article/kept`, { headers: { ...chrome, "Sec-Purpose": "prefetch" } });
    await fetch(`${origin}/article/kept`, { method: "HEAD", headers: chrome });
    expect(counted).toEqual(["/article/kept", "/article/kept"]);
  });

  test("leaves to the app: a signed-in reader, a write, a page it does not hold, and a stale page (rendered again there)", async () => {
    expect((await fetch(`${origin}/article/kept`, { headers: { Cookie: "better-auth.session_token=x" } })).status).toBe(299);
    expect((await fetch(`${origin}/article/kept`, { method: "POST", body: "a=1" })).status).toBe(299);
    expect((await fetch(`${origin}/article/other`)).status).toBe(299);
    cache.set("/article/changed", 200, [], page("old"), RENDERED_NONCE, ["site", "article:changed"]);
    expect((await fetch(`${origin}/article/changed`)).status).toBe(200);
    cache.markStale(["article:changed"]);
    expect((await fetch(`${origin}/article/changed`)).status).toBe(299);
  });

  test("while the process shuts down, its answers say Connection: close", async () => {
    closing = true;
    try {
      const answer = await new Promise<http.IncomingMessage>((resolve) => http.get(`${origin}/article/kept`, resolve));
      answer.resume();
      expect(answer.headers.connection).toBe("close");
    } finally {
      closing = false;
    }
  });
});
