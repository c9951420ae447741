/**
 * `npm run bench -- --members` (issue 40): what members cost the reader site. One gated (Paid) demo
 * story, its paywall after its first paragraph, read through the built site (one process, a new data
 * directory with the demo content) by:
 * - an anonymous reader of a public demo story, from the page cache: the baseline every other row is
 *   divided by (the anonymous cached article, as `npm run bench` measures it; the bodies' sizes are printed);
 * - a paying member (their session and signed pass): the whole story;
 * - an anonymous reader on the meter with stories left: the whole story and a moved meter cookie, each time;
 * - a signed-in free member (meter 0 for members): their teaser;
 * each in interleaved rounds with the baseline (target ≥ 0.8× each), then the same readers rendered
 * (a staff session cookie bypasses the cache, so every request renders) beside the anonymous render.
 * Each reader's answer is checked first: the gated paragraph is in the whole story and in no teaser.
 * Loopback only, bounded in time.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDb } from "../app/db/client.server";
import type { StoryDocument } from "../app/domain/articles/story-document.schema";
import { storyFromPlainText, storyPlainText } from "../app/domain/articles/story-document";
import { splitAtPaywall } from "../app/domain/members/paywall";
import { createMemberAuth, MEMBER_SESSION_COOKIE } from "../app/domain/members/member-auth.server";
import { ACCESS_COOKIE, METER_COOKIE } from "../app/domain/members/reader-cookies";
import { createLogger } from "../app/lib/logger.server";
import { ReaderAccess } from "../server/reader-access";
import { databaseUrlOfDataDir, type LoadRow } from "./bench-newsletter";
import { ensureBuild, SERVER_ENTRY } from "./ensure-build.mjs";

const SITE_PORT = Number(process.env.BENCH_MEMBERS_PORT ?? 3296);
const BASE = `http://127.0.0.1:${SITE_PORT}`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
/** A cookie that makes every request a render (a staff session's page is never cached; this one is no real session). */
const RENDER_COOKIE = "better-auth.session_token=bench";
export const MEMBERS_TARGET = { cachedRatio: 0.8 };

export interface MembersBenchDeps {
  judge: (ok: boolean) => string;
  load: (url: string, options: { connections: number; seconds?: number; headers?: Record<string, string> }) => Promise<LoadRow>;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForHome(deadlineMs = 180_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${BASE}/`)).status === 200) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error("the site did not answer within 180 s");
}

/** The cookies an answer sets, merged into `jar` (name → value). */
function keep(response: Response, jar: Map<string, string>) {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";")[0]!;
    jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
  }
  return jar;
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

export async function membersBench({ judge, load }: MembersBenchDeps): Promise<boolean> {
  ensureBuild();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "frontpage-bench-members-"));
  let site: ChildProcess | null = null;
  let pool: pg.Pool | null = null;
  let ok = true;
  try {
    site = spawn(process.execPath, ["--enable-source-maps", SERVER_ENTRY], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production", PORT: String(SITE_PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, SEED_DEMO: "1", LOG_LEVEL: "warn", WEB_CONCURRENCY: "1" },
    });
    await waitForHome();
    const database = createDb(databaseUrlOfDataDir(dataDir), 2);
    pool = database.pool;
    const { db } = database;
    const { sessionSecret } = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as { sessionSecret: string };

    // The demo story with the most paragraphs becomes Paid (any paid tier), cut after its first paragraph.
    const { rows: stories } = await pool.query<{ id: string; slug: string; content: string; content_doc: unknown }>(
      `select id, slug, content, content_doc from articles where status = 'published' order by array_length(regexp_split_to_array(content, E'\\n\\n'), 1) desc limit 1`,
    );
    const story = stories[0]!;
    // The first words of what the paywall hides, cut as the site cuts it (after the first paragraph).
    const doc = (story.content_doc as StoryDocument | null) ?? storyFromPlainText(story.content);
    const gatedSentence = storyPlainText(splitAtPaywall(doc, 1).gated).slice(0, 60);
    if (!gatedSentence) throw new Error("no demo story has two paragraphs");
    await pool.query(`update website_settings set paywall_paragraphs = 1, meter_anonymous = 50, meter_members = 0`);
    await pool.query(`update articles set access = 'paid', access_tier_id = null where id = $1`, [story.id]);
    const { rows: tiers } = await pool.query<{ id: string }>(
      `insert into member_tiers (name, slug, monthly_price, yearly_price, currency) values ('Supporter', 'supporter', 500, 5000, 'usd') returning id`,
    );

    // Two members signed in through the members' Better Auth (the site's own secret): one paying, one free.
    const tokens: string[] = [];
    const memberAuth = createMemberAuth({ db, baseURL: BASE, secret: sessionSecret, log: createLogger("silent"), sendSignInLink: async (_email, token) => void tokens.push(token), sendEmailChangeLink: async () => {} });
    const signIn = async (email: string) => {
      await memberAuth.api.signInMagicLink({ body: { email }, headers: new Headers({ origin: BASE }) });
      const answer = await memberAuth.api.magicLinkVerify({ query: { token: tokens.at(-1)! }, headers: new Headers({ origin: BASE }), asResponse: true });
      const session = answer.headers.getSetCookie().find((cookie) => cookie.startsWith(`${MEMBER_SESSION_COOKIE}=`))!.split(";")[0]!;
      const { rows } = await pool!.query<{ id: string }>(`select id from subscribers where email = $1`, [email]);
      return { session, id: rows[0]!.id };
    };
    const paying = await signIn("paying-member@bench.example");
    await pool.query(
      `insert into member_subscriptions (member_id, stripe_subscription_id, stripe_customer_id, tier_id, status, cadence, amount, currency, started_at)
       values ($1, 'sub_bench', 'cus_bench', $2, 'active', 'month', 500, 'usd', now())`,
      [paying.id, tiers[0]!.id],
    );
    const free = await signIn("free-member@bench.example");
    // Settings and the story changed: wait until the site shows the teaser.
    const url = `${BASE}/article/${story.slug}`;
    const spent = new ReaderAccess(sessionSecret, { secure: false }).sign({ p: Date.now(), r: Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`) });
    for (let i = 0; i < 100 && (await (await fetch(url, { headers: { cookie: `${METER_COOKIE}=${spent}` } })).text()).includes(gatedSentence); i++) await sleep(100);

    // Each reader's cookies, as their browser holds them after a first visit (a pass issued, a meter begun).
    const readers: { label: string; cookie: string; whole: boolean }[] = [];
    const passOf = async (session: string) => cookieHeader(keep(await fetch(url, { headers: { cookie: session } }), new Map([[session.split("=")[0]!, session.slice(session.indexOf("=") + 1)]])));
    readers.push({ label: "paying member (whole story)", cookie: await passOf(paying.session), whole: true });
    // A meter with stories left: every answer moves it (signs a new cookie), as a first read of each story does.
    const meter = new ReaderAccess(sessionSecret, { secure: false }).sign({ p: Date.now(), r: [] });
    readers.push({ label: "anonymous on the meter (whole)", cookie: `${METER_COOKIE}=${meter}`, whole: true });
    readers.push({ label: "free member (teaser)", cookie: await passOf(free.session), whole: false });

    // The baseline: a public demo story, read anonymously from the page cache.
    const { rows: publicStories } = await pool.query<{ slug: string }>(`select slug from articles where status = 'published' and access = 'public' and id <> $1 order by published_at desc limit 1`, [story.id]);
    const baselineUrl = `${BASE}/article/${publicStories[0]!.slug}`;
    // Correctness first: the gated paragraph in the whole story, in no teaser (an anonymous reader past the meter included).
    const teaser = await (await fetch(url, { headers: { cookie: `${METER_COOKIE}=${spent}` } })).text();
    if (teaser.includes(gatedSentence)) throw new Error("the anonymous teaser holds the gated paragraph");
    const sizes: string[] = [`public story ${(await (await fetch(baselineUrl)).arrayBuffer()).byteLength.toLocaleString("en-US")} B`, `teaser ${teaser.length.toLocaleString("en-US")} B`];
    for (const reader of readers) {
      const answer = await fetch(url, { headers: { cookie: reader.cookie } });
      const body = await answer.text();
      if (body.includes(gatedSentence) !== reader.whole) throw new Error(`${reader.label}: the gated paragraph is ${reader.whole ? "missing" : "there"}`);
      if (!reader.cookie.includes(ACCESS_COOKIE) && !reader.cookie.includes(METER_COOKIE)) throw new Error(`${reader.label}: no pass or meter`);
      if (answer.headers.get("cache-control") !== "private, no-store") throw new Error(`${reader.label}: a shared cache could keep this answer (${answer.headers.get("cache-control")})`);
      sizes.push(`${reader.label} ${body.length.toLocaleString("en-US")} B`);
    }

    console.log(`members: ${os.cpus().length} cores, Node ${process.version}; one site process; story ${story.slug} (Paid, cut after its first paragraph)`);
    console.log(`\ncached article views (the page cache's door), 50 connections, gzip, median of ${ROUNDS} interleaved rounds; baseline: the anonymous cached article (${publicStories[0]!.slug})`);
    console.log(`HTML sizes (identity): ${sizes.join(", ")}`);
    console.log("reader                              req/s  anonymous  ratio   p50 ms   p99 ms  target (ratio ≥ 0.80)");
    const headers = (cookie?: string) => ({ "accept-encoding": "gzip", "user-agent": CHROME, ...(cookie ? { cookie } : {}) });
    await load(baselineUrl, { connections: 50, seconds: 1, headers: headers() });
    for (const reader of readers) {
      await load(url, { connections: 50, seconds: 1, headers: headers(reader.cookie) });
      const ours: LoadRow[] = [];
      const base: LoadRow[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        base.push(await load(baselineUrl, { connections: 50, headers: headers() }));
        ours.push(await load(url, { connections: 50, headers: headers(reader.cookie) }));
      }
      const [rps, floor] = [median(ours.map((row) => row.rps)), median(base.map((row) => row.rps))];
      const ratio = rps / floor;
      const failures = ours.reduce((sum, row) => sum + row.failures, 0);
      const met = ratio >= MEMBERS_TARGET.cachedRatio && failures === 0;
      ok &&= met;
      console.log(
        `${reader.label.padEnd(34)} ${String(rps).padStart(6)} ${String(floor).padStart(10)} ${ratio.toFixed(2).padStart(6)} ${median(ours.map((r) => r.p50)).toFixed(1).padStart(8)} ${median(ours.map((r) => r.p99)).toFixed(1).padStart(8)}  ${judge(met)}${failures ? ` (${failures} failed)` : ""}`,
      );
    }

    console.log(`\nrendered article views (a staff session cookie bypasses the cache: every request renders), 10 connections, median of ${ROUNDS} rounds`);
    console.log("reader                              req/s   p50 ms   p99 ms  ÷ anonymous rendered");
    // Members' rows only: a render for one reader is not metered (the meter is the door's).
    const rendered = [
      { label: "anonymous (teaser)", cookie: `${RENDER_COOKIE}; ${METER_COOKIE}=${spent}` },
      ...readers.filter((reader) => reader.cookie.includes(ACCESS_COOKIE)).map((reader) => ({ label: reader.label, cookie: `${RENDER_COOKIE}; ${reader.cookie}` })),
    ];
    let anonymousRendered = NaN;
    for (const reader of rendered) {
      await load(url, { connections: 10, seconds: 2, headers: headers(reader.cookie) });
      const rows: LoadRow[] = [];
      for (let round = 0; round < ROUNDS; round++) rows.push(await load(url, { connections: 10, headers: headers(reader.cookie) }));
      const rps = median(rows.map((row) => row.rps));
      if (Number.isNaN(anonymousRendered)) anonymousRendered = rps;
      console.log(
        `${reader.label.padEnd(34)} ${String(rps).padStart(6)} ${median(rows.map((r) => r.p50)).toFixed(1).padStart(8)} ${median(rows.map((r) => r.p99)).toFixed(1).padStart(8)}  ${(rps / anonymousRendered).toFixed(2).padStart(6)}`,
      );
    }
    return ok;
  } finally {
    await pool?.end().catch(() => {});
    if (site && site.exitCode === null) {
      site.kill("SIGTERM");
      await new Promise((resolve) => site!.once("exit", resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}
