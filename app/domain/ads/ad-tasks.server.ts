import { sql } from "drizzle-orm";
import type { TaskList } from "graphile-worker";
import type { Db } from "~/db/client.server";
import type { Logger } from "~/lib/logger.server";

/** The job that forgets the marks of counted clicks and viewable impressions once their day is over. */
export const AD_MARKS_TIDY_TASK = "ad-marks-tidy";
/** Hourly (graphile-worker's crontab, UTC). */
export const AD_MARKS_TIDY_CRON = `17 * * * * ${AD_MARKS_TIDY_TASK}`;

/**
 * Deletes ad_marks of days before yesterday (UTC dates: a day either side of the site's own covers
 * every time zone): a mark only has to outlive its day, to refuse a second count that day.
 */
export async function tidyAdMarks(db: Db): Promise<number> {
  const result = await db.execute(sql`delete from ad_marks where day < (now() at time zone 'utc')::date - 2`);
  return result.rowCount ?? 0;
}

export function adTasks(deps: { db: Db; log: Logger }): { tasks: TaskList; cron: string[] } {
  return {
    tasks: {
      [AD_MARKS_TIDY_TASK]: async () => {
        const deleted = await tidyAdMarks(deps.db);
        if (deleted > 0) deps.log.info({ deleted }, "old ad marks deleted");
      },
    },
    cron: [AD_MARKS_TIDY_CRON],
  };
}
