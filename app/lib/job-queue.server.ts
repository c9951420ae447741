import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import { Logger as WorkerLogger, parseCrontab, run, runMigrations, type Runner, type RunnerOptions, type TaskList, type WorkerEvents } from "graphile-worker";
import pg from "pg";
import type { Db } from "~/db/client.server";
import type { Logger } from "./logger.server";

// The one job queue of the app (decision 0032): graphile-worker, in PostgreSQL's schema
// "graphile_worker". A job is added with plain SQL (graphile_worker.add_job) inside the transaction of
// the change that causes it, so it exists exactly when that change does; the primary process (or the
// single one) runs the jobs, picked up at once through LISTEN/NOTIFY, each by one runner
// (FOR UPDATE SKIP LOCKED), retried with a growing delay when it fails.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The schema graphile-worker keeps its jobs in (outside "public": backups leave the queue out, decision 0032). */
export const JOB_QUEUE_SCHEMA = "graphile_worker";

export interface JobOptions {
  /**
   * One job per key: adding a job whose key is waiting replaces its payload instead of adding a second
   * one (graphile-worker's job_key), so a retried request or a repeated call cannot send twice.
   */
  key: string;
  /** Attempts before the job is given up (graphile-worker waits exp(attempt) seconds between them). */
  maxAttempts?: number;
  /** When to run it (default: now). */
  runAt?: Date;
  /**
   * "preserve_run_at": a job added under a key that is waiting keeps its time (and merges an array
   * payload into the waiting one's), so a stream of additions cannot keep pushing it back. Default
   * "replace": the new payload and time replace the waiting job's.
   */
  keyMode?: "replace" | "preserve_run_at";
}

/** Adds a job in the caller's transaction: it is visible to the runner only once that transaction commits. */
export async function enqueueJob(tx: Tx | Db, task: string, payload: Record<string, unknown> | readonly unknown[], options: JobOptions): Promise<void> {
  await tx.execute(sql`select graphile_worker.add_job(
    ${task}::text,
    ${JSON.stringify(payload)}::json,
    run_at := ${options.runAt ?? null}::timestamptz,
    max_attempts := ${options.maxAttempts ?? 10}::int,
    job_key := ${options.key}::text,
    job_key_mode := ${options.keyMode ?? "replace"}::text
  )`);
}

/** graphile-worker's messages in the app's log (its debug lines left out). */
function workerLogger(log: Logger) {
  return new WorkerLogger(() => (level, message, meta) => {
    const fields = meta && typeof meta === "object" ? { job: (meta as { job?: { id?: string; task_identifier?: string } }).job?.task_identifier } : {};
    if (level === "error") log.error(fields, `job queue: ${message}`);
    else if (level === "warning") log.warn(fields, `job queue: ${message}`);
    else if (level === "info") log.debug(fields, `job queue: ${message}`);
  });
}

/**
 * Creates or updates the queue's tables (its own migrations, recorded in its own schema). Run with the
 * app's migrations, under their lock (server/migrate.ts).
 */
export async function migrateJobQueue(connectionString: string, log?: Logger): Promise<void> {
  await runMigrations({ connectionString, ...(log ? { logger: workerLogger(log) } : { logger: new WorkerLogger(() => () => {}) }) });
}

export interface JobQueue {
  /** Stops taking jobs and waits for the ones under way. */
  stop(): Promise<void>;
  /**
   * The runners' events ("job:success", "job:error", "job:failed", …), one emitter across restarts:
   * what the metrics count (server/metrics/sources.ts).
   */
  events: WorkerEvents;
  /** How many times the runner was restarted after losing the database (issue 39). */
  restarts(): number;
}

/** How long a stopped runner's restart waits between two tries of the database: from the first to the last. */
export const RESTART_DELAYS_MS = { first: 250, most: 2_000 } as const;

/**
 * Runs the queue's jobs with `tasks` (task name → handler; a handler that throws is retried later) in
 * this process, on a small pool of its own. Start it once per site: in the process that runs the
 * scheduler (server/services.ts).
 *
 * A runner survives the database going away (issue 39): graphile-worker retries its own LISTEN
 * connection, but a worker that cannot record a job's end ("committing seppuku") exits and is not
 * replaced, and its cron stops at the first failed tick. So any such exit stops the whole runner, waits
 * until PostgreSQL answers again, frees the jobs its workers held (graphile-worker would keep them
 * locked four hours) and starts a new runner; nothing of it reaches the process's crash handlers.
 */
export async function startJobQueue(options: {
  connectionString: string;
  log: Logger;
  tasks: TaskList;
  /**
   * Recurring tasks, graphile-worker's crontab lines ("* * * * * newsletter-digests": minute, hour, day,
   * month, weekday, task; UTC). The queue keeps when each last ran in PostgreSQL, so one runner fires
   * each tick once, and a tick missed while nothing ran is not made up (graphile-worker's default).
   */
  cron?: readonly string[];
  concurrency?: number;
  pollIntervalMs?: number;
}): Promise<JobQueue> {
  const { connectionString, log, tasks } = options;
  const events: WorkerEvents = new EventEmitter() as WorkerEvents;
  const concurrency = options.concurrency ?? 2;
  const runnerOptions: RunnerOptions = {
    connectionString,
    taskList: tasks,
    parsedCronItems: parseCrontab((options.cron ?? []).join("\n")),
    concurrency,
    maxPoolSize: concurrency + 2,
    // LISTEN/NOTIFY wakes the runner at once; polling is only the fallback for jobs whose time comes.
    pollInterval: options.pollIntervalMs ?? 2_000,
    noHandleSignals: true,
    logger: workerLogger(log),
    events,
  };
  let runner: Runner | null = null;
  let stopped = false;
  let restarting: Promise<void> | null = null;
  let restarts = 0;
  // The workers of the current runner: a restart frees the jobs these still hold.
  let workerIds = new Set<string>();

  events.on("worker:create", ({ worker }) => workerIds.add(worker.workerId));
  events.on("job:failed", ({ job, error }) => {
    log.error({ task: job.task_identifier, attempts: job.attempts, err: error }, "a background job failed for good after its last attempt");
  });
  // A worker that could not record a job's end has exited, and graphile-worker starts no other.
  events.on("worker:fatalError", ({ error }) => restart(error));

  async function startRunner(): Promise<void> {
    workerIds = new Set();
    const started = await run(runnerOptions);
    runner = started;
    // The runner's promise rejects when its cron or its workers stop on an error: a restart, never an
    // unhandled rejection (which shuts the process down).
    started.promise.catch((error: unknown) => {
      if (runner === started) restart(error);
    });
  }

  function restart(error: unknown): void {
    if (stopped || restarting) return;
    log.error({ err: error }, "job queue: the runner stopped on a database error; starting it again once PostgreSQL answers");
    restarting = (async () => {
      const old = runner;
      const oldWorkers = [...workerIds];
      runner = null;
      await settle(old?.stop(), 10_000);
      let delay: number = RESTART_DELAYS_MS.first;
      while (!stopped) {
        try {
          await freeJobsOf(connectionString, oldWorkers);
          await startRunner();
          restarts += 1;
          log.warn({ restarts }, "job queue: runner started again");
          return;
        } catch (failure) {
          log.debug({ err: failure }, "job queue: PostgreSQL does not answer yet");
          await new Promise((resolve) => setTimeout(resolve, delay).unref());
          delay = Math.min(delay * 2, RESTART_DELAYS_MS.most);
        }
      }
    })().finally(() => (restarting = null));
  }

  await startRunner();
  return {
    async stop() {
      stopped = true;
      await restarting;
      const current = runner;
      runner = null;
      await current?.stop().catch((error: unknown) => log.warn({ err: error }, "job queue: could not stop cleanly"));
    },
    events,
    restarts: () => restarts,
  };
}

/** Waits for `promise` (errors ignored), at most `ms`. */
async function settle(promise: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (!promise) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Frees the jobs the given (stopped) workers still hold, so they run again now instead of after
 * graphile-worker's four-hour lock timeout. Throws while PostgreSQL does not answer.
 */
async function freeJobsOf(connectionString: string, workerIds: string[]): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    if (workerIds.length > 0) await client.query(`select ${JOB_QUEUE_SCHEMA}.force_unlock_workers($1::text[])`, [workerIds]);
    else await client.query("select 1");
  } finally {
    await client.end().catch(() => {});
  }
}
