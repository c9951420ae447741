import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { removeRelocatedCluster } from "../../server/postgres-placement";

// A site of a journey's own: the production build (build/node/index.js, as `npm start` runs it) on a
// fresh DATA_DIR in the temp folder with its embedded PostgreSQL, for the specs whose journey needs
// settings the shared e2e server (tests/setup/e2e-server.mjs) does not have: an SMTP server, Stripe,
// a cluster, a metrics port, a PostgreSQL to kill.

const ROOT = path.resolve(import.meta.dirname, "../..");
const READY = /Frontpage is ready: listening on (http:\/\/127\.0\.0\.1:\d+)/;

export interface OwnSiteOptions {
  /** The DATA_DIR's name in the temp folder starts with this ("frontpage-members-"). */
  dataDirPrefix: string;
  /**
   * A port to listen on (freePort()): the site's address and PUBLIC_URL are http://127.0.0.1:<port>, and
   * it is up once /healthz answers 200. Without one, PORT=0 and PUBLIC_URL="": the server picks a port,
   * and it is up once it logs its address ("Frontpage is ready: listening on …", or `ready`).
   */
  port?: number;
  /** With no port: the line that says the site is up, its address in the first group (the default wants any number of workers). */
  ready?: RegExp;
  /** How long it may take to be up, in ms. */
  timeout: number;
  /** The environment over process.env and the defaults here (NODE_ENV, HOST, PORT, PUBLIC_URL, DATA_DIR, DATABASE_URL=""). */
  env: Record<string, string>;
}

export interface OwnSite {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  dataDir: string;
  /** Everything the server wrote so far (stdout and stderr). */
  output: () => string;
  /** Its exit code once it has exited (null for a signal). */
  exited: Promise<number | null>;
  /** SIGTERM to its process group, SIGKILL after 30 s, then its data directory (and a relocated cluster) removed. Safe to call twice, or after it exited. */
  stop: () => Promise<void>;
}

/** A port free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Starts a site of its own and answers once it is up; a start that fails (exits, or is not up in time) throws with the server's output, the site stopped. */
export async function startOwnSite(options: OwnSiteOptions): Promise<OwnSite> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), options.dataDirPrefix));
  chmodSync(dataDir, 0o755);
  const fixed = options.port === undefined ? null : `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, ["build/node/index.js"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(options.port ?? 0),
      PUBLIC_URL: fixed ?? "",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      ...options.env,
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= (async () => {
      if (running(child)) {
        signalGroup(child, "SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
        if (running(child)) signalGroup(child, "SIGKILL");
      }
      await removeRelocatedCluster(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    })());

  const ready = options.ready ?? READY;
  const healthy = async () => (await fetch(`${fixed}/healthz`, { signal: AbortSignal.timeout(5_000) }).catch(() => null))?.status === 200;
  const deadline = Date.now() + options.timeout;
  let base = fixed;
  for (;;) {
    if (!running(child)) {
      await stop();
      throw new Error(`the site's server exited (${child.exitCode ?? child.signalCode}) before it was up:\n${output}`);
    }
    if (fixed ? await healthy() : (base = ready.exec(output)?.[1] ?? null)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the site's server was not up within ${options.timeout / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, fixed ? 500 : 100));
  }
  return { child, base: base!, dataDir, output: () => output, exited, stop };
}

/** A signal to the server's process group (its workers and PostgreSQL too), if any of it is left. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}
