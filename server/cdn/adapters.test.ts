import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { LONG_SHARED_SECONDS, URL_PURGED_SHARED_SECONDS } from "../../app/lib/cache-control";
import { cdnSettingsOf, loadEnv, type CdnSettings } from "../../app/lib/env.server";
import { createPurgeAdapter, PurgeRefused, urlsOfTags } from "./adapters";
import { cdnStateOf } from "./index";
import { startRecordingServer } from "./recording-server";

// The purge adapters (decision 0045) against a real local HTTP server standing for each CDN's API.

const api = await startRecordingServer();
afterAll(() => api.close());
beforeEach(() => {
  api.requests.length = 0;
});

const PUBLIC_URL = "https://news.example.com";
const TOKEN = "secret-token-do-not-log";
const settings = (env: Record<string, string>): CdnSettings => {
  const found = cdnSettingsOf(loadEnv(env));
  if (!found || "off" in found) throw new Error(`not configured: ${JSON.stringify(found)}`);
  return found.settings;
};
const tagsOf = (n: number) => Array.from({ length: n }, (_, i) => `story:${i}`);

describe("Fastly", () => {
  const fastly = () => createPurgeAdapter(settings({ CDN: "fastly", FASTLY_API_TOKEN: TOKEN, FASTLY_SERVICE_ID: "SU1Z0isxPaozGVKXdv0eY", FASTLY_API_URL: api.url }), PUBLIC_URL);

  test("POSTs /service/{id}/purge with the keys in Surrogate-Key and the token in Fastly-Key, 256 keys a request", async () => {
    await fastly().purge({ tags: ["article:bridge", "home", ...tagsOf(298)] });
    expect(api.requests.map((r) => [r.method, r.path])).toEqual([
      ["POST", "/service/SU1Z0isxPaozGVKXdv0eY/purge"],
      ["POST", "/service/SU1Z0isxPaozGVKXdv0eY/purge"],
    ]);
    expect(api.requests[0]!.headers["fastly-key"]).toBe(TOKEN);
    const keys = api.requests.map((r) => String(r.headers["surrogate-key"]).split(" "));
    expect(keys[0]).toHaveLength(256);
    expect(keys[1]).toHaveLength(44);
    expect(keys[0]!.slice(0, 2)).toEqual(["article:bridge", "home"]);
    expect(new Set(keys.flat()).size).toBe(300);
  });

  test("a 5xx is a PurgeRefused naming the adapter and status, never the token", async () => {
    api.answer({ status: 503, body: `{"msg":"unavailable ${TOKEN}"}` });
    const error = await fastly()
      .purge({ tags: ["home"] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PurgeRefused);
    expect(error).toMatchObject({ adapter: "fastly", cdnStatus: 503 });
    expect(String((error as Error).message)).not.toContain(TOKEN);
  });
});

describe("Cloudflare", () => {
  const cloudflare = (by?: "tags" | "urls") =>
    createPurgeAdapter(
      settings({ CDN: "cloudflare", CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_ZONE_ID: "023e105f4ecef8ad9ca31a8372d0c353", CLOUDFLARE_API_URL: api.url, ...(by ? { CLOUDFLARE_PURGE_BY: by } : {}) }),
      PUBLIC_URL,
    );

  test("by tags (Enterprise): {tags} in batches of 30, bearer token", async () => {
    await cloudflare("tags").purge({ tags: tagsOf(31) });
    expect(api.requests).toHaveLength(2);
    expect(api.requests[0]).toMatchObject({ method: "POST", path: "/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/purge_cache" });
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(api.requests[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(api.requests[0]!.body)).toEqual({ tags: tagsOf(30) });
    expect(JSON.parse(api.requests[1]!.body)).toEqual({ tags: ["story:30"] });
  });

  test("by URLs (the default): the story, home, its category, tags and authors, their feeds and data URLs, the sitemaps; 30 a call", async () => {
    const renamed = ["article:bridge-1", "article:bridge-2", "article:bridge-3", "article:bridge-4"];
    const tags = ["story:7", "article:bridge-reopens", ...renamed, "home", "category:news", "author:ada", "tag:roads", "feeds", "sitemaps", "stories", "more-from:news"];
    await cloudflare().purge({ tags });
    const batches = api.requests.map((r) => (JSON.parse(r.body) as { files: string[] }).files);
    const files = batches.flat();
    // 32 addresses: 30, then 2.
    expect(batches.map((batch) => batch.length)).toEqual([30, 2]);
    expect(files).toEqual(urlsOfTags(tags, PUBLIC_URL));
    expect(files).toEqual(
      expect.arrayContaining([
        "https://news.example.com/article/bridge-reopens",
        "https://news.example.com/article/bridge-reopens.data",
        "https://news.example.com/article/bridge-reopens/rss.xml",
        "https://news.example.com/",
        "https://news.example.com/_root.data",
        "https://news.example.com/category/news",
        "https://news.example.com/category/news/rss.xml",
        "https://news.example.com/author/ada",
        "https://news.example.com/author/ada/rss.xml",
        "https://news.example.com/tag/roads",
        "https://news.example.com/tag/roads/rss.xml",
        "https://news.example.com/rss.xml",
        "https://news.example.com/sitemap.xml",
        "https://news.example.com/news-sitemap.xml",
      ]),
    );
  });

  test("a notice naming no stories (every page) purges everything; so do redirects, which no address names", async () => {
    await cloudflare().purge({ tags: ["site"] });
    await cloudflare().purge({ tags: ["redirects"] });
    expect(api.requests.map((r) => JSON.parse(r.body) as unknown)).toEqual([{ purge_everything: true }, { purge_everything: true }]);
  });

  test('a 200 without "success": true is a refusal', async () => {
    api.answer({ status: 200, body: JSON.stringify({ success: false, errors: [{ code: 1134, message: "rate limited" }] }) });
    await expect(cloudflare().purge({ tags: ["home"] })).rejects.toMatchObject({ adapter: "cloudflare", cdnStatus: 200 });
  });
});

describe("Varnish and webhook", () => {
  test("Varnish: PURGE with xkey-purge to every VARNISH_URL; long key lists split under 4000 characters", async () => {
    const second = await startRecordingServer();
    try {
      const varnish = createPurgeAdapter(settings({ CDN: "varnish", VARNISH_URL: `${api.url}, ${second.url}/` }), PUBLIC_URL);
      const many = Array.from({ length: 200 }, (_, i) => `story:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0-${i}`);
      await varnish.purge({ tags: ["article:bridge", "home", ...many] });
      for (const server of [api, second]) {
        expect(server.requests.every((r) => r.method === "PURGE")).toBe(true);
        const keys = server.requests.map((r) => String(r.headers["xkey-purge"]));
        expect(keys.length).toBeGreaterThan(1);
        expect(keys.every((line) => line.length <= 4000)).toBe(true);
        expect(keys.join(" ").split(" ")).toEqual(["article:bridge", "home", ...many]);
      }
    } finally {
      await second.close();
    }
  });

  test("webhook: POST of JSON {tags, urls} with the bearer secret", async () => {
    const webhook = createPurgeAdapter(settings({ CDN: "webhook", CDN_WEBHOOK_URL: `${api.url}/purge`, CDN_WEBHOOK_SECRET: TOKEN }), PUBLIC_URL);
    await webhook.purge({ tags: ["article:bridge", "feeds"] });
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({ method: "POST", path: "/purge" });
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(api.requests[0]!.body)).toEqual({
      tags: ["article:bridge", "feeds"],
      urls: [
        "https://news.example.com/article/bridge",
        "https://news.example.com/article/bridge.data",
        "https://news.example.com/article/bridge/rss.xml",
        "https://news.example.com/rss.xml",
      ],
    });
  });
});

describe("at start (cdnStateOf)", () => {
  const env = (extra: Record<string, string>) => loadEnv({ PUBLIC_URL, ...extra });

  test("no CDN: off, nothing to say; a malformed setting: off, naming the variable but not its value", async () => {
    expect(await cdnStateOf(env({}), fetch)).toEqual({ on: false, reason: null });
    expect(await cdnStateOf(env({ CDN: "fastly", FASTLY_SERVICE_ID: "abc" }), fetch)).toEqual({ on: false, reason: "FASTLY_API_TOKEN is required" });
    expect(await cdnStateOf(env({ CDN: "akamai" }), fetch)).toEqual({ on: false, reason: "CDN must be fastly, cloudflare, varnish or webhook" });
    const bad = await cdnStateOf(env({ CDN: "webhook", CDN_WEBHOOK_URL: `not a url ${TOKEN}` }), fetch);
    expect(bad).toEqual({ on: false, reason: "CDN_WEBHOOK_URL must be a URL starting with http:// or https://" });
    expect(api.requests).toHaveLength(0);
  });

  test("credentials the CDN refuses: off, with one reason naming the CDN and the status", async () => {
    api.answer({ status: 401, body: JSON.stringify({ msg: "Provided credentials are missing or invalid" }) });
    const state = await cdnStateOf(env({ CDN: "fastly", FASTLY_API_TOKEN: TOKEN, FASTLY_SERVICE_ID: "svc1", FASTLY_API_URL: api.url }), fetch);
    expect(state).toEqual({ on: false, reason: "fastly refused the credentials (HTTP 401)" });
    expect(api.requests[0]).toMatchObject({ method: "GET", path: "/tokens/self" });
    expect(api.requests[0]!.headers["fastly-key"]).toBe(TOKEN);

    // A valid token that cannot purge this service.
    api.answer({ status: 200, body: JSON.stringify({ scopes: "global:read", services: [] }) }, { status: 200, body: JSON.stringify({ scopes: "purge_select", services: ["other"] }) });
    const fastlyEnv = env({ CDN: "fastly", FASTLY_API_TOKEN: `${TOKEN}-2`, FASTLY_SERVICE_ID: "svc1", FASTLY_API_URL: api.url });
    expect(await cdnStateOf(fastlyEnv, fetch)).toEqual({ on: false, reason: "fastly refused the credentials (HTTP 403: the token has no purge scope)" });
    expect(await cdnStateOf(env({ CDN: "fastly", FASTLY_API_TOKEN: `${TOKEN}-3`, FASTLY_SERVICE_ID: "svc1", FASTLY_API_URL: api.url }), fetch)).toEqual({
      on: false,
      reason: "fastly refused the credentials (HTTP 403: the token is not for FASTLY_SERVICE_ID)",
    });
  });

  test("a CDN that cannot be reached: off while waiting for it (asked again: server/cdn/check.ts); accepted credentials: on, a day in shared caches (10 min purging by URL)", async () => {
    const unreachable = await cdnStateOf(env({ CDN: "varnish", VARNISH_URL: "http://127.0.0.1:1" }), fetch);
    expect(unreachable).toMatchObject({ on: false, waiting: true, reason: expect.stringMatching(/^varnish purge refused: could not reach 127\.0\.0\.1:1/) });
    const fastly = await cdnStateOf(env({ CDN: "fastly", FASTLY_API_TOKEN: TOKEN, FASTLY_SERVICE_ID: "svc1", FASTLY_API_URL: api.url }), fetch);
    expect(fastly).toMatchObject({ on: true, sharedCache: { "Cache-Control": `public, max-age=0, s-maxage=${LONG_SHARED_SECONDS}` } });
    const byUrl = await cdnStateOf(env({ CDN: "cloudflare", CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_ZONE_ID: "zone1", CLOUDFLARE_API_URL: api.url }), fetch);
    expect(byUrl).toMatchObject({ on: true, sharedCache: { "Cache-Control": `public, max-age=0, s-maxage=${URL_PURGED_SHARED_SECONDS}` } });
    expect(api.requests.at(-1)).toMatchObject({ method: "GET", path: "/client/v4/user/tokens/verify" });
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
