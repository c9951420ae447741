import os from "node:os";
import cluster, { type Worker } from "node:cluster";
import type { AddressInfo } from "node:net";
import { AppError } from "../app/lib/app-error";
import type { Logger } from "../app/lib/logger.server";
import type { Lifecycle } from "./lifecycle";

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

interface DatabaseQuestion {
  type: "database?";
}
interface DatabaseAnswer {
  type: "database";
  url: string;
}

/**
 * In a worker: where the database is. The worker asks its primary (which answers once PostgreSQL is up
 * and migrated), so it loads its modules and the app meanwhile instead of after (issue 13: restart to
 * first page ≤ 2 s). Asking, not waiting for a message, so no answer can come before anyone listens.
 * A shutdown (`stopping`: the primary's start failed, say) ends the wait at once.
 */
export function databaseUrlFromPrimary(stopping: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: DatabaseAnswer) => {
      if (message?.type !== "database") return;
      process.off("message", onMessage);
      stopping.removeEventListener("abort", onStop);
      resolve(message.url);
    };
    const onStop = () => {
      process.off("message", onMessage);
      reject(stopping.reason);
    };
    if (stopping.aborted) return onStop();
    stopping.addEventListener("abort", onStop, { once: true });
    process.on("message", onMessage);
    process.send!({ type: "database?" } satisfies DatabaseQuestion);
  });
}

/**
 * The primary of a cluster (decision 0027): forks `count` workers at once, before the database is up,
 * so they load while it starts; each answers requests on the shared port once `listen(databaseUrl)`
 * told them where the database is (each with its own pool, page cache, change feed and view recorder;
 * the primary keeps PostgreSQL, migrations, seeding and the background jobs). `listen` resolves with
 * the address once all of them listen. A worker that dies is replaced, with a growing delay while they
 * keep dying. The lifecycle's shutdown first stops the workers (each finishes its requests and writes
 * its counts), so the primary's own steps and PostgreSQL stop after them.
 */
export function forkWorkers({ count, log, lifecycle }: { count: number; log: Logger; lifecycle: Lifecycle }): { listen(databaseUrl: string): Promise<AddressInfo> } {
  const running = new Set<Worker>();
  let delay = RESTART_DELAY_MS.first;
  let databaseUrl: string | null = null;
  const waiting: Worker[] = [];
  const heapChosen = /--max-old-space-size/.test(`${process.env.NODE_OPTIONS ?? ""} ${process.execArgv.join(" ")}`);
  cluster.setupPrimary({ execArgv: heapChosen ? process.execArgv : [...process.execArgv, `--max-old-space-size=${WORKER_HEAP_MB}`] });

  lifecycle.onShutdown("workers", async () => {
    const exits = [...running].map((worker) => new Promise((resolve) => worker.once("exit", resolve)));
    for (const worker of running) worker.process.kill("SIGTERM");
    await Promise.all(exits);
  });

  const answer = (worker: Worker) => worker.send({ type: "database", url: databaseUrl! } satisfies DatabaseAnswer);

  const fork = (): Worker => {
    const worker = cluster.fork();
    const bornAt = Date.now();
    running.add(worker);
    worker.on("message", (message: DatabaseQuestion) => {
      if (message?.type !== "database?") return;
      if (databaseUrl) answer(worker);
      else waiting.push(worker);
    });
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

  const listening = Array.from(
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
  );
  // Until listen() is called nobody awaits them: a worker's early failure must not be an unhandled rejection.
  for (const promise of listening) promise.catch(() => {});

  return {
    async listen(url) {
      databaseUrl = url;
      for (const worker of waiting.splice(0)) if (worker.isConnected()) answer(worker);
      return (await Promise.all(listening))[0]!;
    },
  };
}

declare module "node:cluster" {
  interface Worker {
    /** Set once it listened: a worker that dies before is a failed start, not one to replace. */
    listening?: boolean;
  }
}

/**
 * How much the primary of a cluster yields the processors to the workers (a nice value, 0–19). At 5 the
 * kernel gives a busy worker about three times the primary's share when both want a core, and the
 * primary all of an idle machine: a newsletter send runs at full speed at night and gives way to
 * readers at a peak (issue 30: pages keep their speed during a send).
 */
export const BACKGROUND_NICE = 5;

/** Lowers this process's priority to BACKGROUND_NICE (any user may lower their own); a refusal is logged, not fatal. */
export function yieldCpuToReaders(log: Logger): void {
  try {
    if (os.getPriority() < BACKGROUND_NICE) os.setPriority(BACKGROUND_NICE);
  } catch (error) {
    log.warn({ err: error }, "could not lower the primary's CPU priority: background work competes with readers' pages");
  }
}

/** Back to normal priority (a worker forked by a lowered primary); only root may raise it, so a refusal is expected elsewhere. */
export function restoreCpuPriority(): void {
  try {
    if (os.getPriority() > 0) os.setPriority(0);
  } catch {
    // Not allowed without privileges: the worker shares the primary's priority, as before this rule.
  }
}
