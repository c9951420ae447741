import { performance } from "node:perf_hooks";
import type { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import type pg from "pg";
import type { Db } from "../../app/db/client.server";
import type { Logger } from "../../app/lib/logger.server";
import { Gauge } from "prom-client";
import { dbQueryDuration, jobsFinished, metricsOn, registry } from "./registry";

// Where the metrics read at scrape time come from (pools, the page cache, the job queue), and the
// observers of what happens in between (queries, jobs). Each watch* does nothing unless metrics are
// on (server/metrics/registry.ts turnMetricsOn), so a process without METRICS_PORT or METRICS_TOKEN
// pays nothing.

const pools = new Set<pg.Pool>();

export const dbPoolConnections = new Gauge({
  name: "frontpage_db_pool_connections",
  help: "Connections of the app's PostgreSQL pools, by state (busy: running a query or held by a transaction; idle)",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    let total = 0;
    let idle = 0;
    for (const pool of pools) {
      total += pool.totalCount;
      idle += pool.idleCount;
    }
    this.set({ state: "busy" }, total - idle);
    this.set({ state: "idle" }, idle);
  },
});

export const dbPoolWaiting = new Gauge({
  name: "frontpage_db_pool_waiting",
  help: "Queries waiting for a free connection of the app's pools",
  registers: [registry],
  collect() {
    let waiting = 0;
    for (const pool of pools) waiting += pool.waitingCount;
    this.set(waiting);
  },
});

export const dbPoolMax = new Gauge({
  name: "frontpage_db_pool_max",
  help: "The most connections the app's pools may open",
  registers: [registry],
  collect() {
    let max = 0;
    for (const pool of pools) max += (pool as pg.Pool & { options: { max: number } }).options.max;
    this.set(max);
  },
});

const okQuery = dbQueryDuration.labels("ok");
const failedQuery = dbQueryDuration.labels("error");

type QueryFunction = (...args: unknown[]) => unknown;

/**
 * Times the queries of one client: its `query` is wrapped where pg calls it, for the three forms it
 * takes: a callback last (what Pool.query uses), a promise (a transaction's client, as Drizzle uses
 * it), or a submittable (a cursor, a COPY stream: not timed).
 */
export function timeQueries(client: { query: QueryFunction }): void {
  const query = client.query;
  client.query = function timedQuery(this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (error: unknown, result: unknown) => {
        (error ? failedQuery : okQuery).observe((performance.now() - started) / 1000);
        return (callback as (e: unknown, r: unknown) => unknown)(error, result);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result instanceof Promise) {
      result.then(
        () => okQuery.observe((performance.now() - started) / 1000),
        () => failedQuery.observe((performance.now() - started) / 1000),
      );
    }
    return result;
  };
}

/**
 * Counts a pool's connections at each scrape and times its queries (each new connection's `query`
 * wrapped: pg-pool's "connect" event comes before the connection is handed out). Call it right after
 * the pool is made, before its first query.
 */
export function watchDatabasePool(pool: pg.Pool): void {
  if (!metricsOn() || pools.has(pool)) return;
  pools.add(pool);
  pool.on("connect", (client) => timeQueries(client as unknown as { query: QueryFunction }));
}

const caches = new Set<{ readonly size: number }>();
export const pageCacheEntries = new Gauge({
  name: "frontpage_page_cache_entries",
  help: "Pages held in the page cache",
  registers: [registry],
  collect() {
    let entries = 0;
    for (const cache of caches) entries += cache.size;
    this.set(entries);
  },
});

/** Counts the pages a page cache holds at each scrape. */
export function watchPageCache(cache: { readonly size: number }): void {
  if (metricsOn()) caches.add(cache);
}

/** The one query of a scrape in the primary: jobs by state, from graphile-worker's public view (0.16: graphile_worker.jobs). */
const JOB_STATES = sql`select
  count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now())::int as ready,
  count(*) filter (where locked_at is null and attempts < max_attempts and run_at > now())::int as scheduled,
  count(*) filter (where locked_at is not null)::int as running,
  count(*) filter (where locked_at is null and attempts >= max_attempts)::int as failed
from graphile_worker.jobs`;

/** A scrape does not wait longer than this for the queue's count (a database that does not answer). */
const JOB_COUNT_TIMEOUT_MS = 2000;

let jobQueue: { db: Db; log: Logger } | null = null;

export const jobQueueJobs = new Gauge({
  name: "frontpage_job_queue_jobs",
  help: "Jobs in the queue, by state (ready: due and waiting for a runner; scheduled: due later; running; failed: given up after their last attempt)",
  labelNames: ["state"] as const,
  registers: [registry],
  async collect() {
    if (!jobQueue) return;
    const { db, log } = jobQueue;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${JOB_COUNT_TIMEOUT_MS} ms`)), JOB_COUNT_TIMEOUT_MS);
      });
      const result = await Promise.race([db.execute<{ ready: number; scheduled: number; running: number; failed: number }>(JOB_STATES), timeout]);
      const row = result.rows[0]!;
      for (const state of ["ready", "scheduled", "running", "failed"] as const) this.set({ state }, Number(row[state]));
    } catch (error) {
      this.reset();
      log.debug({ err: error }, "metrics: could not count the job queue's jobs");
    } finally {
      clearTimeout(timer);
    }
  },
});

/**
 * The job queue (app/lib/job-queue.server.ts), in the process that runs it: its depth counted by one
 * query at each scrape (a scrape while the database is down leaves the family empty), and every
 * job attempt's outcome from the runner's events.
 */
export function watchJobQueue({ db, events, log }: { db: Db; events: EventEmitter; log: Logger }): void {
  if (!metricsOn()) return;
  jobQueue = { db, log };
  const taskOf = (payload: { job?: { task_identifier?: unknown } }) => {
    const task = payload.job?.task_identifier;
    return typeof task === "string" && /^[\w:.-]{1,64}$/.test(task) ? task : "other";
  };
  events.on("job:success", (payload) => jobsFinished.inc({ task: taskOf(payload), outcome: "success" }));
  events.on("job:error", (payload) => jobsFinished.inc({ task: taskOf(payload), outcome: "error" }));
  events.on("job:failed", (payload) => jobsFinished.inc({ task: taskOf(payload), outcome: "failed" }));
}
