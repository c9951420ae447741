import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { FixedHistogram } from "./request-histogram";

// The metrics of a Frontpage process (issue 32, decision 0047), in one registry of this module's own
// (not prom-client's global one): every family is named frontpage_*, and every label takes values
// from a set fixed by the code or the configuration (path classes, methods, status codes, adapters,
// task names): never a path, an address, a query or a secret. Defining them costs nothing; they are
// observed only once turnMetricsOn() ran (METRICS_PORT or METRICS_TOKEN set), and collected into one
// answer for the whole machine by the primary of a cluster (server/metrics/cluster.ts).

export const registry = new Registry();

/** Which process a series comes from: the primary of a cluster (jobs, scheduler), a worker (pages), or a single process doing both. */
export type ProcessRole = "primary" | "worker" | "single";

let on = false;

/** Whether metrics are collected in this process (METRICS_PORT or METRICS_TOKEN set). */
export function metricsOn(): boolean {
  return on;
}

/**
 * Starts collecting in this process: labels every series with its role and adds prom-client's process
 * metrics (memory, CPU, event-loop lag, garbage collection, handles) as frontpage_process_* and
 * frontpage_nodejs_*. Once per process.
 */
export function turnMetricsOn(role: ProcessRole): void {
  if (on) return;
  on = true;
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry, prefix: "frontpage_" });
}

/** Seconds: from a cached page (well under a millisecond) to a slow render or upload. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Every answered request, whoever answered it (the doors before Express, or Express). Its _count is the
 * request count. Kept in plain arrays (server/metrics/request-histogram.ts): it is observed on the
 * cached page path, thousands of times a second.
 */
export const httpRequestDuration = new FixedHistogram({
  name: "frontpage_http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its answer, by path class (app/lib/path-classes.ts), method and status",
  labelNames: ["class", "method", "status"] as const,
  buckets: DURATION_BUCKETS,
  registers: [registry],
});

/**
 * Anonymous page requests by what the page cache gave them (the response's X-Cache; the cache door's
 * answers are hits), counted in plain numbers on the request path and added to the counter at scrape time.
 */
export const pageCacheAnswers = { hit: 0, stale: 0, miss: 0 };
const pageCacheReported = { hit: 0, stale: 0, miss: 0 };

export const pageCacheRequests = new Counter({
  name: "frontpage_page_cache_requests_total",
  help: "Requests answered from the page cache (hit), from a stale copy while it renders again (stale), or rendered and stored (miss)",
  labelNames: ["result"] as const,
  registers: [registry],
  collect() {
    for (const result of ["hit", "stale", "miss"] as const) {
      this.inc({ result }, pageCacheAnswers[result] - pageCacheReported[result]);
      pageCacheReported[result] = pageCacheAnswers[result];
    }
  },
});

export const cdnPurges = new Counter({
  name: "frontpage_cdn_purges_total",
  help: "Purge requests sent to the CDN, by adapter and outcome (ok, failed)",
  labelNames: ["adapter", "outcome"] as const,
  registers: [registry],
});

export const cdnPurgeFailures = new Counter({
  name: "frontpage_cdn_purge_failures_total",
  help: "Purge requests the CDN refused or that did not reach it, by adapter",
  labelNames: ["adapter"] as const,
  registers: [registry],
});

export const cdnPurgeDuration = new Histogram({
  name: "frontpage_cdn_purge_duration_seconds",
  help: "Time a purge took, retries included, by adapter",
  labelNames: ["adapter"] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const dbQueryDuration = new Histogram({
  name: "frontpage_db_query_duration_seconds",
  help: "Time of the app's queries from sending to the answer, by outcome (ok, error)",
  labelNames: ["outcome"] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const schedulerRuns = new Counter({
  name: "frontpage_scheduler_runs_total",
  help: "Runs of the publishing scheduler, by outcome (ok, failed)",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

export const schedulerPublished = new Counter({
  name: "frontpage_scheduler_published_total",
  help: "Scheduled stories the publishing scheduler published",
  registers: [registry],
});

export const jobsFinished = new Counter({
  name: "frontpage_jobs_total",
  help: "Job attempts finished by the queue's runner, by task and outcome (success; error: the attempt threw; failed: it was the last attempt, the job is given up, also counted as error)",
  labelNames: ["task", "outcome"] as const,
  registers: [registry],
});

/** What the CDN purger tells its observer after each purge (server/cdn/: `onPurge`). */
export interface CdnPurgeOutcome {
  adapter: string;
  ok: boolean;
  tags: number;
  ms: number;
}

/** The adapter label: the purger's adapter name as configured (CDN=), anything unexpected as "other". */
function adapterLabel(adapter: string): string {
  return /^[a-z][a-z0-9_-]{0,23}$/.test(adapter) ? adapter : "other";
}

/** The CDN purger's `onPurge` observer (wired where the purger is made): counts the purge, its failure and its time. */
export function observeCdnPurge(outcome: CdnPurgeOutcome): void {
  if (!on) return;
  const adapter = adapterLabel(outcome.adapter);
  cdnPurges.inc({ adapter, outcome: outcome.ok ? "ok" : "failed" });
  if (!outcome.ok) cdnPurgeFailures.inc({ adapter });
  if (Number.isFinite(outcome.ms) && outcome.ms >= 0) cdnPurgeDuration.observe({ adapter }, outcome.ms / 1000);
}

/** The publishing scheduler's observer (app/domain/articles/scheduler.server.ts): one call per run. */
export function observeSchedulerRun(run: { ok: boolean; published: number }): void {
  if (!on) return;
  schedulerRuns.inc({ outcome: run.ok ? "ok" : "failed" });
  if (run.published > 0) schedulerPublished.inc(run.published);
}
