import cluster, { type Worker } from "node:cluster";
import type { AddressInfo } from "node:net";
import { AppError } from "../app/lib/app-error";
import type { Logger } from "../app/lib/logger.server";
import type { Lifecycle } from "./lifecycle";

/** The variable through which a worker learns where the primary's database is (decision 0027). */
export const WORKER_DATABASE_URL = "FRONTPAGE_WORKER_DATABASE_URL";

/**
 * Each worker's heap limit unless NODE_OPTIONS names one (issue 13: at most 250 MB per process under
 * load). Node otherwise sizes the heap from the machine's memory and, collecting lazily, lets a worker
 * hold hundreds of MB of garbage after a burst of rendering; its live heap is about 50 MB.
 */
const WORKER_HEAP_MB = 160;

/** A worker that dies is replaced after this long, doubling with each death in a row (up to 30 s). */
const RESTART_DELAY_MS = { first: 500, max: 30_000 };
/** A worker that lived this long had not died "in a row": the delay starts over. */
const STABLE_AFTER_MS = 60_000;

/**
 * The primary of a cluster (decision 0027): forks `count` workers that answer requests on the shared
 * port (each with its own pool, page cache, change feed and view recorder; the primary keeps
 * PostgreSQL, migrations, seeding and the background jobs). Resolves with the address once all of them
 * listen. A worker that dies is replaced, with a growing delay while they keep dying. The lifecycle's
 * shutdown first stops the workers (each finishes its requests and writes its counts), so the
 * primary's own steps and PostgreSQL stop after them.
 */
export async function startWorkers({ count, databaseUrl, log, lifecycle }: { count: number; databaseUrl: string; log: Logger; lifecycle: Lifecycle }): Promise<AddressInfo> {
  const running = new Set<Worker>();
  let delay = RESTART_DELAY_MS.first;
  const heapChosen = /--max-old-space-size/.test(`${process.env.NODE_OPTIONS ?? ""} ${process.execArgv.join(" ")}`);
  cluster.setupPrimary({ execArgv: heapChosen ? process.execArgv : [...process.execArgv, `--max-old-space-size=${WORKER_HEAP_MB}`] });

  lifecycle.onShutdown("workers", async () => {
    const exits = [...running].map((worker) => new Promise((resolve) => worker.once("exit", resolve)));
    for (const worker of running) worker.process.kill("SIGTERM");
    await Promise.all(exits);
  });

  const fork = (): Worker => {
    const worker = cluster.fork({ [WORKER_DATABASE_URL]: databaseUrl });
    const bornAt = Date.now();
    running.add(worker);
    worker.once("exit", (code, signal) => {
      running.delete(worker);
      if (lifecycle.shuttingDown || !worker.listening) return;
      if (Date.now() - bornAt > STABLE_AFTER_MS) delay = RESTART_DELAY_MS.first;
      log.error({ pid: worker.process.pid, code, signal, restartInMs: delay }, "a worker process exited; starting another");
      setTimeout(() => lifecycle.shuttingDown || fork(), delay).unref();
      delay = Math.min(delay * 2, RESTART_DELAY_MS.max);
    });
    return worker;
  };

  const addresses = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<AddressInfo>((resolve, reject) => {
          const worker = fork();
          worker.once("listening", (address) => {
            worker.listening = true;
            resolve({ address: address.address, port: address.port, family: address.addressType === 6 ? "IPv6" : "IPv4" });
          });
          // A worker that cannot start (its own log line says why) fails the start: the port is taken, say.
          worker.once("exit", (code) => reject(new AppError("start_failed", `a worker process exited with code ${code} before it listened`)));
        }),
    ),
  );
  return addresses[0]!;
}

declare module "node:cluster" {
  interface Worker {
    /** Set once it listened: a worker that dies before is a failed start, not one to replace. */
    listening?: boolean;
  }
}
