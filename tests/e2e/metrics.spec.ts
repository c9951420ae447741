import http from "node:http";
import { expect, test } from "./fixtures";
import { startOwnSite } from "./own-site";

// Issue 32's acceptance 4: the production build with WEB_CONCURRENCY=2 and METRICS_PORT: one scrape
// of the metrics port shows every family for the whole machine (the primary's jobs and scheduler, both
// workers' requests), and it moves under load. The public /metrics answers the METRICS_TOKEN bearer
// only; ACCESS_LOG=1 writes one JSON line per request. No browser: processes and HTTP.
const TOKEN = "e2e-metrics-token-0123456789";

/** Each family docs/operations.md ("Metrics and logs") lists (the process ones prom-client gives included). */
const FAMILIES = [
  "frontpage_http_request_duration_seconds",
  "frontpage_page_cache_requests_total",
  "frontpage_page_cache_entries",
  "frontpage_cdn_purges_total",
  "frontpage_cdn_purge_failures_total",
  "frontpage_cdn_purge_duration_seconds",
  "frontpage_db_pool_connections",
  "frontpage_db_pool_waiting",
  "frontpage_db_pool_max",
  "frontpage_db_query_duration_seconds",
  "frontpage_scheduler_runs_total",
  "frontpage_scheduler_published_total",
  "frontpage_job_queue_jobs",
  "frontpage_jobs_total",
  "frontpage_process_resident_memory_bytes",
  "frontpage_process_cpu_seconds_total",
  "frontpage_nodejs_heap_size_used_bytes",
  "frontpage_nodejs_eventloop_lag_seconds",
  "frontpage_nodejs_eventloop_lag_p99_seconds",
];

/** The sum of a family's series whose labels include `labels` (an exposition in Prometheus's text format). */
function sumOf(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) sum += Number(match[3]);
  }
  return sum;
}

/** A GET on a new connection each time (no keep-alive): the cluster spreads them over its workers. */
function getOnce(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      })
      .on("error", reject);
  });
}

test("the public /metrics is the 404 page while METRICS_TOKEN is not set", async ({ request }) => {
  // The e2e server runs without METRICS_PORT or METRICS_TOKEN.
  expect((await request.get("/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } })).status()).toBe(404);
});

test("a cluster's metrics port shows every family for the whole machine and moves under load; the public /metrics wants the token", async () => {
  test.setTimeout(300_000);
  const site = await startOwnSite({
    dataDirPrefix: "frontpage-metrics-",
    ready: /Frontpage is ready: listening on (http:\/\/127\.0\.0\.1:\d+) .*, 2 worker processes/,
    timeout: 200_000,
    env: {
      WEB_CONCURRENCY: "2",
      METRICS_PORT: "0",
      METRICS_TOKEN: TOKEN,
      ACCESS_LOG: "1",
      SEED_DEMO: "1",
      LOG_LEVEL: "info",
    },
  });
  const { base, output } = site;
  try {
    const metricsUrl = /metrics: serving (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(output())![1]!;
    expect(new URL(metricsUrl).port).not.toBe(new URL(base).port);

    const scrape = async () => {
      const response = await fetch(metricsUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      return response.text();
    };
    const before = await scrape();
    for (const family of FAMILIES) expect(before, family).toContain(`# TYPE ${family} `);
    // Each family once, and no label but the bounded ones.
    const types = [...before.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
    expect(new Set(types).size).toBe(types.length);
    expect(types.every((name) => name.startsWith("frontpage_"))).toBe(true);
    // The whole machine: the primary's series (the scheduler ran at start, the queue counted) beside the workers'.
    expect(sumOf(before, "frontpage_scheduler_runs_total", { role: "primary", outcome: "ok" })).toBeGreaterThanOrEqual(1);
    expect(before).toMatch(/frontpage_job_queue_jobs\{state="ready",role="primary"\} \d+/);
    expect(sumOf(before, "frontpage_process_resident_memory_bytes", { role: "primary" })).toBeGreaterThan(0);
    expect(sumOf(before, "frontpage_process_resident_memory_bytes", { role: "worker" })).toBeGreaterThan(0);

    // Load: 40 page requests on new connections, spread over both workers by the cluster.
    const home = await (await fetch(`${base}/`)).text();
    const article = /href="(\/article\/[^"?#]+)"/.exec(home)![1]!;
    const pageCount = (text: string) => sumOf(text, "frontpage_http_request_duration_seconds_count", { class: "article page", method: "GET", status: "200" });
    // Half with a query string (kept apart in the cache, as any query is): none may show in a label or a log line.
    const urls = Array.from({ length: 40 }, (_, i) => `${base}${article}${i % 2 ? "?utm_source=load" : ""}`);
    for (const url of urls.slice(0, 2)) for (let i = 0; i < 4; i++) await getOnce(url); // each worker's cache has both
    const loadedBefore = await scrape();
    const statuses = await Promise.all(urls.map((url) => getOnce(url)));
    expect(statuses).toEqual(Array(40).fill(200));
    const after = await scrape();
    // Every request counted once, whichever worker answered it: both workers' counts are in the sum.
    expect(pageCount(after) - pageCount(loadedBefore)).toBe(40);
    expect(sumOf(after, "frontpage_page_cache_requests_total", { result: "hit" })).toBeGreaterThan(sumOf(loadedBefore, "frontpage_page_cache_requests_total", { result: "hit" }));
    expect(sumOf(after, "frontpage_db_query_duration_seconds_count")).toBeGreaterThan(sumOf(before, "frontpage_db_query_duration_seconds_count"));
    expect(sumOf(after, "frontpage_http_request_duration_seconds_bucket", { class: "article page", le: "+Inf" })).toBeGreaterThanOrEqual(40);
    // No path, query or address in any label.
    expect(after).not.toContain("utm_source");
    expect(after).not.toContain(article);

    // The public port: 401 without the token or with a wrong one, the same whole-machine text with it.
    expect(await getOnce(`${base}/metrics`)).toBe(401);
    expect(await getOnce(`${base}/metrics`, { Authorization: "Bearer not-the-token-at-all" })).toBe(401);
    const viaPublic = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(viaPublic.status).toBe(200);
    const publicText = await viaPublic.text();
    expect(pageCount(publicText)).toBeGreaterThanOrEqual(pageCount(after));
    expect(sumOf(publicText, "frontpage_scheduler_runs_total", { role: "primary" })).toBeGreaterThanOrEqual(1);
    expect(sumOf(publicText, "frontpage_http_request_duration_seconds_count", { class: "metrics", status: "401" })).toBe(2);

    // The access log: one JSON line per request, without the query string or the client's address.
    const lines = output().split("\n").filter((line) => line.includes('"msg":"request"'));
    const articleLines = lines.filter((line) => line.includes('"class":"article page"'));
    expect(articleLines.length).toBeGreaterThanOrEqual(40);
    const line = JSON.parse(articleLines.at(-1)!) as Record<string, unknown>;
    expect(line).toMatchObject({ method: "GET", class: "article page", route: "article/:slug", path: article, status: 200, cache: "hit" });
    expect(typeof line.ms).toBe("number");
    expect(typeof line.bytes).toBe("number");
    expect(lines.join("\n")).not.toContain("utm_source");
    expect(lines.join("\n")).not.toContain("127.0.0.1");

    // Ctrl-C: the metrics listener stops with the rest; no error was logged.
    process.kill(-site.child.pid!, "SIGINT");
    expect(await site.exited).toBe(0);
    const errors = output().split("\n").filter((l) => /"level":(50|60)/.test(l));
    expect(errors).toEqual([]);
  } catch (error) {
    console.log(output().split("\n").filter((l) => !l.includes('"msg":"request"')).join("\n").slice(-4000));
    throw error;
  } finally {
    await site.stop();
  }
});
