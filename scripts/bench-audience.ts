/**
 * `npm run bench -- --audience` (issue 42, decision 0058): audience analytics at 10 million raw events.
 * (a) A month of a site with ~333,000 loads a day (10,000,000 audience_events over 30 UTC-day
 *     partitions, one INSERT … SELECT per day: ~2,000 stories published over the month, most loads on
 *     the newest, ~20 sources and hosts, newsletter and social campaigns, 3 devices, ~30% new visitors;
 *     and the page scripts' reading reports), the rollup caught up (timed), then every /admin/audience
 *     view timed over HTTP as a signed-in admin through ONE keep-alive connection (N each: p50/p95;
 *     targets p95 ≤ 200 ms, "Right now" ≤ 50 ms), and the same figures timed in-process through the
 *     report functions (app/domain/audience/audience-report.server.ts) beside them.
 * (b) The cached article's rate on this site (recording on, the default) against a second site started
 *     with AUDIENCE_RECORDING=off, interleaved rounds, 50 connections: target ≥ 0.8×.
 * Loopback only, bounded in time. BENCH_AUDIENCE_EVENTS sets the number of raw events (default 10 M).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createDb } from "../app/db/client.server";
import { audienceOverview, audiencePeriodOf, audienceRightNow, audienceStoryReport } from "../app/domain/audience/audience-report.server";
import { runAudienceRollup } from "../app/domain/audience/audience-rollup.server";
import { databaseUrlOfDataDir, type LoadRow } from "./bench-newsletter";
import { ensureBuild, SERVER_ENTRY } from "./ensure-build.mjs";

const PORT = Number(process.env.BENCH_AUDIENCE_PORT ?? 3321);
const OFF_PORT = PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const OFF_BASE = `http://127.0.0.1:${OFF_PORT}`;
const EVENTS = Number(process.env.BENCH_AUDIENCE_EVENTS ?? 10_000_000);
const DAYS = 30;
const STORIES = 2_000;
const N = Number(process.env.BENCH_AUDIENCE_N ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TIME_ZONE = process.env.TIME_ZONE ?? "America/New_York";
const ADMIN = { email: "audience-bench@bench.example", password: "Bench-audience-1234!" };
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
export const AUDIENCE_TARGET = { p95Ms: 200, rightNowP95Ms: 50, cachedRatio: 0.8 };

export interface AudienceBenchDeps {
  judge: (ok: boolean) => string;
  load: (url: string, options: { connections: number; seconds?: number; headers?: Record<string, string> }) => Promise<LoadRow>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)] ?? NaN;
const ms = (n: number) => n.toFixed(1).padStart(8);

function startSite(dataDir: string, port: number, extra: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["--enable-source-maps", SERVER_ENTRY], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      SEED_DEMO: "1",
      LOG_LEVEL: "warn",
      WEB_CONCURRENCY: "1",
      TIME_ZONE,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...extra,
    },
  });
}

async function waitForHome(base: string, deadlineMs = 240_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const answer = await fetch(`${base}/`, { signal: AbortSignal.timeout(5000) });
      await answer.arrayBuffer();
      if (answer.status === 200) return;
    } catch {
      // not up yet
    }
    await sleep(200);
  }
  throw new Error(`${base} did not answer within ${deadlineMs / 1000} s`);
}

async function stop(site: ChildProcess | null) {
  if (!site || site.exitCode !== null) return;
  site.kill("SIGTERM");
  await new Promise((resolve) => site.once("exit", resolve));
}

/** The admin's session cookie (Better Auth's e-mail sign-in, as the login page posts it). */
async function signIn(): Promise<string> {
  const answer = await fetch(`${BASE}/api/auth/sign-in/email`, { method: "POST", headers: { "Content-Type": "application/json", Origin: BASE }, body: JSON.stringify(ADMIN) });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`the admin could not sign in (${answer.status}): ${text.slice(0, 300)}`);
  return answer.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
}

/** One keep-alive connection: every timed request goes through it, one after the other. */
const oneConnection = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(url: string, cookie: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: oneConnection, headers: { cookie, "accept-encoding": "gzip", "user-agent": CHROME } }, (res) => {
      let bytes = 0;
      res.on("data", (c: Buffer) => (bytes += c.length));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on("error", reject);
    req.setTimeout(60_000, () => req.destroy(new Error("timeout")));
  });
}

async function timeIt(n: number, run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i++) await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times;
}

/** 10 M raw events and their reads, a UTC day per statement, ending now. */
async function makeEvents(pool: import("pg").Pool): Promise<{ events: number; reads: number; seconds: number }> {
  const started = performance.now();
  await pool.query(`select audience_make_partitions((now() at time zone 'UTC')::date - ${DAYS}, (now() at time zone 'UTC')::date + 7)`);
  // The month's stories: 2,000 published evenly over the 30 days, each in a category with a byline.
  await pool.query(`create table if not exists bench_stories (n int primary key, id uuid not null)`);
  await pool.query(`truncate bench_stories`);
  await pool.query(
    `with made as (
       insert into articles (title, slug, excerpt, content, category_id, status, published_at, created_at, updated_at, author_name)
       select 'Audience bench story ' || g, 'audience-bench-story-' || g, 'A story of the audience bench.', 'Text of the story.',
         (select id from categories order by id offset (g % greatest(1, (select count(*) from categories))) limit 1),
         'published', now() - interval '${DAYS} days' + (g * interval '${DAYS} days') / ${STORIES}, now(), now(), 'Bench Writer'
       from generate_series(1, ${STORIES}) g
       returning id, slug
     )
     insert into bench_stories (n, id) select substring(slug from 'audience-bench-story-(\\d+)$')::int, id from made`,
  );
  await pool.query(
    `insert into article_authors (article_id, author_id, position)
     select s.id, (select id from authors order by id offset (s.n % greatest(1, (select count(*) from authors))) limit 1), 0
     from bench_stories s where exists (select 1 from authors) on conflict do nothing`,
  );
  const perDay = Math.ceil(EVENTS / DAYS);
  let events = 0;
  let reads = 0;
  for (let day = DAYS - 1; day >= 0; day--) {
    // The day's loads: a UTC day `day` days ago (today up to now), the stories of the last 3 days most.
    const dayStart = `date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' - interval '${day} days'`;
    const span = `least(interval '1 day', now() - (${dayStart}))`;
    const newest = Math.min(STORIES, Math.round(((DAYS - day) * STORIES) / DAYS));
    const inserted = await pool.query(
      `insert into audience_events (at, path, article_id, visitor, new_visitor, new_story_visitor, source, source_host, utm_source, utm_medium, utm_campaign, ref, device)
       select at, case when s.id is null then '/' else '/article/audience-bench-story-' || s.n end, s.id, visitor, nv, nv or random() < 0.4,
         src.source, src.host, src.utm_source, src.utm_medium, src.utm_campaign, src.ref,
         case when d < 0.55 then 'phone' when d < 0.9 then 'desktop' else 'tablet' end
       from (
         select ${dayStart} + random() * ${span} as at,
           case when random() < 0.15 then null else greatest(1, ${newest} - floor(power(random(), 3) * 200)::int) end as story,
           decode(md5((random() * 150000)::int::text), 'hex') as visitor, random() < 0.3 as nv, floor(random() * 100)::int as k, random() as d
         from generate_series(1, ${perDay})
       ) l
       left join bench_stories s on s.n = l.story
       join (values
         (0, 20, 'search', 'www.google.com', '', '', '', ''), (20, 28, 'search', 'www.bing.com', '', '', '', ''), (28, 32, 'search', 'duckduckgo.com', '', '', '', ''),
         (32, 34, 'search', 'search.yahoo.com', '', '', '', ''), (34, 35, 'search', 'www.ecosia.org', '', '', '', ''),
         (35, 43, 'social', 'www.facebook.com', '', '', '', ''), (43, 49, 'social', 't.co', 'twitter', 'social', 'launch', ''), (49, 52, 'social', 'www.linkedin.com', '', '', '', ''),
         (52, 55, 'social', 'www.reddit.com', '', '', '', ''), (55, 57, 'social', 'bsky.app', '', '', '', ''), (57, 58, 'social', 'mastodon.social', '', '', '', ''),
         (58, 64, 'newsletter', '', 'newsletter', 'email', 'morning', ''), (64, 67, 'newsletter', '', 'newsletter', 'email', 'evening', ''), (67, 68, 'newsletter', '', 'newsletter', 'email', 'weekly', ''),
         (68, 71, 'other', 'news.ycombinator.com', '', '', '', 'hn'), (71, 73, 'other', 'www.nytimes.com', '', '', '', ''), (73, 74, 'other', 'en.wikipedia.org', '', '', '', ''),
         (74, 75, 'other', 'flipboard.com', 'flipboard', 'referral', '', ''), (75, 78, 'internal', '127.0.0.1', '', '', '', ''), (78, 100, 'direct', '', '', '', '', '')
       ) as src(lo, hi, source, host, utm_source, utm_medium, utm_campaign, ref) on l.k >= src.lo and l.k < src.hi`,
    );
    events += inserted.rowCount ?? 0;
    // A quarter of the story loads report their reading: one report, a second one for half of them.
    const readRows = await pool.query(
      `insert into audience_reads (at, article_id, visitor, load_id, engaged_ms, depth)
       select at + (r - 1) * interval '30 seconds', article_id, visitor, load_id,
         case when r = 1 then least(engaged, 15000) else engaged end, case when r = 1 then least(depth, 25) else depth end
       from (
         select at, s.id as article_id, visitor, load_id, engaged, depth, twice
         from (
           select ${dayStart} + random() * ${span} as at, decode(md5((random() * 150000)::int::text), 'hex') as visitor, gen_random_uuid() as load_id,
             floor(power(random(), 2) * 600000)::int as engaged, (array[0, 25, 50, 75, 100])[1 + floor(random() * 5)::int] as depth, random() < 0.5 as twice,
             greatest(1, ${newest} - floor(power(random(), 3) * 200)::int) as story
           from generate_series(1, ${Math.round(perDay * 0.85 * 0.25)})
         ) picked join bench_stories s on s.n = picked.story
       ) l, generate_series(1, case when twice then 2 else 1 end) r
       where at + (r - 1) * interval '30 seconds' < now()`,
    );
    reads += readRows.rowCount ?? 0;
    process.stdout.write(`\r  raw events: ${events.toLocaleString("en-US")}, reading reports: ${reads.toLocaleString("en-US")} (${Math.round((performance.now() - started) / 1000)} s)   `);
  }
  process.stdout.write("\n");
  await pool.query(`analyze audience_events`);
  await pool.query(`analyze audience_reads`);
  return { events, reads, seconds: (performance.now() - started) / 1000 };
}

export async function audienceBench({ judge, load }: AudienceBenchDeps): Promise<boolean> {
  ensureBuild();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "frontpage-bench-audience-"));
  const offDir = mkdtempSync(path.join(os.tmpdir(), "frontpage-bench-audience-off-"));
  let site: ChildProcess | null = null;
  let off: ChildProcess | null = null;
  let ok = true;
  const database = { pool: null as import("pg").Pool | null };
  try {
    site = startSite(dataDir, PORT, {});
    await waitForHome(BASE);
    const { db, pool } = createDb(databaseUrlOfDataDir(dataDir), 4);
    database.pool = pool;
    console.log(`audience: ${os.cpus().length} cores, Node ${process.version}; one site process; site time zone ${TIME_ZONE}`);

    console.log(`\n(a) ${EVENTS.toLocaleString("en-US")} raw events over ${DAYS} days (one INSERT … SELECT per day), ${STORIES.toLocaleString("en-US")} stories`);
    const made = await makeEvents(pool);
    console.log(`  made ${made.events.toLocaleString("en-US")} events and ${made.reads.toLocaleString("en-US")} reading reports in ${made.seconds.toFixed(0)} s`);
    await pool.query(`update audience_rollup_state set rolled_until = date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' - interval '${DAYS} days'`);
    const rollStart = performance.now();
    const run = await runAudienceRollup(db, { timeZone: TIME_ZONE });
    const rollSeconds = (performance.now() - rollStart) / 1000;
    console.log(`  rollup caught up ${run.hoursRolled} hours in ${rollSeconds.toFixed(1)} s (${((rollSeconds * 1000) / Math.max(1, run.hoursRolled)).toFixed(0)} ms an hour)`);
    const sizes = await pool.query(
      `select relname, n_live_tup from pg_stat_user_tables where relname in ('audience_story_hours', 'audience_source_hours', 'audience_site_hours', 'audience_read_hours') order by 1`,
    );
    console.log(`  rollup rows: ${sizes.rows.map((r) => `${String(r.relname).replace("audience_", "")} ${Number(r.n_live_tup).toLocaleString("en-US")}`).join(", ")}`);
    await pool.query(`analyze`);

    // The busiest story of the last days, for its report.
    const story = (await pool.query(`select article_id from audience_story_hours where hour > now() - interval '2 days' and article_id <> '00000000-0000-0000-0000-000000000000' group by 1 order by sum(views) desc limit 1`)).rows[0]!.article_id as string;
    const now = new Date();
    const today = audiencePeriodOf(new URLSearchParams({ period: "today" }), TIME_ZONE, now);
    const rangeFrom = new Date(now.getTime() - 20 * 86_400_000).toISOString().slice(0, 10);
    const rangeTo = new Date(now.getTime() - 6 * 86_400_000).toISOString().slice(0, 10);
    const views: { label: string; url: string; inProcess: () => Promise<unknown>; target: number }[] = [
      { label: "overview today", url: "/admin/audience?period=today", inProcess: () => audienceOverview(db, today, { kind: "site" }, TIME_ZONE), target: AUDIENCE_TARGET.p95Ms },
      ...(["7d", "30d"] as const).map((key) => ({
        label: `overview ${key}`,
        url: `/admin/audience?period=${key}`,
        inProcess: () => audienceOverview(db, audiencePeriodOf(new URLSearchParams({ period: key }), TIME_ZONE), { kind: "site" }, TIME_ZONE),
        target: AUDIENCE_TARGET.p95Ms,
      })),
      {
        label: `overview ${rangeFrom}..${rangeTo}`,
        url: `/admin/audience?period=range&from=${rangeFrom}&to=${rangeTo}`,
        inProcess: () => audienceOverview(db, audiencePeriodOf(new URLSearchParams({ period: "range", from: rangeFrom, to: rangeTo }), TIME_ZONE), { kind: "site" }, TIME_ZONE),
        target: AUDIENCE_TARGET.p95Ms,
      },
      { label: "story report", url: `/admin/audience/story/${story}`, inProcess: () => audienceStoryReport(db, story, null, TIME_ZONE), target: AUDIENCE_TARGET.p95Ms },
      { label: "right now", url: "/admin/audience/now", inProcess: () => audienceRightNow(db, { kind: "site" }), target: AUDIENCE_TARGET.rightNowP95Ms },
      {
        label: "CSV stories 30d (all rows)",
        url: "/admin/audience/export?table=stories&period=30d",
        inProcess: () => audienceOverview(db, audiencePeriodOf(new URLSearchParams({ period: "30d" }), TIME_ZONE), { kind: "site" }, TIME_ZONE, { limit: null }),
        target: AUDIENCE_TARGET.p95Ms,
      },
    ];

    const cookie = await signIn();
    const probe = await get(`${BASE}/admin/audience?period=today`, cookie);
    const routes = probe.status === 200;
    console.log(
      `\n/admin/audience views, ${N} requests each after 3 warm-ups, one keep-alive connection, signed in as an admin` +
        (routes ? "" : `\n(GET /admin/audience answered ${probe.status}: the routes are not in this build; the HTTP column is left empty, the in-process one is timed)`),
    );
    console.log("view                                 HTTP p50  HTTP p95  fn p50   fn p95   target");
    for (const view of views) {
      let http50 = NaN;
      let http95 = NaN;
      if (routes) {
        let failures = 0;
        const times = await timeIt(N, async () => {
          const answer = await get(`${BASE}${view.url}`, cookie);
          if (answer.status !== 200) failures++;
        });
        http50 = median(times);
        http95 = quantile(times, 0.95);
        if (failures) console.log(`  ${view.label}: ${failures} answers were not 200`);
      }
      const fn = await timeIt(N, view.inProcess);
      const [fn50, fn95] = [median(fn), quantile(fn, 0.95)];
      const measured = routes ? http95 : fn95;
      const met = measured <= view.target;
      ok &&= met;
      console.log(
        `${view.label.padEnd(34)} ${routes ? ms(http50) : "       -"}  ${routes ? ms(http95) : "       -"} ${ms(fn50)} ${ms(fn95)}  p95 ≤ ${view.target} ms ${judge(met)}`,
      );
    }

    console.log(`\n(b) the cached article with recording (this site) and without (a second site, AUDIENCE_RECORDING=off), 50 connections, gzip, median of ${ROUNDS} interleaved rounds`);
    off = startSite(offDir, OFF_PORT, { AUDIENCE_RECORDING: "off" });
    await waitForHome(OFF_BASE);
    // A demo story both sites have (the same demo content).
    const home = await (await fetch(`${OFF_BASE}/`)).text();
    const article = /href="(\/article\/[^"?#]+)"/.exec(home)?.[1];
    if (!article) throw new Error("no article linked from the home page");
    const headers = { "accept-encoding": "gzip", "user-agent": CHROME };
    for (const base of [BASE, OFF_BASE]) await load(`${base}${article}`, { connections: 50, seconds: 2, headers });
    const on: LoadRow[] = [];
    const without: LoadRow[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      without.push(await load(`${OFF_BASE}${article}`, { connections: 50, headers }));
      on.push(await load(`${BASE}${article}`, { connections: 50, headers }));
    }
    const [rps, floor] = [median(on.map((r) => r.rps)), median(without.map((r) => r.rps))];
    const ratio = rps / floor;
    const failures = [...on, ...without].reduce((sum, r) => sum + r.failures, 0);
    const met = ratio >= AUDIENCE_TARGET.cachedRatio && failures === 0;
    ok &&= met;
    console.log("site                                 req/s   p50 ms   p99 ms");
    console.log(`recording on (${article.slice(0, 30)})`.padEnd(34) + `${String(rps).padStart(8)} ${ms(median(on.map((r) => r.p50)))} ${ms(median(on.map((r) => r.p99)))}`);
    console.log("AUDIENCE_RECORDING=off".padEnd(34) + `${String(floor).padStart(8)} ${ms(median(without.map((r) => r.p50)))} ${ms(median(without.map((r) => r.p99)))}`);
    const recorded = await pool.query(`select count(*) as n from audience_events where at > now() - interval '10 minutes'`);
    console.log(`ratio ${ratio.toFixed(2)} (target ≥ ${AUDIENCE_TARGET.cachedRatio}) ${judge(met)}${failures ? ` (${failures} failed)` : ""}; raw events recorded in the last 10 minutes: ${Number(recorded.rows[0]!.n).toLocaleString("en-US")}`);
    return ok;
  } finally {
    oneConnection.destroy();
    await database.pool?.end().catch(() => {});
    await stop(off);
    await stop(site);
    // BENCH_AUDIENCE_KEEP=1 keeps the site's data directory (its 10 M events) to look into afterwards.
    if (process.env.BENCH_AUDIENCE_KEEP === "1") console.log(`kept the site's data directory: ${dataDir}`);
    for (const dir of process.env.BENCH_AUDIENCE_KEEP === "1" ? [offDir] : [dataDir, offDir]) rmSync(dir, { recursive: true, force: true });
  }
}
