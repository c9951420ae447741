import { sql } from "drizzle-orm";
import { SYSTEM_ACTOR } from "~/domain/accounts/actor";
import type { Db } from "~/db/client.server";
import { queueStorySends } from "~/domain/newsletters/newsletter-sends.server";
import { notifyPublished } from "~/domain/notifications/notifications.server";
import type { Logger } from "~/lib/logger.server";

/** How often the scheduler looks for due articles (SCHEDULER_INTERVAL_MS overrides it). */
export const DEFAULT_SCHEDULER_INTERVAL_MS = 20_000;

/** At most this many due articles are published by one statement (the next run takes the rest). */
const BATCH = 100;

/**
 * Publishes every scheduled article whose time has come, in one statement, and returns them.
 * Safe with any number of processes: the rows are claimed with FOR UPDATE SKIP LOCKED, and the
 * UPDATE re-checks `status = 'scheduled'`, so a row another process is publishing (or has published)
 * is skipped: each article is published exactly once. The UPDATE fires the articles change trigger
 * (status and published_at are among its columns since migration 0003), which clears every
 * process's page cache and refreshes the dashboards.
 */
export async function publishDueArticles(db: Db, limit = BATCH): Promise<{ id: string; slug: string }[]> {
  // The change trigger is per statement: an UPDATE of no row would still announce a change and clear
  // every page cache at each tick. A look through the (status, published_at) index first avoids that.
  const due = await db.execute<{ due: boolean }>(
    sql`select exists (select 1 from articles where status = 'scheduled' and published_at <= now()) as due`,
  );
  if (!due.rows[0]?.due) return [];
  // Each publication is written to the audit trail by the system, in the same statement (decision 0017),
  // its people are told "'{title}' was published" in the same transaction (issue 27), and its newsletters
  // are queued (issue 30).
  return db.transaction(async (tx) => {
    const result = await tx.execute<{ id: string; slug: string; title: string }>(sql`
      with published as (
        update articles a set status = 'published', updated_at = now()
        from (
          select id from articles
          where status = 'scheduled' and published_at <= now()
          order by published_at
          limit ${limit}
          for update skip locked
        ) due
        where a.id = due.id and a.status = 'scheduled'
        returning a.id, a.slug, a.title
      ), logged as (
        insert into audit_events (actor_id, actor_name, kind, object_type, object_id, object_label, details)
        select null, ${SYSTEM_ACTOR.name}, 'article.publish', 'article', id::text, title, '{"status":"published","scheduled":true}'::jsonb
        from published
      )
      select id, slug, title from published`);
    for (const article of result.rows) {
      await notifyPublished(tx, article, null);
      // Its "Send by e-mail" newsletters go now, once (issue 30): queued in this same transaction.
      await queueStorySends(tx, article, null);
    }
    return result.rows.map(({ id, slug }) => ({ id, slug }));
  });
}

/**
 * Runs publishDueArticles now (catching up on whatever became due while no process ran) and then
 * every `intervalMs`, one run at a time; `onRun` hears how each run went (the metrics). Returns a stop
 * function that waits for a run under way.
 */
export function startPublishingScheduler(
  db: Db,
  log: Logger,
  intervalMs = DEFAULT_SCHEDULER_INTERVAL_MS,
  onRun?: (run: { ok: boolean; published: number }) => void,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    let total = 0;
    running = (async () => {
      // Keep going while full batches come back: a long downtime may leave many due at once.
      for (;;) {
        const published = await publishDueArticles(db);
        total += published.length;
        for (const article of published) log.info({ articleId: article.id, slug: article.slug }, "scheduled article published");
        if (published.length < BATCH || stopped) break;
      }
      onRun?.({ ok: true, published: total });
    })()
      .catch((error: unknown) => {
        log.error({ err: error }, "could not publish scheduled articles; will retry");
        onRun?.({ ok: false, published: total });
      })
      .finally(() => {
        running = null;
      });
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
