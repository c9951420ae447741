import { afterEach, describe, expect, test, vi } from "vitest";
import { PageCache, pickEncoding } from "./page-cache";

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
    expect(entry?.body.toString()).toContain("home");
    expect(entry?.headers).toEqual([["content-type", "text/html"]]);
    expect(cache.hits).toBe(1);
    expect(cache.misses).toBe(0);
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
    expect(zlib.gunzipSync(entry.gzip).equals(entry.body)).toBe(true);
    expect(zlib.brotliDecompressSync(entry.br).equals(entry.body)).toBe(true);
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
    expect(cache.get("/a")?.body.toString()).toContain("new");
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

  test("a page older than the time-to-live is refetched", () => {
    vi.useFakeTimers();
    const cache = new PageCache({ ttlMs: 1000 });
    cache.set("/a", 200, [], html("a"));
    vi.advanceTimersByTime(1001);
    expect(cache.get("/a")).toBeUndefined();
    expect(cache.size).toBe(0);
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

  test("a time further away than a timer can wait still clears on time", () => {
    vi.useFakeTimers();
    const cache = new PageCache({ ttlMs: Number.MAX_SAFE_INTEGER });
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
