import { AppError, isAppError } from "../app/lib/app-error";
import type { Logger } from "../app/lib/logger.server";

/** In-flight requests get this long after a signal; no shutdown step may take much longer. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** Something that runs beside the process and must be stopped after everything else (the embedded PostgreSQL). */
interface LastToStop {
  stop(): Promise<unknown>;
}

export interface Lifecycle {
  /** True from the first signal (or failure) on. */
  readonly shuttingDown: boolean;
  /**
   * Aborted when the shutdown begins: a start step that waits on another process (a worker waiting to
   * hear where the database is) stops waiting, instead of holding the shutdown for its grace period.
   */
  readonly stopping: AbortSignal;
  /** Where its own messages go once the logger exists (before that, the console). */
  useLogger(log: Logger): void;
  /** Registers a shutdown step; steps run in the reverse order of registration, each bounded in time. */
  onShutdown(name: string, run: () => Promise<unknown>): void;
  /**
   * Takes ownership of a process that must stop after every step, also when the shutdown comes while
   * it is still starting (the embedded PostgreSQL runs in its own process group: no Ctrl-C reaches it).
   */
  ownLast<T extends LastToStop>(starting: Promise<T>): Promise<T>;
  /** Between the steps of the start: stops the start (quietly) once a shutdown has begun. */
  checkpoint(): void;
  /** Stops in order, then exits with the highest code asked for. */
  shutdown(reason: string, code?: number): Promise<void>;
  /**
   * Runs the start. A failed start stops what it started and exits 1; an AppError `invalid_config` or
   * `start_failed` says why in one line for the operator, without a stack.
   */
  start(main: () => Promise<void>): void;
  /** SIGTERM and SIGINT shut down with 0; an uncaught exception or unhandled rejection with 1. */
  handleProcessEvents(): void;
}

/** Waits until `promise` settles (true) or `ms` pass (false); never throws. */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]).finally(() => clearTimeout(timer));
}

export function createLifecycle(options: { graceMs?: number; exit?: (code: number) => void } = {}): Lifecycle {
  const graceMs = options.graceMs ?? SHUTDOWN_GRACE_MS;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const steps: { name: string; run: () => Promise<unknown> }[] = [];
  let log: Logger | null = null;
  let last: LastToStop | null = null;
  let lastStarting: Promise<LastToStop> | null = null;
  let startup: Promise<void> | null = null;
  // Aborted by the first signal (or failure): whether the shutdown has begun, and why a start stops.
  const stopping = new AbortController();
  let exitCode = 0;

  function logError(error: unknown, message: string) {
    if (log) log.error({ err: error }, message);
    else console.error(message, error);
  }

  /**
   * Stops in order: every registered step from the last to the first (the HTTP server: no new
   * connections, in-flight requests get the grace period; the services: buffered page views are
   * written; the database pool), and then what was owned last (PostgreSQL). Then exits.
   */
  async function shutdown(reason: string, code = 0) {
    exitCode = Math.max(exitCode, code);
    if (stopping.signal.aborted) {
      log?.debug({ reason }, "already shutting down");
      return;
    }
    log?.info({ reason }, "shutting down");
    stopping.abort(new AppError("start_failed", "the start was interrupted by a shutdown"));
    // A signal during the start: the start stops at its next checkpoint, so that what it opened is
    // all registered before the steps below close it.
    if (startup) await settledWithin(startup, graceMs + 2000);
    for (const step of steps.reverse()) {
      log?.debug({ step: step.name }, "shutdown step");
      try {
        // No step may hold the exit hostage: each gets the grace period and a little more.
        // The timer stays referenced: it also keeps the process alive until every step has run.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([step.run(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs + 2000)))]);
        clearTimeout(timer);
      } catch (error) {
        log?.error({ err: error, step: step.name }, "error during shutdown");
      }
    }
    // Stopped now that the pool is closed. If it is still starting, wait for that, so it is not left without an owner.
    let owned = last;
    if (!owned && lastStarting && (await settledWithin(lastStarting, 60_000))) owned = await lastStarting.catch(() => null);
    await owned?.stop().catch((error) => logError(error, "could not stop PostgreSQL"));
    log?.info("bye");
    exit(exitCode);
  }

  return {
    get shuttingDown() {
      return stopping.signal.aborted;
    },
    stopping: stopping.signal,
    useLogger(logger) {
      log = logger;
    },
    onShutdown(name, run) {
      steps.push({ name, run });
    },
    async ownLast(starting) {
      lastStarting = starting;
      const started = await starting;
      last = started;
      return started;
    },
    checkpoint() {
      stopping.signal.throwIfAborted();
    },
    shutdown,
    start(main) {
      startup = main();
      startup.catch((error) => {
        // A step cut short by a shutdown already under way (its pool closed) is no failure of its own.
        if (stopping.signal.aborted) return log?.debug({ err: error }, "start interrupted by the shutdown");
        if (isAppError(error, "invalid_config", "start_failed")) {
          if (log) log.fatal(error.message);
          else console.error(error.message);
        } else {
          logError(error, "could not start");
        }
        void shutdown("start failed", 1);
      });
    },
    handleProcessEvents() {
      process.on("SIGTERM", () => void shutdown("SIGTERM"));
      process.on("SIGINT", () => void shutdown("SIGINT"));
      // Whatever fails unexpectedly, PostgreSQL must not be left running behind the process.
      process.on("uncaughtException", (error) => {
        logError(error, "uncaught exception");
        void shutdown("uncaught exception", 1);
      });
      process.on("unhandledRejection", (error) => {
        logError(error, "unhandled promise rejection");
        void shutdown("unhandled promise rejection", 1);
      });
    },
  };
}
