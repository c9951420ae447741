import { sql } from "drizzle-orm";
import { Logger as WorkerLogger, parseCrontab, run, runMigrations, type Runner, type TaskList } from "graphile-worker";
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
  /** The runner's events ("job:success", "job:error", "job:failed", …): what the metrics count (server/metrics/sources.ts). */
  events: Runner["events"];
}

/**
 * Runs the queue's jobs with `tasks` (task name → handler; a handler that throws is retried later) in
 * this process, on a small pool of its own. Start it once per site: in the process that runs the
 * scheduler (server/services.ts).
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
  const runner: Runner = await run({
    connectionString,
    taskList: tasks,
    parsedCronItems: parseCrontab((options.cron ?? []).join("\n")),
    concurrency: options.concurrency ?? 2,
    maxPoolSize: (options.concurrency ?? 2) + 2,
    // LISTEN/NOTIFY wakes the runner at once; polling is only the fallback for jobs whose time comes.
    pollInterval: options.pollIntervalMs ?? 2_000,
    noHandleSignals: true,
    logger: workerLogger(log),
  });
  runner.events.on("job:failed", ({ job, error }) => {
    log.error({ task: job.task_identifier, attempts: job.attempts, err: error }, "a background job failed for good after its last attempt");
  });
  return {
    async stop() {
      await runner.stop();
    },
    events: runner.events,
  };
}
