import { afterEach, describe, expect, test, vi } from "vitest";
import { AUDIENCE_NOTICE } from "../app/domain/audience/audience-recorder.server";
import type { ChangeEvent } from "../app/lib/change-feed.server";
import { purgeTagsOf } from "./cdn/purger";
import { cacheChangeOf, cachedBody, PageCache, pageTagsOf, pickEncoding } from "./page-cache";

const html = (text: string) => Buffer.from(`<!doctype html><p>${text}</p>`);

describe("PageCache", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test("a stored page is returned on the next get and counted as a hit", () => {
    const cache = new PageCache();
    cache.set("/", 200, [["content-type", "text/html"]], html("home"));
    const entry = cache.get("/");
    expect(entry?.status).toBe(200);
    expect(entry?.plain?.body.toString()).toContain("home");
    expect(entry?.headers).toEqual([["content-type", "text/html"]]);
    expect(cache.hits).toBe(1);
    expect(cache.misses).toBe(0);
  });

  test("clearing by tag removes the pages carrying it and answers their keys; the site tag clears everything", () => {
    const cache = new PageCache();
    cache.set("/article/a", 200, [], html("a"), undefined, ["site", "article:a"]);
    cache.set("/article/a.data", 200, [], html("a data"), undefined, ["site", "article:a"]);
    cache.set("/article/b", 200, [], html("b"), undefined, ["site", "article:b"]);
    cache.set("/", 200, [], html("home"));
    expect(cache.clearTags(["article:a"]).sort()).toEqual(["/article/a", "/article/a.data"]);
    expect(cache.size).toBe(2);
    expect(cache.clearTags(["article:nothing"])).toEqual([]);
    expect(cache.clearTags(["site"]).sort()).toEqual(["/", "/article/b"]);
    expect(cache.size).toBe(0);
  });

  test("marking by tag keeps the pages (still served until replaced) and answers their keys; the site tag marks every page", () => {
    const cache = new PageCache();
    cache.set("/article/a", 200, [], html("a"), undefined, ["site", "article:a"]);
    cache.set("/article/a.data", 200, [], html("a data"), undefined, ["site", "article:a"]);
    cache.set("/article/b", 200, [], html("b"), undefined, ["site", "article:b"]);
    cache.set("/", 200, [], html("home"));
    const staleKeys = () => ["/", "/article/a", "/article/a.data", "/article/b"].filter((key) => cache.get(key)!.stale);
    expect(cache.markStale(["article:a"]).sort()).toEqual(["/article/a", "/article/a.data"]);
    expect(staleKeys()).toEqual(["/article/a", "/article/a.data"]);
    expect(cache.get("/article/a")!.plain!.body.toString()).toContain("<p>a</p>");
    expect(cache.markStale(["article:nothing"])).toEqual([]);
    expect(cache.markStale(["site"]).sort()).toEqual(["/", "/article/a", "/article/a.data", "/article/b"]);
    expect(staleKeys()).toHaveLength(4);
    // A render stores the page again: fresh.
    cache.set("/article/a", 200, [], html("a again"), undefined, ["site", "article:a"]);
    expect(cache.get("/article/a")!.stale).toBe(false);
    cache.forget("/article/b");
    expect(cache.get("/article/b")).toBeUndefined();
  });

  test("a change to a public story drops the pages showing it and the lists it is on, and marks its category's \"More from\" pages stale; nothing else (decision 0028)", () => {
    const cache = new PageCache();
    const A = "0b8c4c1e-0000-4000-8000-00000000000a";
    const B = "0b8c4c1e-0000-4000-8000-00000000000b";
    const C = "0b8c4c1e-0000-4000-8000-00000000000c";
    const store = (key: string, pattern: string, params: Record<string, string>, shown: string[]) =>
      cache.set(key, 200, [], html(key), undefined, pageTagsOf({ pattern, params }, shown));
    // Story A (politics, by Ada) is on home and page 1 of politics; B's page shows A as a related story.
    store("/", "/", {}, [`story:${A}`, `story:${B}`]);
    store("/category/politics", "category/:slug", { slug: "politics" }, [`story:${A}`]);
    store("/category/politics?page=7", "category/:slug", { slug: "politics" }, []);
    store("/category/sport", "category/:slug", { slug: "sport" }, [`story:${B}`]);
    store("/author/ada", "author/:slug", { slug: "ada" }, [`story:${A}`]);
    store("/author/bo", "author/:slug", { slug: "bo" }, [`story:${B}`]);
    store("/article/a", "article/:slug", { slug: "a" }, [`story:${A}`, "more-from:politics"]);
    store("/article/b", "article/:slug", { slug: "b" }, [`story:${B}`, `story:${A}`, "more-from:sport"]);
    store("/article/c", "article/:slug", { slug: "c" }, [`story:${C}`, "more-from:politics"]);
    store("/article/d", "article/:slug", { slug: "d" }, ["more-from:sport"]);
    store("/rss.xml", "rss.xml", {}, []);
    store("/sitemaps/2026-11.xml", "sitemaps/:file", { file: "2026-11.xml" }, []);
    store("/about", "about", {}, []);
    expect(cache.get("/article/b")!.tags).toEqual(["site", "article:b", `story:${B}`, `story:${A}`, "more-from:sport"]);

    const change = cacheChangeOf({ table: "articles", op: "UPDATE", public: { ids: [A], slugs: ["a"], categories: ["politics"], authors: ["ada"] } });
    expect(cache.clearTags(change.drop).sort()).toEqual([
      "/",
      "/article/a",
      "/article/b",
      "/author/ada",
      "/category/politics",
      "/category/politics?page=7",
      "/rss.xml",
      "/sitemaps/2026-11.xml",
    ]);
    expect(cache.markStale(change.stale)).toEqual(["/article/c"]);
    expect(["/about", "/article/d", "/author/bo", "/category/sport"].map((key) => cache.get(key)?.stale)).toEqual([false, false, false, false]);
  });

  test("what each change notice does to the cache", () => {
    expect(cacheChangeOf({ table: "comments", op: "INSERT", articles: ["a"] })).toEqual({ drop: [], stale: ["article:a"] });
    // A live update: its story's pages served while rendered again, the sitemaps' latest time dropped (issue 31).
    expect(cacheChangeOf({ table: "live_updates", op: "INSERT", live: [{ id: "0b8c4c1e-0000-4000-8000-00000000000a", slug: "a", version: 7 }] })).toEqual({ drop: ["sitemaps"], stale: ["article:a"] });
    // A tier saved, archived or moved (issue 40): /subscribe only.
    expect(cacheChangeOf({ table: "member_tiers", op: "UPDATE" })).toEqual({ drop: ["tiers"], stale: [] });
    // Drafts and scheduled stories alone: nothing.
    expect(cacheChangeOf({ table: "articles", op: "UPDATE", public: { ids: [], slugs: [], categories: [], authors: [] } })).toEqual({ drop: [], stale: [] });
    // Too many stories to name, categories, settings, a lost connection: every page.
    for (const event of [{ table: "articles", op: "UPDATE" }, { table: "categories", op: "UPDATE" }, { table: "website_settings", op: "UPDATE" }, { table: "*", op: "RECONNECT" }]) {
      expect(cacheChangeOf(event)).toEqual({ drop: ["site"], stale: [] });
    }
  });

  test("the audience's notice of counted loads (issue 42) drops and stales no page, here or at a CDN", () => {
    const cache = new PageCache();
    cache.set("/", 200, [], Buffer.from("home"), undefined, pageTagsOf({ pattern: "/", params: {} }));
    cache.set("/article/a", 200, [], Buffer.from("a"), undefined, pageTagsOf({ pattern: "article/:slug", params: { slug: "a" } }));
    const notice = JSON.parse(AUDIENCE_NOTICE) as ChangeEvent;
    expect(notice.table).toBe("audience_events");
    const change = cacheChangeOf(notice);
    expect(change).toEqual({ drop: [], stale: [] });
    expect(purgeTagsOf(notice)).toEqual([]);
    expect(cache.clearTags(change.drop)).toEqual([]);
    expect(cache.get("/")?.stale).toBeFalsy();
    expect(cache.get("/article/a")?.stale).toBeFalsy();
  });

  test("a tag's pages and feed are dropped by a change naming the tag; a tag rename, merge or delete drops every page (issue 29)", () => {
    const cache = new PageCache();
    for (const [key, pattern, slug] of [
      ["/tag/floods", "tag/:slug", "floods"],
      ["/tag/floods?page=2", "tag/:slug", "floods"],
      ["/tag/floods/rss.xml", "tag/:slug/rss.xml", "floods"],
      ["/tag/other", "tag/:slug", "other"],
    ] as const) {
      cache.set(key, 200, [], Buffer.from(key), undefined, pageTagsOf({ pattern, params: { slug } }));
    }
    const change = cacheChangeOf({ table: "article_tags", op: "INSERT", public: { ids: ["x"], slugs: ["x"], categories: [], authors: [], tags: ["floods"] } });
    expect(change.drop).toContain("tag:floods");
    expect(cache.clearTags(change.drop).sort()).toEqual(["/tag/floods", "/tag/floods/rss.xml", "/tag/floods?page=2"]);
    expect(cacheChangeOf({ table: "tags", op: "UPDATE" })).toEqual({ drop: ["site"], stale: [] });
  });

  test("a page showing more stories than it can name is dropped by any story's change", () => {
    const many = Array.from({ length: 101 }, (_, i) => `story:${i}`);
    expect(pageTagsOf({ pattern: "/", params: {} }, many)).toEqual(["site", "home", "stories"]);
    expect(cacheChangeOf({ table: "articles", op: "INSERT", public: { ids: ["x"], slugs: ["x"], categories: [], authors: [] } }).drop).toContain("stories");
  });

  test("a page's validator leaves its nonce out: the same page rendered again with another nonce keeps it; other content does not", () => {
    const cache = new PageCache();
    const page = (nonce: string, text: string) => Buffer.from(`<script nonce="${nonce}">x</script><p>${text}</p>`);
    cache.set("/a", 200, [], page("FirstNonce_0123456789a", "same"), "FirstNonce_0123456789a");
    const first = cache.get("/a")!.etag;
    cache.set("/a", 200, [], page("OtherNonce_0123456789a", "same"), "OtherNonce_0123456789a");
    expect(cache.get("/a")!.etag).toBe(first);
    cache.set("/a", 200, [], page("ThirdNonce_0123456789a", "changed"), "ThirdNonce_0123456789a");
    expect(cache.get("/a")!.etag).not.toBe(first);
  });

  test("a page never stored is a miss", () => {
    const cache = new PageCache();
    expect(cache.get("/nothing")).toBeUndefined();
    expect(cache.misses).toBe(1);
  });

  test("stored bodies come with gzip and brotli versions that decode to the same bytes", async () => {
    const zlib = await import("node:zlib");
    const cache = new PageCache();
    cache.set("/a", 200, [], html("compressed"));
    const entry = cache.get("/a")!;
    expect(zlib.gunzipSync(entry.plain!.gzip).equals(entry.plain!.body)).toBe(true);
    expect(zlib.brotliDecompressSync(entry.plain!.br).equals(entry.plain!.body)).toBe(true);
  });

  test("a page rendered with a script nonce is sent with the nonce of each answer, plain or gzipped, never brotli", async () => {
    const zlib = await import("node:zlib");
    const rendered = "Nonce0Nonce0Nonce0Nonc";
    // Repeated text around the nonce, so deflate would copy it from earlier if it could.
    const page = (nonce: string) =>
      Buffer.from(`<!doctype html>${`<script nonce="${nonce}">window.x = 1</script><p>${"news ".repeat(40)}</p>`.repeat(30)}<script nonce="${nonce}">`);
    const cache = new PageCache();
    cache.set("/n", 200, [], page(rendered), rendered);
    const entry = cache.get("/n")!;
    expect(entry.nonced?.nonces).toBe(31);
    const first = "FirstReader_0123456789";
    const second = "SecondReader_012345678";
    const plain = cachedBody(entry, null, first);
    expect([plain.body, plain.encoding]).toEqual([page(first), null]);
    for (const accepted of ["gzip", "br"] as const) {
      const sent = cachedBody(entry, accepted, second);
      expect(sent.encoding).toBe("gzip");
      expect(zlib.gunzipSync(sent.body).toString()).toBe(page(second).toString());
    }
    // Compressed about as well as the whole page at once (each piece sees what came before): the cost is
    // the nonce itself, uncompressed, and a few bytes of framing at each place (compressed on their own,
    // the 31 pieces would take about 4 KB).
    expect(cachedBody(entry, "gzip", first).body.length).toBeLessThan(zlib.gzipSync(page(first)).length + 31 * 40);
  });

  test("a page holding the byte that stands for a nonce still decodes right", async () => {
    const zlib = await import("node:zlib");
    const rendered = "Nonce0Nonce0Nonce0Nonc";
    const body = Buffer.from(`<script nonce="${rendered}"></script>\0\0\0\0${"\0".repeat(30)}<script nonce="${rendered}">`);
    const cache = new PageCache();
    cache.set("/z", 200, [], body, rendered);
    const fresh = "FreshNonce_0123456789a";
    expect(zlib.gunzipSync(cachedBody(cache.get("/z")!, "gzip", fresh).body).toString()).toBe(body.toString().replaceAll(rendered, fresh));
  });

  test("when full, the least recently used page is evicted first", () => {
    const cache = new PageCache({ maxEntries: 2 });
    cache.set("/a", 200, [], html("a"));
    cache.set("/b", 200, [], html("b"));
    cache.get("/a"); // /a is now more recent than /b
    cache.set("/c", 200, [], html("c"));
    expect(cache.size).toBe(2);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBeDefined();
    expect(cache.get("/c")).toBeDefined();
  });

  test("storing a key again replaces its page without growing the cache", () => {
    const cache = new PageCache({ maxEntries: 2 });
    cache.set("/a", 200, [], html("old"));
    cache.set("/a", 200, [], html("new"));
    expect(cache.size).toBe(1);
    expect(cache.get("/a")?.plain?.body.toString()).toContain("new");
  });

  test("the byte budget evicts old pages too", () => {
    const big = Buffer.alloc(1000, 1); // compresses to almost nothing; size counts body + encodings
    const cache = new PageCache({ maxBytes: 4 * 1200 });
    cache.set("/1", 200, [], big);
    cache.set("/2", 200, [], big);
    cache.set("/3", 200, [], big);
    cache.set("/4", 200, [], big);
    cache.set("/5", 200, [], big);
    expect(cache.size).toBeLessThan(5);
    expect(cache.get("/1")).toBeUndefined();
    expect(cache.get("/5")).toBeDefined();
  });

  test("clear empties the cache", () => {
    const cache = new PageCache();
    cache.set("/a", 200, [], html("a"));
    cache.set("/b", 200, [], html("b"));
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.get("/a")).toBeUndefined();
    expect(cache.get("/b")).toBeUndefined();
  });

  test("a page older than the time-to-live is stale (served while rendered again); past the stale limit it is gone", () => {
    vi.useFakeTimers();
    const cache = new PageCache({ ttlMs: 1000, maxStaleMs: 5000 });
    cache.set("/a", 200, [], html("a"));
    expect(cache.get("/a")!.stale).toBe(false);
    vi.advanceTimersByTime(1001);
    expect(cache.get("/a")!.stale).toBe(true);
    vi.advanceTimersByTime(4000);
    expect(cache.get("/a")).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

describe("story pins' notices (decision 0034)", () => {
  test("a home-page pin drops the home page, a category pin its category's pages, nothing else", () => {
    expect(cacheChangeOf({ table: "story_pins", op: "INSERT", pins: { home: true, categories: [] } })).toEqual({ drop: ["home"], stale: [] });
    expect(cacheChangeOf({ table: "story_pins", op: "UPDATE", pins: { home: false, categories: ["sport"] } })).toEqual({ drop: ["category:sport"], stale: [] });
    expect(cacheChangeOf({ table: "story_pins", op: "DELETE", pins: { home: true, categories: ["news"] } })).toEqual({ drop: ["home", "category:news"], stale: [] });
    // A notice that names nothing (an older trigger): every page.
    expect(cacheChangeOf({ table: "story_pins", op: "DELETE" })).toEqual({ drop: ["site"], stale: [] });
    // The home page's own settings (the welcome banner's switch, Explore Topics): the home page alone.
    expect(cacheChangeOf({ table: "website_settings", op: "UPDATE", homeOnly: true })).toEqual({ drop: ["home"], stale: [] });
    expect(cacheChangeOf({ table: "website_settings", op: "UPDATE", homeOnly: false })).toEqual({ drop: ["site"], stale: [] });
  });

  test("in the cache: the home page goes, an article page and another category's stay", () => {
    const cache = new PageCache();
    cache.set("/", 200, [], Buffer.from("home"), undefined, pageTagsOf({ pattern: "/", params: {} }));
    cache.set("/article/a", 200, [], Buffer.from("a"), undefined, pageTagsOf({ pattern: "article/:slug", params: { slug: "a" } }));
    cache.set("/category/news", 200, [], Buffer.from("news"), undefined, pageTagsOf({ pattern: "category/:slug", params: { slug: "news" } }));
    cache.clearTags(cacheChangeOf({ table: "story_pins", op: "INSERT", pins: { home: true, categories: [] } }).drop);
    expect(cache.get("/")).toBeUndefined();
    expect(cache.get("/article/a")).toBeDefined();
    expect(cache.get("/category/news")).toBeDefined();
  });
});

describe("PageCache.clearAt", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test("clears the pages at the time given (a banner's expiry), the earliest time winning", () => {
    vi.useFakeTimers();
    const cache = new PageCache();
    cache.set("/a", 200, [], Buffer.from("a"));
    cache.clearAt(new Date(Date.now() + 60_000));
    cache.clearAt(new Date(Date.now() + 30_000));
    cache.clearAt(new Date(Date.now() + 90_000));
    vi.advanceTimersByTime(29_999);
    expect(cache.size).toBe(1);
    vi.advanceTimersByTime(1);
    expect(cache.size).toBe(0);
  });

  test("a pin's end drops only its pages, and a later time (a banner's) still comes after an earlier one", () => {
    vi.useFakeTimers();
    const cache = new PageCache();
    cache.set("/", 200, [], Buffer.from("home"), undefined, ["site", "home"]);
    cache.set("/article/a", 200, [], Buffer.from("a"), undefined, ["site", "article:a"]);
    cache.clearAt(new Date(Date.now() + 90_000));
    cache.clearAt(new Date(Date.now() + 30_000), ["home"]);
    cache.clearAt(new Date(Date.now() + 30_000), ["home"]);
    vi.advanceTimersByTime(30_000);
    expect(cache.get("/")).toBeUndefined();
    expect(cache.get("/article/a")).toBeDefined();
    cache.set("/", 200, [], Buffer.from("home again"), undefined, ["site", "home"]);
    vi.advanceTimersByTime(60_000);
    expect(cache.size).toBe(0);
  });

  test("a time further away than a timer can wait still clears on time", () => {
    vi.useFakeTimers();
    const cache = new PageCache({ ttlMs: Number.MAX_SAFE_INTEGER, maxStaleMs: Number.MAX_SAFE_INTEGER });
    const in40Days = 40 * 24 * 3600_000;
    cache.clearAt(new Date(Date.now() + in40Days));
    cache.set("/a", 200, [], Buffer.from("a"));
    vi.advanceTimersByTime(in40Days - 1000);
    expect(cache.size).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(cache.size).toBe(0);
  });
});

describe("pickEncoding", () => {
  test("brotli is preferred, then gzip, else none", () => {
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip, deflate")).toBe("gzip");
    expect(pickEncoding("identity")).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});
