/**
 * `npm run bench -- --newsletter` (issue 30): a story newsletter to BENCH_NEWSLETTER_SUBSCRIBERS active
 * subscribers (default 100,000) of the Stories newsletter, through the built site (a production server
 * on a new data directory, as `npm run bench` starts it) to the SMTP sink (tests/setup/smtp-sink.ts:
 * smtp-server in its own process, counting what it accepts). Loopback only; every wait is bounded.
 *
 * Rows, each beside its target:
 * - messages a second reaching the sink, from the publication to the last message, and beside it the
 *   baseline measured in the same run, before the send and again after it (their mean: the machine's
 *   load moves between minutes): nodemailer's pool (the app's pool size) sending the same rendered
 *   e-mail to the same sink with no app, no database and no rate cap (the sink's ceiling);
 * - the CPU time per message of each (/proc): nodemailer alone and the sink; the site's primary, its
 *   PostgreSQL and the sink during the send;
 * - the peak RSS (VmHWM) of every process: the sink, the site's primary (which runs the send) and its
 *   workers;
 * - rendered article pages (a session cookie bypasses the page cache, as `npm run bench`'s rendered
 *   rows do) served during the send against at rest, same load, same page;
 * - a second send killed with `kill -9` when the sink has about half: the site started again, the send
 *   finishes; the sink's distinct recipients, its duplicates against the pool size plus the claim batch
 *   (decision 0043), and the send's own "may have been sent twice" count.
 */
import { fork, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import pg from "pg";
import { createDb, type Db } from "../app/db/client.server";
import { publishDueArticles } from "../app/domain/articles/scheduler.server";
import { emailSiteOf, emailStoryOfArticle, personalizeEmail, storyEmail } from "../app/domain/newsletters/newsletter-email.server";
import { CLAIM_BATCH } from "../app/domain/newsletters/newsletter-sends.server";
import { listUnsubscribeHeaders } from "../app/domain/newsletters/newsletter-transport.server";
import { newsletterById } from "../app/domain/newsletters/newsletters.server";
import { clusterDirOf } from "../server/postgres-placement";
import { ensureBuild, SERVER_ENTRY } from "./ensure-build.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const SINK_SCRIPT = path.join(ROOT, "tests/setup/smtp-sink.ts");

/** Issue 30's targets. */
export const NEWSLETTER_TARGET = { messagesPerSecond: 500, rssMb: 300, renderedRatio: 0.5 };

const SUBSCRIBERS = Number(process.env.BENCH_NEWSLETTER_SUBSCRIBERS ?? 100_000);
/** The longest any one send may take before the bench gives up on it. */
const SEND_TIMEOUT_MS = Number(process.env.BENCH_NEWSLETTER_TIMEOUT_S ?? 900) * 1000;
/** Messages the baseline sends (its rate settles within a few thousand). */
const BASELINE_MESSAGES = Number(process.env.BENCH_NEWSLETTER_BASELINE ?? Math.min(SUBSCRIBERS, 20_000));
/** The site's SMTP pool, as the app reads NEWSLETTER_SMTP_POOL (default 10). */
const POOL = Number(process.env.NEWSLETTER_SMTP_POOL ?? 10);
const SITE_PORT = Number(process.env.BENCH_NEWSLETTER_PORT ?? 3294);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RENDER_WARMUP_SECONDS = Number(process.env.BENCH_RENDER_WARMUP_SECONDS ?? 4);
/**
 * BENCH_NEWSLETTER_CPU_PROF=<dir>: the site's processes run with `node --cpu-prof` and write their
 * profiles there when they stop (the site started again after the kill -9 stops cleanly; the first one
 * is killed and writes none), to see where the send's time goes.
 */
const CPU_PROF_DIR = process.env.BENCH_NEWSLETTER_CPU_PROF;
/** BENCH_NEWSLETTER_SITE_LOG=<file>: the site's log (at info) is appended there, to see what its sends did. */
const SITE_LOG = process.env.BENCH_NEWSLETTER_SITE_LOG;

export interface LoadRow {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  failures: number;
}

export interface NewsletterBenchDeps {
  judge: (ok: boolean) => string;
  /** `npm run bench`'s load generator (wrk when the machine has it, else autocannon). */
  load: (url: string, options: { connections: number; seconds?: number; headers?: Record<string, string> }) => Promise<LoadRow>;
  /** The headers of `npm run bench`'s rendered rows (a session cookie: every request renders). */
  renderHeaders: Record<string, string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- processes and their memory

/** A process's peak resident memory so far (Linux's high-water mark) and its current RSS, in MB; null once it is gone. */
export function memoryOf(pid: number): { hwmMb: number; rssMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { hwmMb: Math.round(kb("VmHWM") / 1024), rssMb: Math.round(kb("VmRSS") / 1024) };
  } catch {
    return null;
  }
}

/**
 * The Node processes a process started (a cluster's workers, the demo seeder), not PostgreSQL: read
 * from /proc, not by running pgrep (forking a program every 200 ms stalls this process's own sending).
 */
export function nodeChildrenOf(pid: number): number[] {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.filter((child) => {
    try {
      return readFileSync(`/proc/${child}/comm`, "utf8").trim() === "node";
    } catch {
      return false;
    }
  });
}

/**
 * Samples the peak RSS of the processes it is told of (and of the Node children of those marked so),
 * every 200 ms, keeping each one's highest: a process killed keeps its last reading.
 */
export class MemoryWatch {
  private readonly roots = new Map<number, { label: string; childLabel: string | null }>();
  readonly peaks = new Map<number, { label: string; mb: number }>();
  private timer: NodeJS.Timeout | null = null;

  watch(pid: number, label: string, childLabel: string | null = null) {
    this.roots.set(pid, { label, childLabel });
    this.sample();
  }

  start() {
    this.timer ??= setInterval(() => this.sample(), 200);
  }

  stop() {
    this.sample();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  sample() {
    const note = (pid: number, label: string) => {
      const memory = memoryOf(pid);
      if (!memory) return;
      const peak = this.peaks.get(pid);
      this.peaks.set(pid, { label, mb: Math.max(peak?.mb ?? 0, memory.hwmMb, memory.rssMb) });
    };
    for (const [pid, { label, childLabel }] of this.roots) {
      note(pid, label);
      if (childLabel) for (const child of nodeChildrenOf(pid)) note(child, childLabel);
    }
  }

  /** The highest peak of each label, and how many processes had it. */
  byLabel(): { label: string; mb: number; processes: number }[] {
    const out = new Map<string, { label: string; mb: number; processes: number }>();
    for (const { label, mb } of this.peaks.values()) {
      const row = out.get(label) ?? { label, mb: 0, processes: 0 };
      out.set(label, { label, mb: Math.max(row.mb, mb), processes: row.processes + 1 });
    }
    return [...out.values()];
  }
}

// ---------------------------------------------------------------- CPU time

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used, and with `children`, those of its children that ended too; null once it is gone. */
export function cpuSecondsOf(pid: number, children = false): number | null {
  try {
    // Fields after the command's closing parenthesis: state is the 3rd field, utime the 14th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const at = (n: number) => Number(fields[n - 3]);
    return (at(14) + at(15) + (children ? at(16) + at(17) : 0)) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The CPU seconds of the bench site's PostgreSQL: the postmaster, its live backends, and the ones that ended (reaped by it). */
function postgresCpuSeconds(dataDir: string): number {
  const postmaster = Number(readFileSync(path.join(clusterDirOf(dataDir), "postmaster.pid"), "utf8").split("\n")[0]);
  let total = cpuSecondsOf(postmaster, true) ?? 0;
  try {
    for (const child of readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, "utf8").trim().split(/\s+/).filter(Boolean)) total += cpuSecondsOf(Number(child)) ?? 0;
  } catch {
    // gone
  }
  return total;
}

// ---------------------------------------------------------------- the sink

export interface SinkStats {
  accepted: number;
  recipients: number;
  duplicates: number;
  refused: number;
  connections: number;
}

export interface SinkProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  stats(): Promise<SinkStats>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** The SMTP sink in a process of its own (forked: it answers {type: "stats"} and takes {type: "reset"}). */
export async function startSinkProcess(): Promise<SinkProcess> {
  const child = fork(SINK_SCRIPT, ["--port", "0"], { cwd: ROOT, execArgv: ["--import", "tsx"], stdio: ["ignore", "pipe", "inherit", "ipc"] });
  const port = await new Promise<number>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error("the SMTP sink did not start within 30 s")), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening (\d+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`the SMTP sink exited (${code}) before listening`)));
  });
  const ask = () =>
    new Promise<SinkStats>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the SMTP sink did not answer within 10 s")), 10_000);
      const onMessage = (message: { type?: string; stats?: SinkStats }) => {
        if (message?.type !== "stats" || !message.stats) return;
        clearTimeout(timer);
        child.off("message", onMessage);
        resolve(message.stats);
      };
      child.on("message", onMessage);
      child.send({ type: "stats" });
    });
  return {
    child,
    pid: child.pid!,
    url: `smtp://127.0.0.1:${port}`,
    stats: ask,
    async reset() {
      child.send({ type: "reset" });
      // Messages are handled in order: the answer to this question comes after the reset.
      await ask();
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([new Promise((r) => child.once("exit", r)), sleep(5000).then(() => child.kill("SIGKILL"))]);
    },
  };
}

// ---------------------------------------------------------------- the site and its database

function startSite(dataDir: string, sinkUrl: string, seed: boolean): ChildProcess {
  const profile = CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(CPU_PROF_DIR)}`] : [];
  return spawn(process.execPath, ["--enable-source-maps", ...profile, SERVER_ENTRY], {
    cwd: ROOT,
    stdio: ["ignore", SITE_LOG ? openSync(SITE_LOG, "a") : "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(SITE_PORT),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${SITE_PORT}`,
      DATA_DIR: dataDir,
      SEED_DEMO: seed ? "1" : "0",
      LOG_LEVEL: SITE_LOG ? "info" : "warn",
      NEWSLETTER_TRANSPORT: "smtp",
      NEWSLETTER_SMTP_URL: sinkUrl,
      NEWSLETTER_SMTP_POOL: String(POOL),
    },
  });
}

async function waitForSite(deadlineMs = 120_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const response = await fetch(`http://127.0.0.1:${SITE_PORT}/`, { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not up yet
    }
    await sleep(50);
  }
  throw new Error(`the site did not answer within ${deadlineMs / 1000} s`);
}

async function stopSite(site: ChildProcess): Promise<void> {
  if (site.exitCode !== null || site.signalCode !== null) return;
  site.kill("SIGTERM");
  await Promise.race([new Promise((r) => site.once("exit", r)), sleep(30_000).then(() => site.kill("SIGKILL"))]);
}

/** The bench site's embedded PostgreSQL, from its DATA_DIR (secrets.json, postmaster.pid). */
export function databaseUrlOfDataDir(dataDir: string): string {
  const { postgresPassword } = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as { postgresPassword: string };
  const port = Number(readFileSync(path.join(clusterDirOf(dataDir), "postmaster.pid"), "utf8").split("\n")[3]);
  return `postgres://frontpage:${encodeURIComponent(postgresPassword)}@127.0.0.1:${port}/frontpage`;
}

/** `count` active subscribers of the Stories newsletter, in one statement. */
export async function seedSubscribers(client: pg.Client | pg.Pool, count: number): Promise<void> {
  await client.query(
    `with made as (
       insert into subscribers (email, status, token_key, consent_source, consent_at, confirmed_at)
       select 'reader' || g || '@bench.example', 'active', replace(gen_random_uuid()::text, '-', ''), 'bench', now(), now()
       from generate_series(1, $1) as g
       returning id
     )
     insert into subscriptions (subscriber_id, newsletter_id)
     select made.id, n.id from made cross join (select id from newsletters where slug = 'stories') n`,
    [count],
  );
  await client.query("vacuum (analyze) subscribers, subscriptions");
}

/**
 * A new story (a copy of the latest demo article) due now, with "Send by e-mail" to Stories, made
 * public by the scheduler's own function: the publication queues the send in its transaction.
 */
export async function publishStoryWithNewsletter(db: Db, client: pg.Client | pg.Pool, label: string): Promise<{ id: string; slug: string }> {
  const slug = `bench-newsletter-${label}-${Date.now().toString(36)}`;
  const { rows } = await client.query<{ id: string }>(
    `insert into articles (title, slug, excerpt, content, content_doc, featured_image, featured_image_alt, featured_image_caption, featured_image_credit,
                           author_name, category_id, status, published_at)
     select 'Bench ' || $2 || ': ' || title, $1, excerpt, content, content_doc, featured_image, featured_image_alt, featured_image_caption, featured_image_credit,
            author_name, category_id, 'scheduled', now() - interval '1 second'
     from articles where status = 'published' order by published_at desc limit 1
     returning id`,
    [slug, label],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error("the demo content has no published article to copy");
  await client.query(
    `insert into article_authors (article_id, author_id, position)
     select $1, author_id, position from article_authors
     where article_id = (select id from articles where status = 'published' and id <> $1 order by published_at desc limit 1)`,
    [id],
  );
  await client.query(`insert into article_newsletters (article_id, newsletter_id) select $1, id from newsletters where slug = 'stories'`, [id]);
  const published = await publishDueArticles(db);
  if (!published.some((article) => article.id === id)) throw new Error("the bench story was not published");
  return { id, slug };
}

interface SendRow {
  id: string;
  status: string;
  recipients: number;
  sent: number;
  may_be_duplicate: number;
  started_at: Date | null;
  finished_at: Date | null;
}

async function sendOf(client: pg.Client | pg.Pool, articleId: string): Promise<SendRow | null> {
  const { rows } = await client.query<SendRow>(
    `select s.id, s.status, s.recipients, s.started_at, s.finished_at,
       (select count(*) filter (where r.status = 'sent') from send_recipients r where r.send_id = s.id)::int as sent,
       (select count(*) filter (where r.may_be_duplicate) from send_recipients r where r.send_id = s.id)::int as may_be_duplicate
     from newsletter_sends s where s.article_id = $1`,
    [articleId],
  );
  return rows[0] ?? null;
}

// ---------------------------------------------------------------- the runs

interface Progress {
  /** ms since the publication when the sink saw its first and its last message. */
  firstMs: number | null;
  lastMs: number | null;
  stats: SinkStats;
}

/**
 * Polls the sink every 100 ms from `started` until `until(stats)` holds or `timeoutMs` passes; answers
 * when the first message arrived and when the count last rose (ms since `started`).
 */
async function follow(sink: SinkProcess, started: number, until: (stats: SinkStats) => boolean, timeoutMs: number, progress?: Progress): Promise<Progress> {
  const state: Progress = progress ?? { firstMs: null, lastMs: null, stats: await sink.stats() };
  let last = state.stats.accepted;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = await sink.stats();
    const at = performance.now() - started;
    if (stats.accepted > 0 && state.firstMs === null) state.firstMs = at;
    if (stats.accepted > last) state.lastMs = at;
    last = stats.accepted;
    state.stats = stats;
    if (until(stats)) return state;
    if (Date.now() > deadline) return state;
    await sleep(100);
  }
}

/** The sink's own ceiling: nodemailer's pool (the app's size) sending one rendered e-mail to `count` addresses, no app in between. */
export async function baselineRate(sink: SinkProcess, email: { subject: string; html: string; text: string; headers: Record<string, string> }, count: number): Promise<number> {
  await sink.reset();
  const transport = nodemailer.createTransport({ url: sink.url, pool: true, maxConnections: POOL, maxMessages: Infinity });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      await transport.sendMail({ from: "Bench <news@bench.example>", to: `baseline${n}@bench.example`, subject: email.subject, html: email.html, text: email.text, headers: email.headers });
    }
  };
  // A few messages queued per connection, so none waits on this process between two.
  await Promise.all(Array.from({ length: POOL * 4 }, worker));
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  const stats = await sink.stats();
  if (stats.accepted !== count) throw new Error(`the baseline sent ${count} messages but the sink accepted ${stats.accepted}`);
  return count / seconds;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

export async function newsletterBench(deps: NewsletterBenchDeps): Promise<boolean> {
  const { judge } = deps;
  let ok = true;
  const check = (pass: boolean) => {
    if (!pass) ok = false;
    return judge(pass);
  };
  ensureBuild();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "frontpage-bench-newsletter-"));
  spawnSync("chmod", ["755", dataDir]);
  const memory = new MemoryWatch();
  let sink: SinkProcess | null = null;
  let site: ChildProcess | null = null;
  let pool: pg.Pool | null = null;
  try {
    sink = await startSinkProcess();
    memory.watch(sink.pid, "SMTP sink");
    memory.start();
    site = startSite(dataDir, sink.url, true);
    memory.watch(site.pid!, "site primary (runs the send)", "site worker");
    await waitForSite();
    const base = `http://127.0.0.1:${SITE_PORT}`;
    const home = await (await fetch(`${base}/`)).text();
    const article = /href="(\/article\/[^"?#]+)"/.exec(home)?.[1];
    if (!article) throw new Error("no article linked from the home page");
    const url = databaseUrlOfDataDir(dataDir);
    const database = createDb(url, 4);
    pool = database.pool;
    const { db } = database;
    const workers = nodeChildrenOf(site.pid!).length;
    console.log(
      `newsletter: ${os.cpus().length} cores, Node ${process.version}; the site: a primary (runs the job queue and the send) and ${workers} workers; SMTP pool ${POOL}, NEWSLETTER_RATE ${process.env.NEWSLETTER_RATE ?? "1000 (default)"}`,
    );

    const seedStarted = performance.now();
    await seedSubscribers(pool, SUBSCRIBERS);
    console.log(`newsletter: ${fmt(SUBSCRIBERS)} active subscribers of Stories made by SQL in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

    // Rendered article pages at rest, after the same warm-up as `npm run bench`'s rendered rows.
    const pageUrl = `${base}${article}`;
    await deps.load(pageUrl, { connections: 10, seconds: RENDER_WARMUP_SECONDS, headers: deps.renderHeaders });
    const rest = await deps.load(pageUrl, { connections: 10, headers: deps.renderHeaders });

    // The baseline, while the sink is idle: the same e-mail (a story rendered by the same code the send
    // uses, personalised once), sent by nodemailer's pool alone, with no app and no database.
    const newsletter = (await newsletterById(db, (await pool.query<{ id: string }>(`select id from newsletters where slug = 'stories'`)).rows[0]!.id))!;
    const latest = (await pool.query<{ id: string }>(`select id from articles where status = 'published' order by published_at desc limit 1`)).rows[0]!.id;
    const rendered = await storyEmail(await emailSiteOf(db, base), newsletter, (await emailStoryOfArticle(db, latest, base))!);
    const unsubscribeUrl = `${base}/newsletter/unsubscribe/00000000-0000-0000-0000-000000000000.bench`;
    const personal = personalizeEmail(rendered, { unsubscribeUrl, preferencesUrl: `${base}/newsletter/preferences/bench` });
    // CPU time per message of each side, which a shared machine's load moves less than a rate.
    const baselineCpu = { bench: process.cpuUsage(), sink: cpuSecondsOf(sink.pid) ?? 0 };
    const loadBefore = os.loadavg()[0]!;
    const ceiling = await baselineRate(sink, { ...personal, headers: listUnsubscribeHeaders(unsubscribeUrl, "news@bench.example") }, BASELINE_MESSAGES);
    const baselineUsage = process.cpuUsage(baselineCpu.bench);
    const baselinePerMessage = {
      nodemailer: (baselineUsage.user + baselineUsage.system) / BASELINE_MESSAGES,
      sink: (((cpuSecondsOf(sink.pid) ?? 0) - baselineCpu.sink) * 1e6) / BASELINE_MESSAGES,
    };

    // Run 1: the whole send, with the page load in its middle.
    await sink.reset();
    const started = performance.now();
    const story = await publishStoryWithNewsletter(db, pool, "one");
    let progress = await follow(sink, started, (stats) => stats.accepted >= Math.min(5000, SUBSCRIBERS / 10), SEND_TIMEOUT_MS);
    const loadFrom = progress.stats.accepted;
    const during = await deps.load(pageUrl, { connections: 10, headers: deps.renderHeaders });
    const loadTo = (await sink.stats()).accepted;
    // From the end of the page load to the end of the send: the site's primary (the send), its PostgreSQL and the sink.
    const sendCpu = { primary: cpuSecondsOf(site.pid!) ?? 0, postgres: postgresCpuSeconds(dataDir), sink: cpuSecondsOf(sink.pid) ?? 0 };
    progress = await follow(sink, started, (stats) => stats.accepted >= SUBSCRIBERS, SEND_TIMEOUT_MS, progress);
    const cpuMessages = progress.stats.accepted - loadTo;
    const sendPerMessage = {
      primary: (((cpuSecondsOf(site.pid!) ?? 0) - sendCpu.primary) * 1e6) / cpuMessages,
      postgres: ((postgresCpuSeconds(dataDir) - sendCpu.postgres) * 1e6) / cpuMessages,
      sink: (((cpuSecondsOf(sink.pid) ?? 0) - sendCpu.sink) * 1e6) / cpuMessages,
    };
    // The send's row says sent once its last results are written.
    const until = Date.now() + 30_000;
    let send = await sendOf(pool, story.id);
    while (send?.status !== "sent" && Date.now() < until) {
      await sleep(200);
      send = await sendOf(pool, story.id);
    }
    const accepted = progress.stats.accepted;
    const totalSeconds = (progress.lastMs ?? performance.now() - started) / 1000;
    const rate = accepted / totalSeconds;
    const steadyRate = progress.firstMs !== null && progress.lastMs !== null && progress.lastMs > progress.firstMs ? accepted / ((progress.lastMs - progress.firstMs) / 1000) : 0;

    console.log(`\nnewsletter: one story to ${fmt(SUBSCRIBERS)} subscribers (e-mail ${fmt(Buffer.byteLength(rendered.html))} bytes of HTML)`);
    console.log(
      `send: ${fmt(accepted)} messages reached the sink in ${totalSeconds.toFixed(1)} s from the publication: ${fmt(rate)} messages/s (${fmt(steadyRate)}/s from the first message)  (target ≥ ${NEWSLETTER_TARGET.messagesPerSecond}/s: ${check(rate >= NEWSLETTER_TARGET.messagesPerSecond && accepted === SUBSCRIBERS)})`,
    );
    // The baseline again, after the send: on a shared machine the load moves between the minutes of
    // the two, and the mean of one before and one after stands for the minutes between.
    const loadDuring = os.loadavg()[0]!;
    const ceilingAfter = await baselineRate(sink, { ...personal, headers: listUnsubscribeHeaders(unsubscribeUrl, "news@bench.example") }, BASELINE_MESSAGES);
    const ceilingMean = (ceiling + ceilingAfter) / 2;
    const pct = (n: number) => `${((n / ceilingMean) * 100).toFixed(0)}%`;
    console.log(
      `send: baseline, nodemailer's pool of ${POOL} alone sending the same e-mail to the same sink: ${fmt(ceiling)} messages/s before the send (load average ${loadBefore.toFixed(1)}), ${fmt(ceilingAfter)} after it (${loadDuring.toFixed(1)} as the send ended), ${fmt(BASELINE_MESSAGES)} messages each; the app reaches ${pct(rate)} of their mean (${((rate / ceiling) * 100).toFixed(0)}% of the one before; ${pct(steadyRate)} from its first message, ${((progress.firstMs ?? 0) / 1000).toFixed(1)} s after the publication)`,
    );
    const us = (n: number) => `${Math.round(n)} µs`;
    console.log(
      `send: CPU per message: nodemailer alone ${us(baselinePerMessage.nodemailer)} + sink ${us(baselinePerMessage.sink)}; the app's send (its last ${fmt(cpuMessages)}) primary ${us(sendPerMessage.primary)} + PostgreSQL ${us(sendPerMessage.postgres)} + sink ${us(sendPerMessage.sink)}: the app's own work ${us(sendPerMessage.primary + sendPerMessage.postgres - baselinePerMessage.nodemailer)} a message`,
    );
    console.log(`send: the send's row says ${send?.status ?? "nothing"}, ${fmt(send?.sent ?? 0)} of ${fmt(send?.recipients ?? 0)} recipients sent, sink duplicates ${progress.stats.duplicates}`);
    const ratio = during.rps / rest.rps;
    const wholeWindow = loadTo < SUBSCRIBERS;
    console.log(
      `rendered article (${article}, 10 connections, session cookie): ${fmt(rest.rps)} req/s at rest, ${fmt(during.rps)} req/s during the send (p99 ${rest.p99.toFixed(1)} → ${during.p99.toFixed(1)} ms): ${(ratio * 100).toFixed(0)}%  (target ≥ ${NEWSLETTER_TARGET.renderedRatio * 100}%: ${check(ratio >= NEWSLETTER_TARGET.renderedRatio && wholeWindow)})${wholeWindow ? "" : " (the send ended during the load)"}${rest.failures + during.failures ? ` (${rest.failures + during.failures} failed)` : ""}`,
    );
    console.log(`  (the sink took ${fmt(loadTo - loadFrom)} messages during those ${SECONDS} s: ${fmt((loadTo - loadFrom) / SECONDS)}/s while the pages were loaded)`);

    if (accepted < SUBSCRIBERS || send?.status !== "sent") {
      console.log(`\nkill -9: not run: the first send did not finish within ${SEND_TIMEOUT_MS / 1000} s (BENCH_NEWSLETTER_TIMEOUT_S)  ${check(false)}`);
      return ok;
    }

    // Run 2: kill -9 at about half, start again, the send finishes.
    await sink.reset();
    const killStarted = performance.now();
    const second = await publishStoryWithNewsletter(db, pool, "two");
    const half = Math.floor(SUBSCRIBERS / 2);
    const before = await follow(sink, killStarted, (stats) => stats.accepted >= half, SEND_TIMEOUT_MS);
    const killedAtSeconds = (performance.now() - killStarted) / 1000;
    const killed = [site.pid!, ...nodeChildrenOf(site.pid!)];
    for (const pid of killed) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    const siteExit = new Promise((resolve) => site!.once("exit", resolve));
    if (site.exitCode === null && site.signalCode === null) await siteExit;
    memory.sample();
    // The killed process's connections close with it: what the sink had then is all it gets from it.
    await sleep(500);
    const atKill = (await sink.stats()).accepted;
    const restartStarted = performance.now();
    site = startSite(dataDir, sink.url, false);
    memory.watch(site.pid!, "site primary (runs the send)", "site worker");
    await waitForSite();
    const restartSeconds = (performance.now() - restartStarted) / 1000;
    const after = await follow(sink, killStarted, (stats) => stats.recipients >= SUBSCRIBERS, SEND_TIMEOUT_MS, before);
    const finishUntil = Date.now() + 60_000;
    let secondSend = await sendOf(pool, second.id);
    while (secondSend?.status !== "sent" && Date.now() < finishUntil) {
      await sleep(200);
      secondSend = await sendOf(pool, second.id);
    }
    // Anything still arriving after the send says it has finished would be a duplicate: a moment to see it.
    await sleep(1000);
    const final = await sink.stats();
    console.log(
      `\nkill -9: the site (${killed.length} processes) killed when the sink had ${fmt(atKill)} of ${fmt(SUBSCRIBERS)} (at ${killedAtSeconds.toFixed(1)} s); started again in ${restartSeconds.toFixed(1)} s; the send ${secondSend?.status === "sent" && secondSend.started_at && secondSend.finished_at ? `finished ${((secondSend.finished_at.getTime() - secondSend.started_at.getTime()) / 1000).toFixed(1)} s after it started` : `is ${secondSend?.status ?? "missing"}`}; the sink's last message at ${((after.lastMs ?? 0) / 1000).toFixed(1)} s`,
    );
    console.log(`kill -9: distinct recipients at the sink ${fmt(final.recipients)}  (target ${fmt(SUBSCRIBERS)}: ${check(final.recipients === SUBSCRIBERS && secondSend?.status === "sent")})`);
    console.log(
      `kill -9: recipients who got it twice ${final.duplicates} (of ${fmt(final.accepted)} accepted); the send lists ${secondSend?.may_be_duplicate ?? 0} as "may have been sent twice"  (target duplicates ≤ pool size ${POOL} + claim batch ${CLAIM_BATCH} and ≤ the listed: ${check(final.duplicates <= POOL + CLAIM_BATCH && final.duplicates <= (secondSend?.may_be_duplicate ?? 0))})`,
    );

    memory.stop();
    console.log("\nmemory: peak RSS (VmHWM) of each process over both runs");
    for (const row of memory.byLabel()) {
      console.log(`  ${row.label.padEnd(32)} ${String(row.mb).padStart(5)} MB${row.processes > 1 ? ` (highest of ${row.processes})` : ""}  (target ≤ ${NEWSLETTER_TARGET.rssMb} MB: ${check(row.mb <= NEWSLETTER_TARGET.rssMb)})`);
    }
    return ok;
  } finally {
    memory.stop();
    await pool?.end().catch(() => {});
    if (site) await stopSite(site);
    if (sink) await sink.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
