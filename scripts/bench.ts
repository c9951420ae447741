/**
 * Throughput benchmark of the reader site, on loopback only, bounded in count and time.
 *
 *   npm run bench                 # builds if needed, starts a production server on a temp data dir
 *   BENCH_URL=http://127.0.0.1:3000 npm run bench   # measure a server that is already running
 *   npm run bench -- --scale      # also builds a 100,000-article archive by SQL in the bench server's
 *                                 # own database, then measures site search on it (p50/p95/p99)
 *
 * For each path it sends a fixed number of requests at a fixed concurrency, anonymously (page cache)
 * and with a session-like cookie (which bypasses the cache, so every request renders), then prints
 * requests/s and latency percentiles, the server's memory, and checks that 200 concurrent article
 * views raise the count by exactly 200.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { ensureBuild, SERVER_ENTRY } from "./ensure-build.mjs";
import { buildScaleData, connectToDataDir } from "./bench-scale";

const ROOT = path.resolve(import.meta.dirname, "..");
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const DEADLINE_MS = 60_000;
const SCALE = process.argv.includes("--scale");
const SCALE_ARTICLES = Number(process.env.BENCH_SCALE_ARTICLES ?? 100_000);
/** The scale run's target: every search answers within this at the 95th percentile, rendered. */
const SEARCH_P95_TARGET_MS = 20;
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", headers: init.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), headers: res.headers }));
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
    req.end(init.body);
  });
}

async function load(url: string, headers: Record<string, string>, count = REQUESTS, concurrency = CONCURRENCY) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  async function worker() {
    while (next < count && performance.now() - started < DEADLINE_MS) {
      next++;
      const t0 = performance.now();
      try {
        const res = await request(url, { headers });
        if (res.status !== 200) failures++;
      } catch {
        failures++;
      }
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
  return { rps: Math.round(latencies.length / seconds), p50: pct(50), p95: pct(95), p99: pct(99), n: latencies.length, failures };
}

async function waitForHealth(base: string) {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    try {
      if ((await request(`${base}/healthz`)).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("server did not become healthy in 120 s");
}

function rssOf(pid: number | undefined): string {
  if (!pid) return "n/a";
  const out = spawnSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim();
  return out ? `${Math.round(Number(out) / 1024)} MB` : "n/a";
}

async function main() {
  let base = process.env.BENCH_URL;
  let server: ChildProcess | null = null;
  let dataDir: string | null = null;
  if (SCALE && base) throw new Error("--scale builds its archive in the bench's own server: leave BENCH_URL unset");
  if (!base) {
    ensureBuild();
    dataDir = mkdtempSync(path.join(os.tmpdir(), "frontpage-bench-"));
    spawnSync("chmod", ["755", dataDir]);
    const port = 3290;
    base = `http://127.0.0.1:${port}`;
    // The built server as npm start runs it, one process: its pid is the server's, for the memory line.
    server = spawn(process.execPath, ["--enable-source-maps", SERVER_ENTRY], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, SEED_DEMO: "1", LOG_LEVEL: "warn" },
    });
  }
  try {
    await waitForHealth(base);
    const home = await request(`${base}/`);
    const article = /href="(\/article\/[^"?#]+)"/.exec(home.body)?.[1];
    if (!article) throw new Error("no article linked from the home page");
    const serverPid = server?.pid;

    console.log(`Frontpage bench: ${REQUESTS} requests per row, concurrency ${CONCURRENCY}, ${os.cpus().length} cores, Node ${process.version}`);
    console.log("path                                   mode       req/s    p50 ms   p99 ms  failures");
    for (const p of ["/", "/category/news", article]) {
      for (const [mode, headers] of [
        ["cached", { "accept-encoding": "br" }],
        ["rendered", { "accept-encoding": "br", cookie: "better-auth.session_token=bench" }],
      ] as const) {
        await load(`${base}${p}`, headers, 100); // warm-up: fills the cache and the JIT, not reported
        const r = await load(`${base}${p}`, headers);
        console.log(`${p.slice(0, 38).padEnd(38)} ${mode.padEnd(9)} ${String(r.rps).padStart(7)} ${r.p50.padStart(9)} ${r.p99.padStart(8)} ${String(r.failures).padStart(9)}`);
      }
    }
    console.log(`server memory (RSS) after the load: ${rssOf(serverPid)}`);

    // 200 concurrent views of one article: the count must rise by exactly 200.
    const beacon = (p: string) =>
      request(`${base}/api/views`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ path: p }) });
    const before = JSON.parse((await beacon(article)).body).views as number;
    await Promise.all(Array.from({ length: 200 }, () => beacon(article)));
    await new Promise((r) => setTimeout(r, 1500)); // the recorder flushes every second
    const after = JSON.parse((await beacon(article)).body).views as number;
    const rise = after - before - 1;
    console.log(`200 concurrent article views raised the count by ${rise} (${rise === 200 ? "exact" : "WRONG"})`);
    if (rise !== 200) process.exitCode = 1;

    if (SCALE && dataDir) await scaleRun(base, dataDir);
  } finally {
    agent.destroy();
    if (server) {
      server.kill("SIGTERM");
      await new Promise((r) => server!.once("exit", r));
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The scale run: a large archive by SQL, then each kind of search at 10 connections, rendered. */
async function scaleRun(base: string, dataDir: string) {
  const db = await connectToDataDir(dataDir);
  let data;
  try {
    data = await buildScaleData(db, SCALE_ARTICLES);
  } finally {
    await db.end();
  }
  console.log(`\nscale: ${data.articles.toLocaleString("en-US")} articles built by SQL in ${data.seconds.toFixed(1)} s`);
  // One reader's search (1 connection: the time a search takes), then 10 at once (what the machine serves).
  let worst = 0;
  for (const concurrency of [1, 10]) {
    console.log(`search, rendered /search page, ${String(concurrency).padEnd(2)} connection(s)     matches    req/s   p50 ms   p95 ms   p99 ms  failures`);
    for (const search of data.searches) {
      const url = `${base}/search?q=${encodeURIComponent(search.q)}`;
      await load(url, {}, 30, concurrency); // warm-up, not reported
      const r = await load(url, { "accept-encoding": "br" }, concurrency === 1 ? 200 : 500, concurrency);
      if (concurrency === 1) worst = Math.max(worst, Number(r.p95));
      const label = `${search.label}: ${search.q}`.slice(0, 46).padEnd(46);
      console.log(`${label} ${String(search.matches).padStart(10)} ${String(r.rps).padStart(8)} ${r.p50.padStart(8)} ${r.p95.padStart(8)} ${r.p99.padStart(8)} ${String(r.failures).padStart(9)}`);
      if (r.failures > 0) process.exitCode = 1;
    }
  }
  const ok = worst <= SEARCH_P95_TARGET_MS;
  console.log(`a search at ${data.articles.toLocaleString("en-US")} articles, p95 (1 connection): worst ${worst.toFixed(1)} ms (target ≤ ${SEARCH_P95_TARGET_MS} ms: ${ok ? "met" : "NOT met"})`);
}

await main();
