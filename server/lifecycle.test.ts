import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../app/lib/app-error";
import { startEmbeddedPostgres } from "./embedded-db";
import { createLifecycle } from "./lifecycle";
import { clusterDirOf, removeRelocatedCluster } from "./postgres-placement";

// The server's whole life as an operator sees it: a terminal's Ctrl-C (SIGINT to the whole process
// group), a busy port, and PostgreSQL left behind by a killed process. Real processes, one data
// directory for the file (initdb once); the server runs in development mode so no build is needed.
// The directory has mkdtemp's mode 700: as root, its cluster lives under /var/lib/frontpage/clusters
// (docs/decisions/0005), so all of this is checked on a relocated cluster too.

const ROOT = path.resolve(import.meta.dirname, "..");
const silent = pino({ level: "silent" });
let dataDir: string;

/** PIDs of processes whose command line names this data directory's cluster (the postmaster does). */
function postgresProcesses(dir: string): number[] {
  const cluster = clusterDirOf(dir);
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (cmdline.includes("postgres") && cmdline.split("\0").includes(cluster)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The PIDs of a process's children (a postmaster's backends and workers). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

async function eventuallyAsync(check: () => Promise<boolean>, ms: number) {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

async function eventually(check: () => boolean, ms = 5000) {
  for (const deadline = Date.now() + ms; Date.now() < deadline && !check(); ) await new Promise((r) => setTimeout(r, 50));
  return check();
}

interface Server {
  child: ChildProcess;
  output: () => string;
  /** What it wrote to stdout and to stderr, each apart. */
  streams: () => { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts server/index.ts in its own process group, as a terminal would run it in the foreground. */
function startServer(env: Record<string, string>): Server {
  const child = spawn(process.execPath, ["--import", "tsx", "server/index.ts"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PUBLIC_URL: "",
      SEED_DEMO: "0",
      LOG_LEVEL: "info",
      ...env,
    },
  });
  let output = "";
  const streams = { stdout: "", stderr: "" };
  child.stdout!.on("data", (chunk) => {
    output += chunk;
    streams.stdout += chunk;
  });
  child.stderr!.on("data", (chunk) => {
    output += chunk;
    streams.stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, streams: () => streams, exited };
}

async function waitForReady(server: Server): Promise<string> {
  for (const deadline = Date.now() + 80_000; Date.now() < deadline; ) {
    const match = /Frontpage is ready: listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(server.output());
    if (match) return match[1]!;
    if (server.child.exitCode !== null || server.child.signalCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not become ready:\n${server.output()}`);
}

/** Runs startEmbeddedPostgres in a separate Node process and returns it with the URL it printed. */
async function starterProcess(): Promise<{ child: ChildProcess; url: string }> {
  const script = `import { startEmbeddedPostgres } from "./server/embedded-db.ts";
    import pino from "pino";
    const db = await startEmbeddedPostgres(${JSON.stringify(dataDir)}, pino({ level: "silent" }));
    console.log(db.url);
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.trim());
    });
    child.once("exit", (code) => reject(new Error(`starter exited with ${code}`)));
  });
  return { child, url };
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.skipIf(process.platform !== "linux")("server lifecycle", () => {
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "frontpage-lifecycle-"));
  });
  afterAll(async () => {
    for (const pid of postgresProcesses(dataDir)) process.kill(pid, "SIGKILL");
    await removeRelocatedCluster(dataDir);
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("a frozen PostgreSQL (SIGSTOP): a page that needs it answers 503 with a retry hint within 2 s; resumed, 200 at once", async () => {
    const server = startServer({});
    const frozen: number[] = [];
    const signalAll = (signal: NodeJS.Signals) => frozen.forEach((pid) => process.kill(pid, signal));
    try {
      const base = await waitForReady(server);
      expect((await fetch(`${base}/about`)).status).toBe(200);
      const [postmaster] = postgresProcesses(dataDir);
      frozen.push(postmaster!, ...childrenOf(postmaster!));
      signalAll("SIGSTOP");
      const started = Date.now();
      // A search reads the database every time (the frame of every page is kept in memory meanwhile).
      const during = await fetch(`${base}/search?q=council`, { signal: AbortSignal.timeout(10_000) });
      expect(Date.now() - started).toBeLessThanOrEqual(2000);
      expect(during.status).toBe(503);
      expect(during.headers.get("retry-after")).toBe("5");
      expect(await during.text()).toContain("temporarily unavailable");
      // While it stays frozen, at once.
      const again = Date.now();
      expect((await fetch(`${base}/api/views`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"path":"/about"}' })).status).toBe(503);
      expect(Date.now() - again).toBeLessThan(500);
      signalAll("SIGCONT");
      frozen.length = 0;
      expect(await eventuallyAsync(async () => (await fetch(`${base}/search?q=council`)).status === 200, 2000)).toBe(true);
      expect(server.output()).toContain("the database does not answer");
      expect(server.output()).toContain("the database answers again");
    } finally {
      signalAll("SIGCONT");
      process.kill(-server.child.pid!, "SIGTERM");
      await server.exited;
    }
    // As its neighbours: a server's start (PostgreSQL, migrations, the demo) in a full run on two cores
    // took most of the default 30 s once (the timed answers above are what the test checks).
  }, 60_000);

  it("kill -9 of the embedded postmaster: it is restarted, /healthz answers 200 again within 5 s with no request by hand, and the log says so", async () => {
    const server = startServer({});
    try {
      const base = await waitForReady(server);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const [postmaster] = postgresProcesses(dataDir);
      process.kill(postmaster!, "SIGKILL");
      const killedAt = Date.now();
      expect(await eventually(() => !postgresProcesses(dataDir).includes(postmaster!), 2000)).toBe(true);
      // Nothing asks the database meanwhile but this poll of the health check.
      expect(await eventuallyAsync(async () => (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(3000) }).catch(() => null))?.status === 200, 5000), server.output()).toBe(true);
      expect(Date.now() - killedAt).toBeLessThan(5000);
      expect((await fetch(`${base}/about`)).status).toBe(200);
      expect(server.output()).toContain("embedded PostgreSQL exited unexpectedly");
      expect(server.output()).toContain("embedded PostgreSQL restarted");
      // The site stayed up through it: the server is the one that started.
      expect(server.child.exitCode, server.output()).toBeNull();
    } finally {
      // A server that exited (the failure above says why, with its log) has nothing left to stop.
      if (server.child.exitCode === null && server.child.signalCode === null) process.kill(-server.child.pid!, "SIGTERM");
      await server.exited;
    }
    expect(await eventually(() => postgresProcesses(dataDir).length === 0)).toBe(true);
    // As its neighbours: the server's start in a full run on two cores can take most of the default
    // 30 s (the 5 s the restart is given is what the test checks).
  }, 60_000);

  it("a malformed percent-escape in a URL (/article/%E0%A4%A) answers 404, and the log stays one JSON object a line (issue 28)", async () => {
    const server = startServer({});
    try {
      const base = await waitForReady(server);
      const answer = await fetch(`${base}/article/%E0%A4%A`);
      expect(answer.status).toBe(404);
      await answer.text();
      expect((await fetch(`${base}/%E0%A4%A/x`)).status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.kill(-server.child.pid!, "SIGTERM");
      await server.exited;
    }
    const { stdout, stderr } = server.streams();
    const lines = [...stdout.split("\n"), ...stderr.split("\n")].filter((line) => line !== "");
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== "object";
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    expect(stdout).toContain('"msg":"bye"');
  }, 120_000);

  it("on a terminal's Ctrl-C finishes its work before PostgreSQL stops, then exits 0; a second start reuses the data", async () => {
    const server = startServer({});
    try {
      const base = await waitForReady(server);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      // A reader's load of a page: counted where it arrives, buffered until the next flush.
      const load = await fetch(`${base}/about?ctrl-c`, {
        headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36" },
      });
      expect(load.status).toBe(200);
      await load.text();
      // Ctrl-C: SIGINT to every process of the foreground group at once.
      process.kill(-server.child.pid!, "SIGINT");
      const { code, signal } = await server.exited;
      expect({ code, signal }, server.output()).toEqual({ code: 0, signal: null });
      expect(server.output()).toContain('"msg":"bye"');
      expect(server.output()).not.toMatch(/"level":[56]0/); // no error or fatal line
    } finally {
      if (server.child.exitCode === null) process.kill(-server.child.pid!, "SIGKILL");
    }
    expect(postgresProcesses(dataDir)).toEqual([]);
    expect(existsSync(path.join(clusterDirOf(dataDir), "postmaster.pid"))).toBe(false);

    // The page view buffered when the signal came was written before PostgreSQL stopped.
    const db = await startEmbeddedPostgres(dataDir, silent);
    try {
      expect(db.created).toBe(false);
      const rows = await query<{ n: string }>(db.url, "select count(*) as n from page_views where path = '/about?ctrl-c'");
      expect(rows[0]!.n).toBe("1");
    } finally {
      await db.stop();
    }
  }, 120_000);

  it("with its port taken says so in one line, stops PostgreSQL and exits 1", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const server = startServer({ PORT: String(port) });
    try {
      const { code } = await Promise.race([
        server.exited,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(server.output())), 80_000)),
      ]);
      expect(code, server.output()).toBe(1);
      expect(server.output()).toContain(`port ${port} is already in use`);
      expect(server.output()).not.toContain("EADDRINUSE"); // no stack trace
    } finally {
      blocker.close();
      if (server.child.exitCode === null) process.kill(-server.child.pid!, "SIGKILL");
    }
    expect(await eventually(() => postgresProcesses(dataDir).length === 0)).toBe(true);
  }, 120_000);

  it("adopts a PostgreSQL whose starter was killed (kill -9) and stops it", async () => {
    const starter = await starterProcess();
    const [orphan] = postgresProcesses(dataDir);
    expect(orphan).toBeDefined();
    starter.child.kill("SIGKILL");
    await new Promise((resolve) => starter.child.once("exit", resolve));

    const db = await startEmbeddedPostgres(dataDir, silent);
    expect(db.owned).toBe(true);
    expect(await query(db.url, "select 1 as one")).toEqual([{ one: 1 }]);
    await db.stop();
    expect(await eventually(() => postgresProcesses(dataDir).length === 0)).toBe(true);
  }, 60_000);

  it("starts over the stale postmaster.pid of a PostgreSQL killed with its starter (kill -9 of both)", async () => {
    const starter = await starterProcess();
    const [postmaster] = postgresProcesses(dataDir);
    process.kill(postmaster!, "SIGKILL");
    starter.child.kill("SIGKILL");
    await new Promise((resolve) => starter.child.once("exit", resolve));
    expect(await eventually(() => postgresProcesses(dataDir).length === 0)).toBe(true);
    expect(existsSync(path.join(clusterDirOf(dataDir), "postmaster.pid"))).toBe(true);

    const db = await startEmbeddedPostgres(dataDir, silent);
    try {
      expect(db.owned).toBe(true);
      expect(await query(db.url, "select count(*)::int as n from page_views")).toEqual([{ n: 1 }]);
    } finally {
      await db.stop();
    }
    // stop() again, and on a PostgreSQL that is gone: a quick no-op.
    const started = Date.now();
    await db.stop();
    expect(Date.now() - started).toBeLessThan(1000);
  }, 60_000);

  it("stop() returns at once when PostgreSQL has already exited", async () => {
    const db = await startEmbeddedPostgres(dataDir, silent);
    const [postmaster] = postgresProcesses(dataDir);
    process.kill(postmaster!, "SIGKILL");
    expect(await eventually(() => postgresProcesses(dataDir).length === 0)).toBe(true);
    const started = Date.now();
    await db.stop();
    expect(Date.now() - started).toBeLessThan(1000);
  }, 60_000);

  it.skipIf(process.platform !== "linux")(
    "a killed PostgreSQL recovers with one syncfs of its file system, not an fsync of every file of its cluster (issue 28: /healthz back sooner)",
    async () => {
      const lines: string[] = [];
      const db = await startEmbeddedPostgres(dataDir, pino({ level: "info" }, { write: (line: string) => void lines.push(line) }));
      try {
        // PostgreSQL's crash recovery first makes the whole cluster durable; file by file it took 0.6 s
        // of the 1–4 s before /healthz answered again on a busy two-core machine.
        expect(await query(db.url, "show recovery_init_sync_method")).toEqual([{ recovery_init_sync_method: "syncfs" }]);
        const [postmaster] = postgresProcesses(dataDir);
        process.kill(postmaster!, "SIGKILL");
        expect(await eventually(() => lines.join("").includes("embedded PostgreSQL restarted"), 10_000)).toBe(true);
        expect(await query(db.url, "show recovery_init_sync_method")).toEqual([{ recovery_init_sync_method: "syncfs" }]);
      } finally {
        await db.stop();
      }
    },
    60_000,
  );

  describe("stopping the embedded PostgreSQL", () => {
    /** A logger that keeps PostgreSQL's own log lines (logged at debug) and our messages. */
    function recordingLogger() {
      const lines: string[] = [];
      const log = pino({ level: "debug" }, { write: (line: string) => void lines.push(line) });
      return { log, lines: () => lines.join("") };
    }

    it("after a pool with many connections is ended, no session is cut off by the stop", async () => {
      const { log, lines } = recordingLogger();
      const db = await startEmbeddedPostgres(dataDir, log);
      const pool = new pg.Pool({ connectionString: db.url, max: 12 });
      const errors: string[] = [];
      pool.on("error", (error) => errors.push(error.message));
      // Twelve connections busy at once, then all idle in the pool.
      await Promise.all(Array.from({ length: 12 }, () => pool.query("select pg_sleep(0.05)")));
      expect(pool.totalCount).toBe(12);
      await pool.end();
      await db.stop();
      expect(lines()).toContain("database system is shut down");
      expect(lines()).not.toContain("terminating connection due to administrator command");
      expect(errors).toEqual([]);
      expect(postgresProcesses(dataDir)).toEqual([]);
    }, 60_000);

    it("a session another process keeps open does not hold the stop: it is ended after the smart wait", async () => {
      const { log, lines } = recordingLogger();
      const db = await startEmbeddedPostgres(dataDir, log);
      const other = new pg.Client({ connectionString: db.url });
      const lost = new Promise<string>((resolve) => other.on("error", (error) => resolve(error.message)));
      await other.connect();
      const started = Date.now();
      await db.stop();
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await lost).toContain("terminating connection due to administrator command");
      expect(lines()).toContain("PostgreSQL still has open sessions; asking it to end them");
      expect(postgresProcesses(dataDir)).toEqual([]);
    }, 60_000);
  });
});

describe("the lifecycle's order (createLifecycle)", () => {
  /** A lifecycle whose exit is recorded instead of ending the test process. */
  function lifecycleForTest(graceMs = 50) {
    const { log, entries } = recordingLoggerOf();
    let exited: (code: number) => void = () => {};
    const exit = new Promise<number>((resolve) => (exited = resolve));
    const lifecycle = createLifecycle({ graceMs, exit: (code) => exited(code) });
    lifecycle.useLogger(log);
    return { lifecycle, exit, messages: () => entries().map((e) => e.msg) };
  }

  function recordingLoggerOf() {
    const lines: string[] = [];
    const log = pino({ level: "debug" }, { write: (line: string) => void lines.push(line) });
    return { log, entries: () => lines.map((line) => JSON.parse(line) as { msg: string; level: number }) };
  }

  it("stops the steps last-registered first, then what it owns last (PostgreSQL), then exits 0", async () => {
    const { lifecycle, exit } = lifecycleForTest();
    const order: string[] = [];
    await lifecycle.ownLast(Promise.resolve({ stop: async () => void order.push("postgres") }));
    lifecycle.onShutdown("database pool", async () => void order.push("pool"));
    lifecycle.onShutdown("view recorder", async () => void order.push("views"));
    lifecycle.onShutdown("http server", async () => void order.push("http"));
    void lifecycle.shutdown("SIGINT");
    expect(await exit).toBe(0);
    expect(order).toEqual(["http", "views", "pool", "postgres"]);
    expect(lifecycle.shuttingDown).toBe(true);
  });

  it("a step that fails or hangs does not hold the others back", async () => {
    const { lifecycle, exit, messages } = lifecycleForTest(10);
    const order: string[] = [];
    lifecycle.onShutdown("pool", async () => void order.push("pool"));
    lifecycle.onShutdown("hangs", () => new Promise(() => {}));
    lifecycle.onShutdown("fails", () => Promise.reject(new Error("step failed")));
    void lifecycle.shutdown("SIGTERM");
    expect(await exit).toBe(0);
    expect(order).toEqual(["pool"]);
    expect(messages()).toContain("error during shutdown");
  }, 10_000);

  it("a start that cannot go on says why in one line and exits 1, after stopping what it started", async () => {
    const { lifecycle, exit, messages } = lifecycleForTest();
    let poolEnded = false;
    lifecycle.start(async () => {
      lifecycle.onShutdown("database pool", async () => void (poolEnded = true));
      throw new AppError("start_failed", "port 3000 is already in use (HOST 0.0.0.0): stop what runs there or set PORT to another port");
    });
    expect(await exit).toBe(1);
    expect(poolEnded).toBe(true);
    expect(messages()).toContain("port 3000 is already in use (HOST 0.0.0.0): stop what runs there or set PORT to another port");
    expect(messages()).not.toContain("could not start");
  });

  it("a signal during the start waits for its next checkpoint, which ends the start quietly, and exits 0", async () => {
    const { lifecycle, exit, messages } = lifecycleForTest();
    let release: () => void = () => {};
    const order: string[] = [];
    lifecycle.start(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      lifecycle.onShutdown("opened before the checkpoint", async () => void order.push("closed"));
      lifecycle.checkpoint();
      order.push("went on after the checkpoint");
    });
    void lifecycle.shutdown("SIGINT");
    release();
    expect(await exit).toBe(0);
    expect(order).toEqual(["closed"]);
    expect(messages()).toContain("start interrupted by the shutdown");
    expect(messages()).not.toContain("could not start");
  });

  it("a start waiting on another process stops waiting when the shutdown begins, and exits at once", async () => {
    const { lifecycle, exit, messages } = lifecycleForTest(60_000);
    lifecycle.start(async () => {
      await new Promise((_resolve, reject) => lifecycle.stopping.addEventListener("abort", () => reject(lifecycle.stopping.reason)));
    });
    expect(lifecycle.stopping.aborted).toBe(false);
    // The grace period a start still going gets is a minute here: waiting it out would fail the test by its time limit.
    void lifecycle.shutdown("SIGTERM");
    expect(lifecycle.stopping.aborted).toBe(true);
    expect(await exit).toBe(0);
    expect(messages()).toContain("start interrupted by the shutdown");
  });

  it("PostgreSQL still starting when the signal comes is waited for and stopped", async () => {
    const { lifecycle, exit } = lifecycleForTest();
    let started: (db: { stop: () => Promise<void> }) => void = () => {};
    let stopped = false;
    const starting = new Promise<{ stop: () => Promise<void> }>((resolve) => (started = resolve));
    void lifecycle.ownLast(starting);
    void lifecycle.shutdown("SIGTERM");
    started({ stop: async () => void (stopped = true) });
    expect(await exit).toBe(0);
    expect(stopped).toBe(true);
  });
});
