import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { clusterDirOf } from "../../server/postgres-placement";
import { signInWith, toastWith } from "./admin-session";
import { expect, test, waitForHydration, type Page } from "./fixtures";

// Issue 32, "Behind a CDN" (decision 0045): Debian's Varnish with the xkey vmod, started here with the
// shipped deploy/varnish/default.vcl (only its included backend file is this test's: the origin's port
// and the purge ACL), in front of a production build started with CDN=varnish. A page is served from
// Varnish; a correction saved in the back office shows through Varnish within 1 s; an unpublished story
// answers 404 through Varnish within 1 s; nothing signed in, and nothing of the back office, is ever a
// Varnish hit; PURGE from an address outside the ACL is refused. And Varnish started after Frontpage
// (issue 39): purging turns on once it answers.

const ROOT = path.resolve(import.meta.dirname, "../..");
const VARNISH_PORT = 4612;
/** The origin's port: fixed, as Varnish's backend file names it before the origin starts. */
const ORIGIN_PORT = 4613;
const VARNISH = `http://127.0.0.1:${VARNISH_PORT}`;
const ADMIN = { email: "varnish-admin@example.com", password: "varnish-journey-password-5" };

const varnishd = ["/usr/sbin/varnishd", "/usr/bin/varnishd"].find((candidate) => spawnSync(candidate, ["-V"]).status === 0);

interface Process {
  child: ChildProcess;
  output: () => string;
  exited: Promise<unknown>;
}

/** Process groups still running: ended even if this worker exits without reaching the test's `finally`. */
const running = new Set<number>();
process.once("exit", () => {
  for (const group of running) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // gone already
    }
  }
});

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Process {
  // Its own process group: ended as one (varnishd's manager and child, or the server) at the end.
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env });
  running.add(child.pid!);
  child.once("exit", () => running.delete(child.pid!));
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { child, output: () => output, exited };
}

async function stop(proc: Process | null) {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  // The leader alone: the server stops its PostgreSQL itself, varnishd's manager its child.
  proc.child.kill("SIGTERM");
  const ended = await Promise.race([proc.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 20_000))]);
  if (!ended) process.kill(-proc.child.pid!, "SIGKILL");
}

/** Waits until `proc` printed `pattern`; fails with what it printed if it exits or takes longer than `ms`. */
async function waitForOutput(proc: Process, pattern: RegExp, ms: number) {
  const deadline = Date.now() + ms;
  while (!pattern.test(proc.output())) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null || Date.now() > deadline) {
      throw new Error(`${pattern} not printed (exit ${proc.child.exitCode ?? proc.child.signalCode ?? "none yet"}):\n${proc.output().slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A request through Varnish (or `base`: the origin itself), no cookie unless given, with its status, X-Cache and body. */
async function get(pathname: string, headers: Record<string, string> = {}, base = VARNISH) {
  const response = await fetch(`${base}${pathname}`, { headers, redirect: "manual" });
  return { status: response.status, cache: response.headers.get("x-cache"), age: response.headers.get("age"), headers: response.headers, body: await response.text() };
}

/**
 * Waits (up to 5 s) until Varnish at `base` answers `pathname` from its store. A change's own purges
 * go through the job queue a few hundred ms after its statements (one per statement, a few ms apart),
 * so a copy fetched meanwhile is dropped by them: the page counts as stored once they have landed.
 */
async function expectStored(pathname: string, base = VARNISH) {
  await expect.poll(async () => (await get(pathname, {}, base)).cache, { timeout: 5000, intervals: [100] }).toBe("HIT");
}

/** PURGE through Varnish from `localAddress` (another loopback address stands for a stranger's machine). */
function purgeFrom(localAddress: string, keys: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${VARNISH}/`, { method: "PURGE", localAddress, headers: { "xkey-purge": keys } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject);
    request.end();
  });
}

/** Does `act` (a click that posts `intent` on the article form) and answers when its answer came (Date.now()). */
async function answered(page: Page, intent: string, act: () => Promise<void>): Promise<number> {
  const response = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/admin/articles/edit/") && new RegExp(`(^|&)intent=${intent}(&|$)|name="intent"\r\n\r\n${intent}\r\n`).test(r.request().postData() ?? ""),
    { timeout: 60_000 },
  );
  await act();
  expect((await response).status(), "the save is answered").toBeLessThan(300);
  return Date.now();
}

function databaseUrlOf(dataDir: string): string {
  const { postgresPassword } = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as { postgresPassword: string };
  const port = Number(readFileSync(path.join(clusterDirOf(dataDir), "postmaster.pid"), "utf8").split("\n")[3]);
  return `postgres://frontpage:${encodeURIComponent(postgresPassword)}@127.0.0.1:${port}/frontpage`;
}

/** A working directory Varnish's child can read, with the data dir and the backend file naming `originPort`. */
function workDir(originPort: number): { work: string; dataDir: string } {
  const work = mkdtempSync(path.join(os.tmpdir(), "frontpage-varnish-"));
  // Varnish's child runs as its own user: it must reach its working directory and the included file.
  chmodSync(work, 0o755);
  const dataDir = path.join(work, "data");
  mkdirSync(dataDir, { mode: 0o755 });
  writeFileSync(
    path.join(work, "frontpage-backend.vcl"),
    `backend origin {\n  .host = "127.0.0.1";\n  .port = "${originPort}";\n  .probe = { .url = "/healthz"; .interval = 1s; .timeout = 2s; .window = 3; .threshold = 2; }\n}\nacl purgers {\n  "127.0.0.1";\n}\n`,
  );
  return { work, dataDir };
}

/** varnishd on `port` with the shipped VCL, once it takes a PURGE (400 without keys: the ACL let it in). */
async function startVarnish(work: string, port: number): Promise<Process> {
  const cache = run(varnishd!, [
    "-F",
    "-n",
    path.join(work, "varnish"),
    "-a",
    `127.0.0.1:${port}`,
    // The shipped VCL as it is; its `include "frontpage-backend.vcl"` finds this test's file first.
    "-f",
    path.join(ROOT, "deploy/varnish/default.vcl"),
    "-p",
    `vcl_path=${work}:${path.join(ROOT, "deploy/varnish")}`,
    "-s",
    "malloc,64m",
    "-T",
    "none",
  ]);
  await expect
    .poll(() => fetch(`http://127.0.0.1:${port}`, { method: "PURGE" }).then((r) => r.status, () => 0), { timeout: 30_000, message: `varnishd did not start:\n${cache.output()}` })
    .toBe(400);
  return cache;
}

/** The production build on `port`, with CDN=varnish purging `varnish` (also the site's public face). */
function startOrigin(work: string, dataDir: string, port: number, varnish: string): Process {
  // The production build as `npm start` runs it, through an entry file of this test's (a command line
  // of its own, so nothing that stops other e2e servers by name stops this one).
  const entry = path.join(work, "varnish-origin.mjs");
  writeFileSync(entry, `import ${JSON.stringify(path.join(ROOT, "build/node/index.js"))};\n`);
  return run(process.execPath, [entry], {
    ...process.env,
    NODE_ENV: "production",
    WEB_CONCURRENCY: "1",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    SEED_DEMO: "0",
    LOG_LEVEL: "info",
    PUBLIC_URL: varnish,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    CDN: "varnish",
    VARNISH_URL: varnish,
  });
}

/** The origin's database; a lost connection fails the step that uses it, not the whole worker (which would skip the cleanup). */
async function connectTo(dataDir: string): Promise<pg.Client> {
  const db = new pg.Client({ connectionString: databaseUrlOf(dataDir) });
  db.on("error", () => {});
  await db.connect();
  return db;
}

test("behind Varnish: pages are served from it, a correction and an unpublish show within 1 s, nothing signed in is stored", async ({ browser }) => {
  test.skip(!varnishd, "varnishd is not installed here (Debian: apt install varnish varnish-modules; .ci/run installs them)");
  test.setTimeout(240_000);
  const { work, dataDir } = workDir(ORIGIN_PORT);
  let cache: Process | null = null;
  let origin: Process | null = null;
  let db: pg.Client | null = null;
  try {
    cache = await startVarnish(work, VARNISH_PORT);
    origin = startOrigin(work, dataDir, ORIGIN_PORT, VARNISH);
    await waitForOutput(origin, /Frontpage is ready/, 150_000);
    await waitForOutput(origin, /CDN purge on: varnish/, 15_000);
    // Varnish fetches from the origin once its health check has seen it answer.
    await expect.poll(async () => (await get("/healthz")).status, { timeout: 30_000 }).toBe(200);

    db = await connectTo(dataDir);
    const run36 = Date.now().toString(36);
    const slug = `harbour-bridge-${run36}`;
    const { rows } = await db.query<{ id: string }>(
      `insert into articles (title, slug, content, status, published_at) values ($1, $2, 'The bridge reopens on Monday.', 'published', now() - interval '1 hour') returning id`,
      [`Harbour bridge reopens ${run36}`, slug],
    );
    const id = rows[0]!.id;

    // 1. Served from Varnish: the origin's answer is public for a day (purged on change), tagged; the second is a hit.
    const first = await get(`/article/${slug}`);
    expect(first.status).toBe(200);
    expect(first.cache).toBe("MISS");
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=86400");
    expect(first.headers.get("surrogate-key")).toContain(`article:${slug}`);
    await expectStored(`/article/${slug}`);
    const second = await get(`/article/${slug}`);
    expect(second.cache).toBe("HIT");
    expect(second.body).toContain(`Harbour bridge reopens ${run36}`);
    expect((await get("/")).cache).toMatch(/MISS|HIT/);
    expect((await get("/")).cache).toBe("HIT");

    // PURGE is the ACL's alone: from another address, 403, and the page stays stored.
    expect(await purgeFrom("127.0.0.2", `article:${slug}`)).toBe(403);
    expect((await get(`/article/${slug}`)).cache).toBe("HIT");

    // 2. The editor, through Varnish like any reader: nothing of theirs is ever a Varnish hit.
    const context = await browser.newContext({ baseURL: VARNISH });
    const page = await context.newPage();
    const signedIn: { url: string; cache: string | null }[] = [];
    page.on("response", (response) => {
      const pathname = new URL(response.url()).pathname;
      if (pathname.startsWith("/admin") || pathname.startsWith("/api")) signedIn.push({ url: pathname, cache: response.headers()["x-cache"] ?? null });
    });
    await signInWith(page, ADMIN);
    // A signed-in reader's article page: passed to the origin, twice.
    for (let i = 0; i < 2; i++) {
      const answer = await page.request.get(`/article/${slug}`);
      expect(answer.headers()["x-cache"]).toBe("PASS");
      expect(answer.headers()["cache-control"]).toBe("private, no-store");
    }

    // A correction, saved in the back office.
    await page.goto(`/admin/articles/edit/${id}`, { waitUntil: "networkidle" });
    await waitForHydration(page.getByRole("button", { name: "Unpublish…" }));
    const note = `An earlier version gave the wrong reopening day (${run36}).`;
    await page.getByLabel("Kind").selectOption("correction");
    await page.getByLabel("Note *").fill(note);
    const saved = await answered(page, "add-note", () => page.getByRole("button", { name: "Add note" }).click());
    await expect.poll(async () => (await get(`/article/${slug}`)).body.includes(note), { timeout: 1000, intervals: [25] }).toBe(true);
    const corrected = Date.now() - saved;
    expect(corrected).toBeLessThan(1000);
    test.info().annotations.push({ type: "correction through Varnish", description: `${corrected} ms after the save was answered` });
    await expect(toastWith(page, "Note added")).toBeVisible({ timeout: 30_000 });
    // Stored again, corrected (the poll above may have read the page between the save's purges).
    await expectStored(`/article/${slug}`);
    const again = await get(`/article/${slug}`);
    expect(again.cache).toBe("HIT");
    expect(again.body).toContain(note);

    // 3. Unpublished (a takedown): 404 through Varnish within 1 s, and not stored as a page.
    await page.getByRole("button", { name: "Unpublish…" }).click();
    const unpublished = await answered(page, "unpublish", () => page.getByRole("alertdialog", { name: "Take this story off the site?" }).getByRole("button", { name: "Unpublish" }).click());
    await expect.poll(async () => (await get(`/article/${slug}`)).status, { timeout: 1000, intervals: [25] }).toBe(404);
    const takenDown = Date.now() - unpublished;
    expect(takenDown).toBeLessThan(1000);
    test.info().annotations.push({ type: "404 through Varnish", description: `${takenDown} ms after the unpublish was answered` });
    await expect(toastWith(page, "Article unpublished")).toBeVisible({ timeout: 30_000 });
    // The 404 may be kept (30 s, tagged as the article: publishing it again purges it), never the page.
    const gone = await get(`/article/${slug}`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30");
    // Nor on the home page, whose copy Varnish dropped too.
    expect((await get("/")).body).not.toContain(`Harbour bridge reopens ${run36}`);

    // Every back-office answer went to the origin (PASS), none came from Varnish's store.
    await page.goto("/admin", { waitUntil: "networkidle" });
    expect(signedIn.length).toBeGreaterThan(5);
    expect(signedIn.filter((answer) => answer.cache !== "PASS")).toEqual([]);
    // …and so does the sign-in page, anonymous or not.
    expect((await get("/admin/login")).cache).toBe("PASS");
    expect((await get("/admin/login")).cache).toBe("PASS");
    await context.close();

    // 4. Published again (as a live story): the 404 Varnish kept is purged with the article's tag.
    await db.query(`update articles set status = 'published', live_started_at = now() where id = $1`, [id]);
    await expect.poll(async () => (await get(`/article/${slug}`)).status, { timeout: 1000, intervals: [25] }).toBe(200);
    // Its event stream goes through Varnish as it comes (not held until it ends).
    const stream = await new Promise<string>((resolve, reject) => {
      const request = http.get(`${VARNISH}/api/live/${id}`, { headers: { Accept: "text/event-stream" } }, (response) => {
        let received = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          received += chunk;
          if (received.includes("\n\n")) {
            request.destroy();
            resolve(`${response.statusCode} ${response.headers["x-cache"]} ${received}`);
          }
        });
      });
      request.on("error", reject);
      setTimeout(() => reject(new Error("the live stream sent nothing within 5 s through Varnish")), 5000).unref();
    });
    expect(stream).toBe("200 PASS retry: 2000\n\n");
  } finally {
    await db?.end().catch(() => {});
    await stop(origin);
    await stop(cache);
    rmSync(work, { recursive: true, force: true });
  }
});

test("Varnish started after Frontpage: 30 s in shared caches while it does not answer, then a day once it does, and a change is purged (issue 39)", async () => {
  test.skip(!varnishd, "varnishd is not installed here (Debian: apt install varnish varnish-modules; .ci/run installs them)");
  test.setTimeout(240_000);
  // Ports of their own: nothing of the journey above is reused.
  const [varnishPort, originPort] = [VARNISH_PORT + 2, ORIGIN_PORT + 2];
  const varnish = `http://127.0.0.1:${varnishPort}`;
  const origin = `http://127.0.0.1:${originPort}`;
  const { work, dataDir } = workDir(originPort);
  let cache: Process | null = null;
  let server: Process | null = null;
  let db: pg.Client | null = null;
  try {
    // Frontpage first, its purge target not there yet: waiting, not off.
    server = startOrigin(work, dataDir, originPort, varnish);
    await waitForOutput(server, /Frontpage is ready/, 150_000);
    await waitForOutput(server, /CDN purge waiting: varnish purge refused: could not reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/, 15_000);
    expect(server.output()).not.toMatch(/CDN purge off/);
    // Meanwhile the origin tells shared caches 30 s.
    expect((await get("/", {}, origin)).headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30");

    // Varnish comes up (systemd started it later, or restarted it): purging turns on by itself.
    const startedAt = Date.now();
    cache = await startVarnish(work, varnishPort);
    await waitForOutput(server, /CDN purge on: varnish/, 60_000);
    test.info().annotations.push({ type: "purging on", description: `${Date.now() - startedAt} ms after Varnish answered` });
    await expect.poll(async () => (await get("/healthz", {}, varnish)).status, { timeout: 30_000 }).toBe(200);

    // A story never shown before: a day in Varnish, stored, then purged by a change within 1 s.
    db = await connectTo(dataDir);
    const run36 = Date.now().toString(36);
    const slug = `ferry-timetable-${run36}`;
    await db.query(`insert into articles (title, slug, content, status, published_at) values ($1, $2, 'The ferry runs hourly.', 'published', now() - interval '1 hour')`, [
      `Ferry timetable ${run36}`,
      slug,
    ]);
    const first = await get(`/article/${slug}`, {}, varnish);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=86400");
    await expectStored(`/article/${slug}`, varnish);
    const changed = Date.now();
    await db.query(`update articles set title = $1 where slug = $2`, [`Ferry timetable changed ${run36}`, slug]);
    await expect.poll(async () => (await get(`/article/${slug}`, {}, varnish)).body.includes(`Ferry timetable changed ${run36}`), { timeout: 1000, intervals: [25] }).toBe(true);
    test.info().annotations.push({ type: "purged through Varnish", description: `${Date.now() - changed} ms after the change` });
  } finally {
    await db?.end().catch(() => {});
    await stop(server);
    await stop(cache);
    rmSync(work, { recursive: true, force: true });
  }
});
