import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { Logger } from "~/lib/logger.server";
import type { Bucket, Storage } from "~/lib/storage.server";

/** How long a reader's upload may wait for its comment before it is treated as abandoned. */
export const ABANDONED_UPLOAD_AGE_HOURS = 6;

/**
 * Deletes readers' comment attachments that no comment (nor an article or the settings) ever came
 * to use: uploads whose comment was never posted, or whose comment was deleted. The rows go first
 * (DELETE … RETURNING, so two processes never claim the same file), then the files.
 */
export async function pruneAbandonedCommentUploads(db: Db, storage: Storage, olderThanHours = ABANDONED_UPLOAD_AGE_HOURS) {
  const result = await db.execute<{ bucket: Bucket; name: string }>(sql`
    delete from media m
    where m.source = 'comment'
      and m.created_at < now() - make_interval(hours => ${olderThanHours})
      and not exists (
        select 1 from comments c
        where c.image_url like '%/media/' || m.bucket || '/' || m.name
           or c.video_url like '%/media/' || m.bucket || '/' || m.name)
      and not exists (
        select 1 from articles a
        where a.featured_image like '%/media/' || m.bucket || '/' || m.name
           or a.video_url like '%/media/' || m.bucket || '/' || m.name)
      and not exists (
        select 1 from website_settings s
        where s.logo_url like '%/media/' || m.bucket || '/' || m.name
           or s.favicon_url like '%/media/' || m.bucket || '/' || m.name)
    returning m.bucket, m.name`);
  for (const row of result.rows) await storage.delete(row.bucket, row.name);
  return result.rows.length;
}

/** Runs the prune now and then every hour; returns a stop function. */
export function scheduleCommentUploadPruning(db: Db, storage: Storage, log: Logger): () => void {
  const run = () =>
    pruneAbandonedCommentUploads(db, storage)
      .then((n) => {
        if (n > 0) log.info({ files: n }, "removed abandoned comment uploads");
      })
      .catch((error) => log.error({ err: error }, "could not prune abandoned comment uploads"));
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, 60 * 60 * 1000);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
