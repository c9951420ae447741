import pg from "pg";
import type { TaskList } from "graphile-worker";
import type { Db } from "../../app/db/client.server";
import { SITE_TAG } from "../../app/lib/cache-tags.server";
import type { ChangeEvent } from "../../app/lib/change-feed.server";
import { enqueueJob } from "../../app/lib/job-queue.server";
import type { Logger } from "../../app/lib/logger.server";
import { cacheChangeOf } from "../page-cache";
import { PurgeRefused, type PurgeAdapter } from "./adapters";
import { AD_TABLES } from "../../app/domain/ads/ad-book.server";

// Purging the CDN on change (issue 32, decision 0045). One process of the whole site (whatever the
// number of workers and machines) turns each change notice into a purge job: the one holding a
// PostgreSQL session advisory lock, tried again at each notice, so another machine takes over when
// the holder's connection dies. The job (graphile-worker, decision 0032) sends the purge through the
// adapter; a refusal is one warn line and a later attempt of the same job key.

/** The graphile-worker task that sends a purge. */
export const PURGE_TASK = "cdn-purge";
/** The key of the purge waiting to run now: notices heard meanwhile merge their tags into it. */
export const PURGE_KEY = "cdn-purge";
/** The key of the second purge, PURGE_AGAIN_AFTER_MS later (decision 0045: origins that heard late). */
export const PURGE_AGAIN_KEY = "cdn-purge-again";
/**
 * When the second purge of a change runs: a CDN that fetched a page from an origin process which had
 * not yet heard the notice (and so still held the old page) drops that copy then. graphile-worker
 * finds a job whose time came within its poll interval (2 s): 5 to 7 s after the change.
 */
export const PURGE_AGAIN_AFTER_MS = 5_000;
/** Attempts of a purge the CDN refuses, waiting 1, 2, 4 … up to 300 s between them (about 18 min in all). */
export const MAX_PURGE_ATTEMPTS = 12;
export const retryDelaySeconds = (attempt: number) => Math.min(2 ** (attempt - 1), 300);

/** The advisory lock (class, key) of the one process that enqueues purges. */
const LOCK_CLASS = 30_045;
const LOCK_NAME = "cdn-purge";

/** What one purge attempt did, for metrics (frontpage_cdn_purges_total, frontpage_cdn_purge_failures_total). */
export interface PurgeOutcome {
  adapter: string;
  ok: boolean;
  tags: number;
  ms: number;
}
export type PurgeObserver = (outcome: PurgeOutcome) => void;

/** One queued purge: its tags, and which attempt this is. A job's payload is a list of them (merged by job key). */
export interface PurgeItem {
  tags: string[];
  attempt?: number;
}

/**
 * The tags a change purges at the CDN: those it drops from the in-process cache and those it marks
 * stale. A change to the ads' campaigns (issue 43) drops nothing here (the door fills each answer) but
 * every page at the CDN: a copy it keeps is one whose slots were empty (an answer with an ad is never
 * kept by a shared cache), and a campaign just made or resumed should show there too.
 */
export function purgeTagsOf(event: ChangeEvent): string[] {
  if (AD_TABLES.has(event.table) && event.table !== "categories") return [SITE_TAG];
  const { drop, stale } = cacheChangeOf(event);
  return [...new Set([...drop, ...stale])];
}

/** Queues a purge of `item` under `key`, merged into one waiting there (its time kept). */
export async function enqueuePurge(db: Db, item: PurgeItem, options: { key: string; runAt?: Date }) {
  await enqueueJob(db, PURGE_TASK, [item], { key: options.key, runAt: options.runAt, keyMode: "preserve_run_at", maxAttempts: 3 });
}

/**
 * The purge task: the tags of every item merged (SITE_TAG alone when one names every page), sent
 * through `adapter`. A refusal is logged once (adapter, status: never a credential) and the tags are
 * queued again after a growing delay, merged with whatever comes meanwhile; after MAX_PURGE_ATTEMPTS
 * it is given up with an error line.
 */
export function cdnPurgeTasks({ adapter, db, log, onPurge }: { adapter: PurgeAdapter; db: Db; log: Logger; onPurge?: PurgeObserver }): TaskList {
  return {
    [PURGE_TASK]: async (payload) => {
      const items = (Array.isArray(payload) ? payload : [payload]) as PurgeItem[];
      const all = new Set(items.flatMap((item) => (Array.isArray(item?.tags) ? item.tags.filter((tag) => typeof tag === "string") : [])));
      if (all.size === 0) return;
      const tags = all.has(SITE_TAG) ? [SITE_TAG] : [...all];
      const attempt = Math.max(1, ...items.map((item) => (Number.isInteger(item?.attempt) ? item.attempt! : 1)));
      const started = performance.now();
      try {
        await adapter.purge({ tags });
        onPurge?.({ adapter: adapter.name, ok: true, tags: tags.length, ms: performance.now() - started });
        log.debug({ adapter: adapter.name, tags: tags.length }, "CDN purged");
      } catch (error) {
        const refused = error instanceof PurgeRefused ? error : new PurgeRefused(adapter.name, null, error instanceof Error ? error.name : "failed");
        onPurge?.({ adapter: adapter.name, ok: false, tags: tags.length, ms: performance.now() - started });
        const fields = { adapter: adapter.name, status: refused.cdnStatus, attempt, tags: tags.length };
        if (attempt >= MAX_PURGE_ATTEMPTS) {
          log.error(fields, `CDN purge given up after ${attempt} attempts: ${refused.message}`);
          return;
        }
        const delay = retryDelaySeconds(attempt);
        log.warn({ ...fields, retryInSeconds: delay }, `CDN purge failed: ${refused.message}; trying again in ${delay} s`);
        await enqueuePurge(db, { tags, attempt: attempt + 1 }, { key: PURGE_KEY, runAt: new Date(Date.now() + delay * 1000) });
      }
    },
  };
}

/**
 * Listens to `changes` and queues a purge (now, and PURGE_AGAIN_AFTER_MS later) for each notice that
 * touches cached pages, if this process holds the purge lock: tried at each such notice on a
 * connection of its own, so when the holder's connection ends (its machine died) the next notice
 * makes another process the holder. No timer: a notice is what asks.
 */
export function purgeOnChange({
  changes,
  connectionString,
  db,
  log,
}: {
  changes: { on(event: "change", listener: (event: ChangeEvent) => void): unknown; off(event: "change", listener: (event: ChangeEvent) => void): unknown };
  connectionString: string;
  db: Db;
  log: Logger;
}): { stop(): Promise<void>; holds(): boolean; idle(): Promise<void> } {
  let client: pg.Client | null = null;
  let holder = false;
  let stopped = false;
  // One notice at a time, in order.
  let chain: Promise<void> = Promise.resolve();

  const drop = (lost: pg.Client) => {
    if (client !== lost) return;
    client = null;
    if (holder) log.warn("CDN purge: lost the purge lock's connection; the next change notice decides which process purges");
    holder = false;
    void lost.end().catch(() => {});
  };

  async function holdsLock(): Promise<boolean> {
    if (holder) return true;
    if (!client) {
      const opened = new pg.Client({ connectionString, keepAlive: true });
      opened.on("error", () => drop(opened));
      opened.on("end", () => drop(opened));
      client = opened;
      await opened.connect();
    }
    const { rows } = await client.query<{ ok: boolean }>("select pg_try_advisory_lock($1, hashtext($2)) as ok", [LOCK_CLASS, LOCK_NAME]);
    holder = rows[0]?.ok === true;
    if (holder) log.info("CDN purge: this process purges for the site");
    return holder;
  }

  const listener = (event: ChangeEvent) => {
    const tags = purgeTagsOf(event);
    if (tags.length === 0 || stopped) return;
    chain = chain.then(async () => {
      try {
        if (stopped || !(await holdsLock())) return;
        await enqueuePurge(db, { tags }, { key: PURGE_KEY });
        await enqueuePurge(db, { tags }, { key: PURGE_AGAIN_KEY, runAt: new Date(Date.now() + PURGE_AGAIN_AFTER_MS) });
      } catch (error) {
        if (client) drop(client);
        log.warn({ err: error, tags: tags.length }, "CDN purge: could not queue a purge");
      }
    });
  };
  changes.on("change", listener);
  return {
    holds: () => holder,
    idle: () => chain,
    async stop() {
      stopped = true;
      changes.off("change", listener);
      await chain;
      const open = client;
      client = null;
      holder = false;
      // Ending the session releases the lock.
      await open?.end().catch(() => {});
    },
  };
}
