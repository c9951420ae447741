import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

// An external PostgreSQL for the tests (issue 32): Debian's packaged server (postgresql-15), in a
// throw-away cluster of its own — never the embedded one, never the cluster the Debian package may
// have started. Used by the rehearsal (tests/e2e/rehearsal.spec.ts) and by `.ci/run`'s PostgreSQL-15
// pass of the integration tests (tests/setup/with-debian-postgres.ts).

/** Where Debian installs a major version's server binaries. */
export const debianPostgresBin = (major = Number(process.env.DEBIAN_PG_MAJOR ?? 15)) => `/usr/lib/postgresql/${major}/bin`;

/** Why Debian's PostgreSQL cannot be used here, or null when it can. */
export function debianPostgresMissing(bin = debianPostgresBin()): string | null {
  for (const name of ["initdb", "pg_ctl", "postgres"]) {
    if (!fs.existsSync(path.join(bin, name))) return `${path.join(bin, name)} is missing (apt-get install postgresql-15; .ci/run installs it)`;
  }
  return null;
}

export interface DebianPostgres {
  /** The superuser's connection URL (database "postgres"), over TCP on 127.0.0.1. */
  superuserUrl: string;
  port: number;
  /** The temporary directory holding the cluster and its socket (removed by stop()). */
  dir: string;
  /** The server's log so far (for a failure message). */
  log(): string;
  /** Stops the server (fast shutdown, then SIGKILL after 10 s) and removes its directory. */
  stop(): Promise<void>;
}

interface RunAs {
  uid: number;
  gid: number;
}

async function postgresUser(): Promise<RunAs | null> {
  if (process.getuid?.() !== 0) return null;
  try {
    const id = async (flag: string) => Number((await execFileAsync("id", [flag, "postgres"])).stdout.trim());
    return { uid: await id("-u"), gid: await id("-g") };
  } catch {
    throw new Error('Debian PostgreSQL refuses to run as root and there is no "postgres" user (the postgresql-15 package creates it)');
  }
}

/** Runs a PostgreSQL binary, as the "postgres" user when this process is root. */
function run(runAs: RunAs | null, command: string, args: string[], options: { detached?: boolean } = {}) {
  return spawn(command, args, {
    cwd: "/",
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", LC_ALL: "C.UTF-8" },
    detached: options.detached,
    ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
  });
}

function finished(child: ReturnType<typeof spawn>, what: string): Promise<string> {
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => (code === 0 ? resolve(output) : reject(new Error(`${what} failed (${code ?? signal}): ${output.trim()}`))));
  });
}

/**
 * Starts a new cluster of Debian's PostgreSQL on 127.0.0.1:`port` (its Unix socket in its own
 * directory, not /var/run/postgresql), with password authentication over TCP: initdb into a temporary
 * directory (owned by the "postgres" user when this process is root: PostgreSQL refuses root), then
 * the server as a child of ours in its own process group, so stop() (or a SIGKILL of the group) ends it.
 */
export async function startDebianPostgres({ port, bin = debianPostgresBin() }: { port: number; bin?: string }): Promise<DebianPostgres> {
  const missing = debianPostgresMissing(bin);
  if (missing) throw new Error(missing);
  const runAs = await postgresUser();
  // Under the system temp directory, mode 0755 on the way: the "postgres" user must reach its own folder.
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "frontpage-debian-pg-"));
  const remove = () => fsp.rm(dir, { recursive: true, force: true });
  const data = path.join(dir, "data");
  const socket = path.join(dir, "socket");
  const password = randomBytes(18).toString("base64url");
  let server: ReturnType<typeof spawn> | null = null;
  let log = "";
  try {
    await fsp.chmod(dir, 0o755);
    await fsp.mkdir(socket);
    await fsp.writeFile(path.join(dir, "pwfile"), `${password}\n`, { mode: 0o600 });
    if (runAs) {
      for (const entry of [dir, socket, path.join(dir, "pwfile")]) await fsp.chown(entry, runAs.uid, runAs.gid);
    }
    await finished(
      run(runAs, path.join(bin, "initdb"), ["-D", data, "-U", "postgres", "--pwfile", path.join(dir, "pwfile"), "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]),
      "initdb",
    );
    await fsp.rm(path.join(dir, "pwfile"));
    // The postgres binary itself (not pg_ctl, whose server would outlive us as an orphan): our child,
    // in its own process group.
    server = run(
      runAs,
      path.join(bin, "postgres"),
      ["-D", data, "-p", String(port), "-k", socket, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200", "-c", "shared_buffers=64MB"],
      { detached: true },
    );
    server.stdout?.on("data", (chunk) => (log += chunk));
    server.stderr?.on("data", (chunk) => (log += chunk));
    const exited = new Promise<void>((resolve) => server!.once("exit", () => resolve()));
    const started = server;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (started.exitCode !== null || started.signalCode !== null) throw new Error(`Debian PostgreSQL exited at start: ${log.trim()}`);
      if (/database system is ready to accept connections/.test(log)) break;
      if (Date.now() > deadline) throw new Error(`Debian PostgreSQL did not start within 30 s: ${log.trim()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    let stopped: Promise<void> | null = null;
    return {
      superuserUrl: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
      port,
      dir,
      log: () => log,
      stop: () =>
        (stopped ??= (async () => {
          // SIGINT: PostgreSQL's fast shutdown (ends sessions, checkpoints, exits).
          if (started.exitCode === null && started.signalCode === null) {
            started.kill("SIGINT");
            const killer = setTimeout(() => killGroup(started.pid), 10_000);
            await exited;
            clearTimeout(killer);
          }
          killGroup(started.pid);
          await remove();
        })()),
    };
  } catch (error) {
    if (server?.pid) killGroup(server.pid);
    await remove();
    throw error;
  }
}

/** SIGKILL to a process group (a server's leftover backends), ignoring one already gone. */
export function killGroup(pid: number | undefined) {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}
