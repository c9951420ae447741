/**
 * `npm run bench -- --ads` (issue 43, decisions 0060 and 0061): ads filled at the door.
 * (a) A cached News story of the demo seed with three live campaigns that fill its article slot,
 *     against the same page on the same site with those campaigns paused (one site, one process: the
 *     same page cache, the same JIT, the same database; the book reloads on the pause's change notice
 *     and the bench waits until the page shows it), 50 connections, gzip, the median of 3 interleaved
 *     rounds: req/s, p50, p99; target ≥ 0.8×. After each "with" round: 20 pages fetched, each must carry
 *     an ad (`data-ad-token`), and the impressions ad_days gained over the round (after the recorder's
 *     flush) beside the answers the load generator received.
 * (b) 10,000 GETs of the same cached story (4 keep-alive connections) with three campaigns of weights
 *     1:2:7 in its slot: which campaign each answer carried (its token names the campaign first), as
 *     percentages (target: each within ±3 points of 10/20/70 %), beside what ad_days counted for each.
 * The creatives are image creatives of a cover image the demo seed put in the media library (text
 * creatives when it has none; the output says which). Loopback only, bounded (about two minutes after
 * the site is up), stops by itself. BENCH_ADS_PORT moves its port (default 3331).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { databaseUrlOfDataDir, type LoadRow } from "./bench-newsletter";
import { ensureBuild, SERVER_ENTRY } from "./ensure-build.mjs";

const PORT = Number(process.env.BENCH_ADS_PORT ?? 3331);
const BASE = `http://127.0.0.1:${PORT}`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SPREAD_REQUESTS = Number(process.env.BENCH_ADS_SPREAD ?? 10_000);
const SPREAD_CONNECTIONS = 4;
const SAMPLE = 20;
const TIME_ZONE = process.env.TIME_ZONE ?? "America/New_York";
/** How long the bench waits for the recorder's flush (it writes once a second). */
const FLUSH_WAIT_MS = 2500;
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
export const ADS_TARGET = { cachedRatio: 0.8, spreadPoints: 3 };
/** The campaign id an answer's ad names first in its token. */
const TOKEN = /data-ad-token="([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\./g;

export interface AdsBenchDeps {
  judge: (ok: boolean) => string;
  /** `npm run bench`'s load generator (wrk when the machine has it, else autocannon): `requests` is the answers received. */
  load: (url: string, options: { connections: number; seconds?: number; headers?: Record<string, string> }) => Promise<LoadRow & { requests: number }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const ms = (n: number) => n.toFixed(1).padStart(8);

function startSite(dataDir: string): ChildProcess {
  return spawn(process.execPath, ["--enable-source-maps", SERVER_ENTRY], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PUBLIC_URL: BASE,
      DATA_DIR: dataDir,
      SEED_DEMO: "1",
      LOG_LEVEL: "warn",
      WEB_CONCURRENCY: "1",
      TIME_ZONE,
    },
  });
}

async function waitForHome(deadlineMs = 240_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const answer = await fetch(`${BASE}/`, { signal: AbortSignal.timeout(5000) });
      await answer.arrayBuffer();
      if (answer.status === 200) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error(`${BASE} did not answer within ${deadlineMs / 1000} s`);
}

async function stop(site: ChildProcess | null) {
  if (!site || site.exitCode !== null) return;
  site.kill("SIGTERM");
  await new Promise((resolve) => site.once("exit", resolve));
}

/** The CPU seconds (user + system) the site's Node processes (it and its workers, not PostgreSQL) have used. */
const TICK = 1 / Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim() || 100);
function siteCpuSeconds(pid: number): number {
  const workers = spawnSync("pgrep", ["-P", String(pid), "-x", "node"], { encoding: "utf8" }).stdout.trim().split("\n").filter(Boolean).map(Number);
  let seconds = 0;
  for (const each of [pid, ...workers]) {
    try {
      // After "(comm)": utime and stime are fields 14 and 15 of the whole line.
      const fields = readFileSync(`/proc/${each}/stat`, "utf8").replace(/^.*\) /s, "").split(" ");
      seconds += (Number(fields[11]) + Number(fields[12])) * TICK;
    } catch {
      // a process that exited meanwhile
    }
  }
  return seconds;
}

/** A few keep-alive connections for the page fetches the bench reads (identity: their HTML is parsed). */
const agent = new http.Agent({ keepAlive: true, maxSockets: SPREAD_CONNECTIONS });
function getPage(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { "user-agent": CHROME } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.setTimeout(30_000, () => req.destroy(new Error("timeout")));
  });
}

/** The campaign ids of the ads an answer carried. */
export function campaignsOf(html: string): string[] {
  return [...html.matchAll(TOKEN)].map((m) => m[1]!);
}

/** Fetches the page until `ready` holds for its answer (the book reloads on a change notice). */
async function waitForPage(url: string, ready: (campaigns: string[]) => boolean, what: string) {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    const page = await getPage(url);
    if (page.status === 200 && ready(campaignsOf(page.body))) return;
    await sleep(100);
  }
  throw new Error(`${url}: ${what} was not seen within 15 s`);
}

/** Impressions ad_days holds, by campaign. */
async function impressionsOf(pool: pg.Pool, ids: string[]): Promise<Map<string, number>> {
  const rows = await pool.query<{ campaign_id: string; n: string }>(
    `select campaign_id, coalesce(sum(impressions), 0)::text as n from ad_days where campaign_id = any($1::uuid[]) group by campaign_id`,
    [ids],
  );
  return new Map(ids.map((id) => [id, Number(rows.rows.find((r) => r.campaign_id === id)?.n ?? 0)]));
}
const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

/** One creative for the article slot (a box): an image of the media library, or a text ad. */
export type Creative = { kind: "image"; mediaId: string } | { kind: "text" };

/** Campaigns of `weights` in the article slot, running today in the site's time zone (`timeZone`), one creative each. */
export async function makeCampaigns(pool: pg.Pool, advertiserId: string, label: string, weights: number[], creative: Creative, timeZone = TIME_ZONE): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, weight] of weights.entries()) {
    const campaign = await pool.query<{ id: string }>(
      `insert into ad_campaigns (advertiser_id, name, starts_on, ends_on, slots, priority, weight)
       values ($1, $2, (now() at time zone $3)::date - 1, (now() at time zone $3)::date + 30, array['article'], 'standard', $4) returning id`,
      [advertiserId, `${label} ${i + 1}`, timeZone, weight],
    );
    const id = campaign.rows[0]!.id;
    if (creative.kind === "image") {
      await pool.query(`insert into ad_creatives (campaign_id, size, kind, media_id, alt, link_url) values ($1, 'box', 'image', $2, $3, $4)`, [
        id,
        creative.mediaId,
        `${label} ${i + 1}: the bench's advertisement`,
        `https://advertiser.example/${i + 1}`,
      ]);
    } else {
      await pool.query(`insert into ad_creatives (campaign_id, size, kind, headline, body, link_url) values ($1, 'box', 'text', $2, $3, $4)`, [
        id,
        `${label} ${i + 1}`,
        "The bench's advertisement, shown in the article slot.",
        `https://advertiser.example/${i + 1}`,
      ]);
    }
    ids.push(id);
  }
  return ids;
}

export async function adsBench({ judge, load }: AdsBenchDeps): Promise<boolean> {
  ensureBuild();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "frontpage-bench-ads-"));
  let site: ChildProcess | null = null;
  let pool: pg.Pool | null = null;
  let ok = true;
  try {
    site = startSite(dataDir);
    await waitForHome();
    pool = new pg.Pool({ connectionString: databaseUrlOfDataDir(dataDir), max: 2 });
    console.log(`ads: ${os.cpus().length} cores, Node ${process.version}; one site process; site time zone ${TIME_ZONE}`);

    // The newest published News story of the demo seed.
    const story = await pool.query<{ slug: string }>(
      `select a.slug from articles a join categories c on c.id = a.category_id
       where c.slug = 'news' and a.status = 'published' and a.published_at <= now() order by a.published_at desc limit 1`,
    );
    if (!story.rows[0]) throw new Error("the demo seed has no published News story");
    const article = `${BASE}/article/${story.rows[0].slug}`;
    const first = await getPage(article);
    if (first.status !== 200) throw new Error(`${article} answered ${first.status}`);
    const image = await pool.query<{ id: string; bucket: string; name: string }>(
      `select id, bucket, name from media where content_type like 'image/%' order by created_at limit 1`,
    );
    const creative: Creative = image.rows[0] ? { kind: "image", mediaId: image.rows[0].id } : { kind: "text" };
    console.log(
      `creatives: ${creative.kind === "image" ? `image creatives (box) of the media library's /media/${image.rows[0]!.bucket}/${image.rows[0]!.name} (a cover image of the demo seed)` : "text creatives (box): the demo seed has no image in its media library"}`,
    );
    const advertiser = await pool.query<{ id: string }>(`insert into advertisers (name, contact_name) values ('Bench Advertiser', 'Bench') returning id`);
    const advertiserId = advertiser.rows[0]!.id;

    // (a) with and without ads, one site.
    const live = await makeCampaigns(pool, advertiserId, "Bench campaign", [1, 1, 1], creative);
    const setPaused = async (paused: boolean) => {
      await pool!.query(`update ad_campaigns set paused = $1 where id = any($2::uuid[])`, [paused, live]);
      await waitForPage(article, (carried) => (paused ? carried.length === 0 : carried.length > 0 && carried.every((id) => live.includes(id))), paused ? "no ad" : "an ad");
    };
    const headers = { "accept-encoding": "gzip", "user-agent": CHROME };
    console.log(
      `\n(a) ${article.slice(BASE.length)} (cached) with three live campaigns in its article slot, and without them: the same site, the` +
        `\n    campaigns paused between rounds (same process, page cache, JIT and database; each round starts once the page shows the change),` +
        `\n    50 connections, gzip, ${ROUNDS} interleaved rounds (without, then with), the median`,
    );
    await setPaused(true);
    await load(article, { connections: 50, seconds: 2, headers });
    await setPaused(false);
    await load(article, { connections: 50, seconds: 2, headers });
    // Each row with the site's Node CPU time per answer: steadier than req/s on a shared machine.
    const measured = async () => {
      const cpuBefore = siteCpuSeconds(site!.pid!);
      const row = await load(article, { connections: 50, headers });
      return { ...row, cpuMs: ((siteCpuSeconds(site!.pid!) - cpuBefore) * 1000) / Math.max(1, row.requests) };
    };
    const withAds: (LoadRow & { requests: number; cpuMs: number })[] = [];
    const without: typeof withAds = [];
    const checks: { answers: number; written: number; sampled: number; carried: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await setPaused(true);
      without.push(await measured());
      await setPaused(false);
      await sleep(FLUSH_WAIT_MS);
      const before = total(await impressionsOf(pool, live));
      const row = await measured();
      withAds.push(row);
      await sleep(FLUSH_WAIT_MS);
      const written = total(await impressionsOf(pool, live)) - before;
      let carried = 0;
      for (let i = 0; i < SAMPLE; i++) if (campaignsOf((await getPage(article)).body).length > 0) carried++;
      checks.push({ answers: row.requests, written, sampled: SAMPLE, carried });
    }
    const [rps, floor] = [median(withAds.map((r) => r.rps)), median(without.map((r) => r.rps))];
    const ratio = rps / floor;
    const failures = [...withAds, ...without].reduce((sum, r) => sum + r.failures, 0);
    const rateMet = ratio >= ADS_TARGET.cachedRatio && failures === 0;
    ok &&= rateMet;
    const rounds = (rows: typeof withAds) => rows.map((r) => r.rps).join(", ");
    const [cpu, cpuFloor] = [median(withAds.map((r) => r.cpuMs)), median(without.map((r) => r.cpuMs))];
    console.log("page                                  req/s   p50 ms   p99 ms  CPU ms/answer  rounds' req/s");
    console.log(
      "with three live campaigns".padEnd(34) +
        `${String(rps).padStart(8)} ${ms(median(withAds.map((r) => r.p50)))} ${ms(median(withAds.map((r) => r.p99)))} ${cpu.toFixed(3).padStart(14)}  ${rounds(withAds)}`,
    );
    console.log(
      "campaigns paused (no ad)".padEnd(34) +
        `${String(floor).padStart(8)} ${ms(median(without.map((r) => r.p50)))} ${ms(median(without.map((r) => r.p99)))} ${cpuFloor.toFixed(3).padStart(14)}  ${rounds(without)}`,
    );
    console.log(
      `ratio ${ratio.toFixed(2)} (target ≥ ${ADS_TARGET.cachedRatio}) ${judge(rateMet)}${failures ? ` (${failures} failed)` : ""}; CPU per answer, paused ÷ with: ${(cpuFloor / cpu).toFixed(2)}` +
        ` (the load generator runs in this process, on the same cores: CPU per answer is the steadier figure; machine load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
    console.log("'with' round   answers received   impressions written to ad_days   sample: pages carrying an ad");
    for (const [i, check] of checks.entries()) {
      // The load generator stops with up to 50 requests in flight: the server may have answered (and
      // counted) those without the generator receiving them.
      const met = check.carried === check.sampled && check.written >= check.answers && check.written <= check.answers + 50;
      ok &&= met;
      console.log(
        `${String(i + 1).padStart(13)} ${check.answers.toLocaleString("en-US").padStart(18)} ${check.written.toLocaleString("en-US").padStart(32)} ${`${check.carried}/${check.sampled}`.padStart(30)}  ${judge(met)}`,
      );
    }
    console.log("  (met: every sampled page carried an ad, and the impressions written are the answers received, up to the 50 in flight when a round stopped)");

    // (b) the spread over weights 1:2:7.
    await pool.query(`update ad_campaigns set paused = true where id = any($1::uuid[])`, [live]);
    const weights = [1, 2, 7];
    const spread = await makeCampaigns(pool, advertiserId, "Bench weighted", weights, creative);
    await waitForPage(article, (carried) => carried.length > 0 && carried.every((id) => spread.includes(id)), "the weighted campaigns");
    await sleep(FLUSH_WAIT_MS);
    const before = await impressionsOf(pool, spread);
    const carried = new Map(spread.map((id) => [id, 0]));
    let noAd = 0;
    let notOk = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: SPREAD_CONNECTIONS }, async () => {
        while (next < SPREAD_REQUESTS) {
          next++;
          const page = await getPage(article);
          if (page.status !== 200) notOk++;
          const ids = campaignsOf(page.body);
          if (ids.length === 0) noAd++;
          for (const id of ids) carried.set(id, (carried.get(id) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await sleep(FLUSH_WAIT_MS);
    const after = await impressionsOf(pool, spread);
    const sumWeights = weights.reduce((a, b) => a + b, 0);
    console.log(
      `\n(b) ${SPREAD_REQUESTS.toLocaleString("en-US")} GETs of the same cached story (${SPREAD_CONNECTIONS} keep-alive connections, ${seconds.toFixed(1)} s), three campaigns of weights ${weights.join(":")} in its slot`,
    );
    console.log("campaign            weight  expected  answers carried      %  ad_days counted  target (±3 points)");
    for (const [i, id] of spread.entries()) {
      const n = carried.get(id) ?? 0;
      const share = (100 * n) / SPREAD_REQUESTS;
      const expected = (100 * weights[i]!) / sumWeights;
      const counted = after.get(id)! - before.get(id)!;
      const met = Math.abs(share - expected) <= ADS_TARGET.spreadPoints && counted === n;
      ok &&= met;
      console.log(
        `${`Bench weighted ${i + 1}`.padEnd(19)} ${String(weights[i]).padStart(6)} ${`${expected.toFixed(0)} %`.padStart(9)} ${n.toLocaleString("en-US").padStart(16)} ${share.toFixed(1).padStart(6)} ${counted.toLocaleString("en-US").padStart(16)}  ${judge(met)}`,
      );
    }
    const allCarried = noAd === 0 && notOk === 0;
    ok &&= allCarried;
    console.log(
      `answers without an ad: ${noAd}, not 200: ${notOk} ${judge(allCarried)}; ad_days counted ${total(after) - total(before)} impressions in all for ${SPREAD_REQUESTS} answers` +
        "\n  (met: the share within ±3 points of the weight's, and ad_days counted exactly the answers that carried the campaign)",
    );
    return ok;
  } finally {
    agent.destroy();
    await pool?.end().catch(() => {});
    await stop(site);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
