import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { clusterDirOf } from "../../server/postgres-placement";
import { signInThroughApi } from "./admin-session";
import { expect, test } from "./fixtures";

// Issue 31, acceptance 3: two server processes on one PostgreSQL (not a cluster: two `npm start`s, as
// two machines behind a load balancer would run), and an update posted through the back office of the
// first reaches a reader connected to the second, through PostgreSQL LISTEN/NOTIFY alone.
const ROOT = path.resolve(import.meta.dirname, "../..");
const ADMIN = { email: "live-admin@example.com", password: "live-two-processes-password-7" };

interface Server {
  child: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** The production build as `npm start` runs it, one process (WEB_CONCURRENCY=1), on a free port. */
async function start(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ["build/node/index.js"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production", WEB_CONCURRENCY: "1", HOST: "127.0.0.1", PORT: "0", SEED_DEMO: "0", LOG_LEVEL: "info", PUBLIC_URL: "", ...env },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await expect.poll(() => /Frontpage is ready: listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], { timeout: 90_000 }).toBeTruthy();
  return { child, base: /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!, output: () => output, exited };
}

/** The first process's embedded PostgreSQL, as tests/e2e/db.ts finds the e2e server's. */
function databaseUrlOf(dataDir: string): string {
  const { postgresPassword } = JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as { postgresPassword: string };
  const port = Number(readFileSync(path.join(clusterDirOf(dataDir), "postmaster.pid"), "utf8").split("\n")[3]);
  return `postgres://frontpage:${encodeURIComponent(postgresPassword)}@127.0.0.1:${port}/frontpage`;
}

test("an update posted through one server process reaches a reader connected to another within 2 s", async () => {
  test.setTimeout(180_000);
  const first = mkdtempSync(path.join(os.tmpdir(), "frontpage-live-one-"));
  const second = mkdtempSync(path.join(os.tmpdir(), "frontpage-live-two-"));
  chmodSync(first, 0o755);
  chmodSync(second, 0o755);
  const servers: Server[] = [];
  let db: pg.Client | null = null;
  let stream: http.ClientRequest | null = null;
  try {
    // Process 1 owns PostgreSQL (embedded, in its data directory) and the administrator.
    const one = await start({ DATA_DIR: first, DATABASE_URL: "", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    servers.push(one);
    const databaseUrl = databaseUrlOf(first);
    // Process 2: another server on the same database, nothing shared with process 1 but PostgreSQL.
    const two = await start({ DATA_DIR: second, DATABASE_URL: databaseUrl });
    servers.push(two);

    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const { rows } = await db.query<{ id: string }>(
      `insert into articles (title, slug, content, status, published_at, live_started_at)
       values ('Election night, live', 'election-night-live', 'What we know so far.', 'published', now() - interval '1 hour', now())
       returning id`,
    );
    const storyId = rows[0]!.id;

    // A reader of process 2's stream, reading every byte as it comes.
    let received = "";
    const opened = new Promise<number>((resolve, reject) => {
      stream = http.get(`${two.base}/api/live/${storyId}`, { headers: { Accept: "text/event-stream" } }, (response) => {
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (received += chunk));
        resolve(response.statusCode ?? 0);
      });
      stream.on("error", reject);
    });
    expect(await opened).toBe(200);
    await expect.poll(() => received).toBe("retry: 2000\n\n");

    // The admin signs in on process 1 and posts the "Live updates" form there.
    const { response: signIn, cookie } = await signInThroughApi(one.base, one.base, ADMIN);
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    const postedAt = Date.now();
    const posted = await fetch(`${one.base}/admin/articles/live/${storyId}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: one.base, Cookie: cookie },
      body: new URLSearchParams({ intent: "post", headline: "Polls close in the east", content: "The first results are expected within the hour.", contentDoc: "", authorId: "", keyEvent: "" }),
      redirect: "manual",
    });
    expect(posted.status).toBe(200);
    const [update] = (await db.query<{ id: string; version: string }>(`select id, version from live_updates where article_id = $1`, [storyId])).rows;
    expect(update).toBeDefined();

    // Process 2 heard it from PostgreSQL and pushed it: within 2 s of the post.
    await expect.poll(() => received.includes(`id: ${update!.version}\n`), { timeout: 2000, intervals: [20] }).toBe(true);
    expect(Date.now() - postedAt).toBeLessThan(2000);
    const data = /id: \d+\ndata: (.*)\n\n/.exec(received)![1]!;
    expect(JSON.parse(data)).toMatchObject({
      type: "update",
      update: { id: update!.id, version: Number(update!.version), headline: "Polls close in the east", text: "The first results are expected within the hour." },
    });

    // Process 2 stops at once though a stream is open: shutdown ends the streams (no 10 s grace held up).
    const stopping = Date.now();
    two.child.kill("SIGTERM");
    expect(await two.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5000);
  } finally {
    (stream as http.ClientRequest | null)?.destroy();
    await db?.end().catch(() => {});
    for (const server of servers.reverse()) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill("SIGTERM");
        await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
        if (server.child.exitCode === null) process.kill(-server.child.pid!, "SIGKILL");
      }
    }
    rmSync(first, { recursive: true, force: true });
    rmSync(second, { recursive: true, force: true });
  }
});
