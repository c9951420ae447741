import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { Histogram, Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../app/lib/logger.server";
import { aggregateText } from "./cluster";
import { loadEnv } from "../../app/lib/env.server";
import { bearerMatches, metricsDoor, setUpMetrics } from "./endpoint";
import { cdnPurgeFailures, cdnPurges, dbQueryDuration, httpRequestDuration, observeCdnPurge, observeSchedulerRun, pageCacheRequests, registry, schedulerPublished, schedulerRuns, turnMetricsOn } from "./registry";
import { requestObserver, type AccessLogLine } from "./requests";
import { timeQueries } from "./sources";
import { FixedHistogram } from "./request-histogram";

beforeAll(() => turnMetricsOn("single"));

/** A series' value in an exposition text (Prometheus's format): the line of `name` with exactly these labels, in any order. */
function valueIn(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const wanted = Object.entries(labels);
    if (Object.keys(found).length === wanted.length && wanted.every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

async function countOf(metric: { get(): Promise<{ values: { labels: Record<string, string | number>; value: number; metricName?: string }[] }> }, labels: Record<string, string>, metricName?: string): Promise<number> {
  const { values } = await metric.get();
  const found = values.find((v) => (!metricName || v.metricName === metricName) && Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want));
  return found?.value ?? 0;
}

describe("the registry", () => {
  it("names every family frontpage_* and includes the process's memory and event-loop lag", async () => {
    const text = await registry.metrics();
    const families = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
    expect(families.every((name) => name.startsWith("frontpage_"))).toBe(true);
    for (const family of ["frontpage_http_request_duration_seconds", "frontpage_process_resident_memory_bytes", "frontpage_nodejs_eventloop_lag_seconds", "frontpage_cdn_purges_total", "frontpage_db_query_duration_seconds", "frontpage_scheduler_runs_total", "frontpage_jobs_total", "frontpage_db_pool_connections", "frontpage_job_queue_jobs", "frontpage_page_cache_requests_total"]) {
      expect(families).toContain(family);
    }
    // Every series is labelled with its process's role.
    expect(text).toMatch(/frontpage_process_resident_memory_bytes\{role="single"\} \d+/);
  });

  it("counts CDN purges by adapter and outcome, an unexpected adapter name as other", async () => {
    const before = await countOf(cdnPurges, { adapter: "varnish", outcome: "failed" });
    const failuresBefore = await countOf(cdnPurgeFailures, { adapter: "varnish" });
    observeCdnPurge({ adapter: "varnish", ok: true, tags: 3, ms: 12 });
    observeCdnPurge({ adapter: "varnish", ok: false, tags: 3, ms: 1200 });
    observeCdnPurge({ adapter: "Evil Adapter\n{x}", ok: true, tags: 1, ms: 5 });
    expect(await countOf(cdnPurges, { adapter: "varnish", outcome: "failed" })).toBe(before + 1);
    expect(await countOf(cdnPurgeFailures, { adapter: "varnish" })).toBe(failuresBefore + 1);
    expect(await countOf(cdnPurges, { adapter: "other", outcome: "ok" })).toBeGreaterThanOrEqual(1);
    expect((await cdnPurges.get()).values.map((v) => v.labels.adapter)).not.toContain("Evil Adapter\n{x}");
  });

  it("counts scheduler runs, failures and the stories published", async () => {
    const ok = await countOf(schedulerRuns, { outcome: "ok" });
    const failed = await countOf(schedulerRuns, { outcome: "failed" });
    const published = (await schedulerPublished.get()).values[0]?.value ?? 0;
    observeSchedulerRun({ ok: true, published: 2 });
    observeSchedulerRun({ ok: true, published: 0 });
    observeSchedulerRun({ ok: false, published: 0 });
    expect(await countOf(schedulerRuns, { outcome: "ok" })).toBe(ok + 2);
    expect(await countOf(schedulerRuns, { outcome: "failed" })).toBe(failed + 1);
    expect((await schedulerPublished.get()).values[0]?.value).toBe(published + 2);
  });
});

describe("the request histogram", () => {
  it("prints what prom-client's Histogram prints for the same observations, and sums the same way", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const config = { name: "x_seconds", help: "x", labelNames: ["class", "status"] as const, buckets: [0.001, 0.01, 0.1, 1] };
    const fixed = new FixedHistogram({ ...config, registers: [ours] });
    const reference = new Histogram({ ...config, registers: [theirs] });
    const observations: [string, string, number][] = [["a", "200", 0.0005], ["a", "200", 0.001], ["a", "200", 0.05], ["b", "404", 3], ["a", "200", 0.5], ["b", "404", 0.0001]];
    for (const [pathClass, status, value] of observations) {
      fixed.labels(pathClass, status).observe(value);
      reference.observe({ class: pathClass, status }, value);
    }
    const lines = (text: string) => text.split("\n").filter((line) => !line.startsWith("#")).sort();
    expect(lines(await ours.metrics())).toEqual(lines(await theirs.metrics()));
    const twice = async (registry: Registry) => lines(await aggregateText([await registry.getMetricsAsJSON(), await registry.getMetricsAsJSON()]));
    expect(await twice(ours)).toEqual(await twice(theirs));
    expect(valueIn(await ours.metrics(), "x_seconds_bucket", { class: "a", status: "200", le: "0.001" })).toBe(2);
  });
});

describe("the cluster's sum", () => {
  it("adds up the processes' counters and histograms series by series, keeping the roles apart", async () => {
    const child = httpRequestDuration.labels("feed", "GET", "200");
    child.observe(0.002);
    child.observe(0.2);
    const worker = await registry.getMetricsAsJSON();
    const relabel = (metrics: typeof worker, role: string) =>
      metrics.map((metric) => ({ ...metric, values: metric.values.map((value) => ({ ...value, labels: { ...value.labels, role } })) }));
    // Two workers with the same counts, and a primary that answered nothing.
    const primary = relabel(worker, "primary").map((metric) => (metric.name === "frontpage_http_request_duration_seconds" ? { ...metric, values: [] } : metric));
    const text = await aggregateText([primary, relabel(worker, "worker"), relabel(worker, "worker")]);
    const single = await registry.metrics();
    const feed = { class: "feed", method: "GET", status: "200" };
    const count = valueIn(single, "frontpage_http_request_duration_seconds_count", { ...feed, role: "single" })!;
    expect(count).toBeGreaterThanOrEqual(2);
    expect(valueIn(text, "frontpage_http_request_duration_seconds_count", { ...feed, role: "worker" })).toBe(2 * count);
    const fast = valueIn(single, "frontpage_http_request_duration_seconds_bucket", { ...feed, role: "single", le: "0.0025" })!;
    expect(fast).toBeGreaterThanOrEqual(1);
    expect(valueIn(text, "frontpage_http_request_duration_seconds_bucket", { ...feed, role: "worker", le: "0.0025" })).toBe(2 * fast);
    expect(valueIn(text, "frontpage_http_request_duration_seconds_count", { ...feed, role: "primary" })).toBeUndefined();
    // Each family once (an exposition with a family twice is refused by Prometheus), memory per role.
    const types = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
    expect(new Set(types).size).toBe(types.length);
    expect(text).toMatch(/frontpage_process_resident_memory_bytes\{role="primary"\} \d+/);
    expect(text).toMatch(/frontpage_process_resident_memory_bytes\{role="worker"\} \d+/);
  });
});

describe("query timing", () => {
  it("times a client's queries in each form pg uses, and leaves their answers and errors as they were", async () => {
    const okBefore = await countOf(dbQueryDuration, { outcome: "ok" }, "frontpage_db_query_duration_seconds_count");
    const errorBefore = await countOf(dbQueryDuration, { outcome: "error" }, "frontpage_db_query_duration_seconds_count");
    const client = {
      query(text: unknown, ...rest: unknown[]): unknown {
        const callback = rest.at(-1);
        const fail = text === "fail";
        if (typeof callback === "function") return void setImmediate(() => (callback as (e: unknown, r: unknown) => void)(fail ? new Error("no") : null, { rows: [1] }));
        if (typeof text === "object") return text; // a submittable: given back untouched
        return fail ? Promise.reject(new Error("no")) : Promise.resolve({ rows: [2] });
      },
    };
    timeQueries(client);
    const viaCallback = await new Promise((resolve) => client.query("select 1", [], (_e: unknown, r: unknown) => resolve(r)));
    expect(viaCallback).toEqual({ rows: [1] });
    expect(await client.query("select 2")).toEqual({ rows: [2] });
    await expect(client.query("fail")).rejects.toThrow("no");
    const failedCallback = await new Promise((resolve) => client.query("fail", (e: unknown) => resolve(e)));
    expect(failedCallback).toBeInstanceOf(Error);
    const submittable = { submit() {} };
    expect(client.query(submittable)).toBe(submittable);
    expect(await countOf(dbQueryDuration, { outcome: "ok" }, "frontpage_db_query_duration_seconds_count")).toBe(okBefore + 2);
    expect(await countOf(dbQueryDuration, { outcome: "error" }, "frontpage_db_query_duration_seconds_count")).toBe(errorBefore + 2);
  });
});

/** A server whose handler is wired as server/index.ts wires it: the observer first, a "door", then the rest. */
async function serverWith(options: { addresses?: boolean; token?: string }) {
  const lines: AccessLogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as AccessLogLine);
      callback();
    },
  });
  // LOG_LEVEL=warn: the access log is written all the same (its own level).
  const log = createLogger("warn", sink);
  const observer = requestObserver({ metrics: true, accessLog: log, addressOf: options.addresses ? (req) => req.socket.remoteAddress ?? "unknown" : undefined })!;
  const scrapeDoor = options.token ? metricsDoor({ token: options.token, scrape: async () => "frontpage_up 1\n", log, observer }) : () => false;
  const server = http.createServer((req, res) => {
    observer.start(req, res);
    if (scrapeDoor(req, res)) return;
    if (req.url?.startsWith("/article/cached")) {
      // The page-cache door: every header in one writeHead.
      res.writeHead(200, ["Content-Type", "text/html", "X-Cache", "HIT"]);
      res.end("<p>cached</p>");
      observer.cacheHit(res);
      return;
    }
    if (req.url?.startsWith("/article/stale")) res.setHeader("X-Cache", "STALE");
    res.statusCode = req.url?.startsWith("/admin") ? 403 : 200;
    res.end("page");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, lines, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("every request observed once", () => {
  let plain: Awaited<ReturnType<typeof serverWith>>;
  let withAddresses: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => {
    plain = await serverWith({ token: "a-token-of-sixteen-chars" });
    withAddresses = await serverWith({ addresses: true });
  });
  afterAll(async () => {
    await plain.close();
    await withAddresses.close();
  });

  it("logs one JSON line per request: method, class, route, status, duration, cache result, bytes; no query string, no address", async () => {
    const cachedBefore = await countOf(httpRequestDuration, { class: "article page", method: "GET", status: "200" }, "frontpage_http_request_duration_seconds_count");
    const hitsBefore = await countOf(pageCacheRequests, { result: "hit" });
    const staleBefore = await countOf(pageCacheRequests, { result: "stale" });
    await (await fetch(`${plain.base}/article/cached-story?utm_source=secret-campaign&token=abc`)).text();
    await (await fetch(`${plain.base}/article/stale-story`)).text();
    await (await fetch(`${plain.base}/admin/settings?next=/x`)).text();
    await (await fetch(`${plain.base}/newsletter/unsubscribe/SECRET-TOKEN-123`, { method: "POST" })).text();
    await expect.poll(() => plain.lines.length).toBe(4);
    const [cached, stale, admin, unsubscribe] = plain.lines;
    expect(cached).toMatchObject({ msg: "request", method: "GET", class: "article page", route: "article/:slug", path: "/article/cached-story", status: 200, cache: "hit" });
    expect(cached!.ms).toBeGreaterThanOrEqual(0);
    expect(cached!.bytes).toBeGreaterThan("<p>cached</p>".length);
    expect(stale).toMatchObject({ class: "article page", cache: "stale", status: 200 });
    expect(admin).toMatchObject({ class: "admin page", status: 403, cache: "none" });
    expect(admin!.path).toBeUndefined();
    // A path that carries a token is logged by its route only.
    expect(unsubscribe).toMatchObject({ method: "POST", class: "subscriber link", route: "newsletter/unsubscribe/:token" });
    const all = JSON.stringify(plain.lines);
    expect(all).not.toContain("utm_source");
    expect(all).not.toContain("secret-campaign");
    expect(all).not.toContain("SECRET-TOKEN-123");
    expect(all).not.toContain("127.0.0.1");
    expect(plain.lines.every((line) => line.address === undefined)).toBe(true);
    // The same requests in the metrics: the door's hit counted like Express's.
    expect(await countOf(httpRequestDuration, { class: "article page", method: "GET", status: "200" }, "frontpage_http_request_duration_seconds_count")).toBe(cachedBefore + 2);
    expect(await countOf(pageCacheRequests, { result: "hit" })).toBe(hitsBefore + 1);
    expect(await countOf(pageCacheRequests, { result: "stale" })).toBe(staleBefore + 1);
  });

  it("writes the client address only when LOG_CLIENT_ADDRESSES asks for it", async () => {
    await (await fetch(`${withAddresses.base}/about`)).text();
    await expect.poll(() => withAddresses.lines.length).toBe(1);
    expect(withAddresses.lines[0]).toMatchObject({ class: "reader page", path: "/about", address: "127.0.0.1" });
  });

  it("answers the public /metrics to the right bearer token only, counted as class metrics", async () => {
    const before = await countOf(httpRequestDuration, { class: "metrics", method: "GET", status: "401" }, "frontpage_http_request_duration_seconds_count");
    const none = await fetch(`${plain.base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await fetch(`${plain.base}/metrics`, { headers: { Authorization: "Bearer a-token-of-sixteen-charz" } })).status).toBe(401);
    expect((await fetch(`${plain.base}/metrics`, { headers: { Authorization: "Basic a-token-of-sixteen-chars" } })).status).toBe(401);
    const good = await fetch(`${plain.base}/metrics`, { headers: { Authorization: "bearer a-token-of-sixteen-chars" } });
    expect(good.status).toBe(200);
    expect(good.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await good.text()).toBe("frontpage_up 1\n");
    // Another path is not the door's.
    expect((await fetch(`${plain.base}/metricsx`)).status).toBe(200);
    await expect.poll(() => countOf(httpRequestDuration, { class: "metrics", method: "GET", status: "401" }, "frontpage_http_request_duration_seconds_count")).toBe(before + 3);
  });

  it("compares bearer tokens whatever their lengths", () => {
    expect(bearerMatches("Bearer abcdefghijklmnop", "abcdefghijklmnop")).toBe(true);
    expect(bearerMatches("Bearer abcdefghijklmno", "abcdefghijklmnop")).toBe(false);
    expect(bearerMatches("Bearer ", "abcdefghijklmnop")).toBe(false);
    expect(bearerMatches(undefined, "abcdefghijklmnop")).toBe(false);
    expect(bearerMatches("abcdefghijklmnop", "abcdefghijklmnop")).toBe(false);
  });
});

describe("off", () => {
  it("observes nothing when neither metrics nor the access log is on", () => {
    expect(requestObserver({ metrics: false, accessLog: null })).toBeNull();
    expect(setUpMetrics({ METRICS_HOST: "127.0.0.1" }, "single", createLogger("silent"))).toBeNull();
  });
});

describe("the settings", () => {
  it("default to no metrics, loopback, no access log, no addresses", () => {
    const env = loadEnv({});
    expect(env.METRICS_PORT).toBeUndefined();
    expect(env.METRICS_TOKEN).toBeUndefined();
    expect(env).toMatchObject({ METRICS_HOST: "127.0.0.1", ACCESS_LOG: false, LOG_CLIENT_ADDRESSES: false });
    expect(loadEnv({ METRICS_PORT: "9464", ACCESS_LOG: "1", LOG_CLIENT_ADDRESSES: "yes" })).toMatchObject({ METRICS_PORT: 9464, ACCESS_LOG: true, LOG_CLIENT_ADDRESSES: true });
  });

  it("refuse a metrics port that is no port and a token too short to guess at", () => {
    expect(() => loadEnv({ METRICS_PORT: "metrics" })).toThrow(/METRICS_PORT/);
    expect(() => loadEnv({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
    expect(() => loadEnv({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN.*at least 16/);
    expect(() => loadEnv({ ACCESS_LOG: "maybe" })).toThrow(/ACCESS_LOG/);
  });
});
