import { sql } from "drizzle-orm";
import type { TaskList } from "graphile-worker";
import type { Db } from "../../app/db/client.server";
import { SHORT_SHARED_SECONDS } from "../../app/lib/cache-control";
import { CHANGE_CHANNEL, ChangeFeed, signalPayload } from "../../app/lib/change-feed.server";
import { enqueueJob } from "../../app/lib/job-queue.server";
import type { Logger } from "../../app/lib/logger.server";
import type { Lifecycle } from "../lifecycle";
import type { CdnStatus } from "./index";
import { purgeOnChange } from "./purger";

// A purge target that did not answer is asked again (issue 39): systemd starts Varnish and Frontpage
// in either order and restarts either one. No timer of ours: a check that finds the target silent
// queues the next one in the job queue (graphile-worker, decision 0032; one job at a time for the
// whole site, merged by key), which the site-services process runs; once the target answers there,
// a signal on the change channel makes every process ask for itself (each one decides its own
// lifetime, decision 0045) and purging turns on.

/** The graphile-worker task that asks the purge target again. */
export const CHECK_TASK = "cdn-check";
const CHECK_KEY = "cdn-check";
/** The signal sent when the purge target answered a check: every process still waiting asks again. */
export const CDN_ANSWERED = "cdn-answered";

/**
 * The wait before the next check after `failures` in a row: 1, 2, 4 … then every 30 s, the short
 * shared-cache lifetime: a CDN keeps nothing longer than that while purging is off.
 */
export const checkDelaySeconds = (failures: number) => Math.min(2 ** (Math.max(failures, 1) - 1), SHORT_SHARED_SECONDS);

/**
 * Queues a check `delaySeconds` from now, merged with one waiting (which keeps its earlier time); a
 * check whose signal could not be sent (the database went away meanwhile) is run again.
 */
async function enqueueCdnCheck(db: Db, delaySeconds: number) {
  await enqueueJob(db, CHECK_TASK, {}, { key: CHECK_KEY, runAt: new Date(Date.now() + delaySeconds * 1000), keyMode: "preserve_run_at", maxAttempts: 3 });
}

/** The check task, for the job queue of the process whose CdnStatus is `status`. */
export function cdnCheckTasks({ status, db }: { status: CdnStatus; db: Db }): TaskList {
  return {
    [CHECK_TASK]: async () => {
      // A silent target queues the next check through followCdnChecks (this process follows its status).
      const state = await status.recheck();
      if (state.on) await db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${signalPayload(CDN_ANSWERED)})`);
    },
  };
}

const followed = new WeakSet<CdnStatus>();

/**
 * Keeps asking for this process's `status` while the purge target does not answer: each check that
 * finds it silent queues the next one (checkDelaySeconds), and the target's answer, signalled by the
 * process that heard it, makes this one ask at once. Once per status (a single process's site and
 * request services share one).
 */
export function followCdnChecks({
  status,
  db,
  changes,
  log,
}: {
  status: CdnStatus;
  db: Db;
  changes: { on(event: "signal", listener: (name: string) => void): unknown };
  log: Logger;
}) {
  if (followed.has(status)) return;
  followed.add(status);
  status.watch((state) => {
    if (!state.waiting) return;
    const delay = checkDelaySeconds(status.failures());
    log.debug({ reason: state.reason, retryInSeconds: delay }, "CDN purge target not answering; asking again later");
    enqueueCdnCheck(db, delay).catch((error: unknown) => log.warn({ err: error }, "CDN purge: could not queue the next check of the purge target"));
  });
  changes.on("signal", (name) => {
    if (name === CDN_ANSWERED && status.current().waiting) void status.recheck();
  });
}

/**
 * Purges the CDN on change once `status` says it answered and took the credentials: at once, or later when a purge target
 * that did not answer at start does (server/cdn/check.ts). The change feed starts now: it also hears
 * when another process found the target answering.
 */
export async function purgeWhenCdnAnswers({
  status,
  databaseUrl,
  db,
  log,
  lifecycle,
}: {
  status: CdnStatus;
  databaseUrl: string;
  db: Db;
  log: Logger;
  lifecycle: Pick<Lifecycle, "onShutdown" | "shuttingDown">;
}) {
  const changes = new ChangeFeed(databaseUrl, log);
  lifecycle.onShutdown("CDN change feed", () => changes.stop());
  await changes.start();
  followCdnChecks({ status, db, changes, log });
  let waitingSaid = false;
  status.watch((state) => {
    if (state.waiting) {
      // Said once; each later check is a debug line (followCdnChecks).
      if (!waitingSaid) log.warn(`CDN purge waiting: ${state.reason}; shared caches keep pages 30 s until it answers (asked again in the background)`);
      waitingSaid = true;
    } else if (!state.on) log.error(`CDN purge off: ${state.reason}; shared caches keep pages 30 s`);
    else if (!lifecycle.shuttingDown) {
      log.info({ adapter: state.adapter.name, sharedCache: state.sharedCache["Cache-Control"] }, `CDN purge on: ${state.adapter.name}`);
      // Every change notice is a purge, queued by one process of the site (the purge lock's holder).
      // Listening from here on, before any process hears that purging is on and keeps pages longer.
      const purger = purgeOnChange({ changes, connectionString: databaseUrl, db, log });
      lifecycle.onShutdown("CDN purges", () => purger.stop());
    }
  });
}
