import { sql, type SQL } from "drizzle-orm";
import type { TaskList } from "graphile-worker";
import type { Db } from "~/db/client.server";
import { NO_STORY } from "~/db/schema";
import { isoDayOf, inTimeZone } from "~/lib/dates";
import type { Logger } from "~/lib/logger.server";

// The hourly rollup of the raw audience events (issue 42, decision 0058): partitions made ahead, every
// complete UTC hour rolled into the rollup tables (delete and insert in one transaction: idempotent,
// catching up hour by hour after downtime), raw partitions dropped once past the retention and rolled,
// and the salts and day visitors of site days that are over deleted.
//
// The raw rows of an hour become rollup rows through `rawAudienceRows` below, and the reports
// (audience-report.server.ts) read `audienceRows`: the rollups before rolled_until and the same raw
// aggregation after it. One SQL for both, so a rolled hour reads exactly as it did unrolled.

export const AUDIENCE_ROLLUP_TASK = "audience-rollup";
/**
 * Every minute (graphile-worker's crontab, UTC; one runner a tick): each hour that ended (after its last
 * buffers), then the hour under way up to ROLLUP_SETTLE_MS ago, so a report reads at most a few minutes
 * of raw rows (issue 42: p95 ≤ 200 ms at 10 M raw events; an hour of a burst was 40,000 rows to scan).
 */
export const AUDIENCE_ROLLUP_CRON = `* * * * * ${AUDIENCE_ROLLUP_TASK}`;
/** An hour is rolled up once it ended this long ago (buffers still in flight get their time). */
export const ROLLUP_SETTLE_MS = 2 * 60_000;
/** A page load's reading reports are looked for this long around its first one (a page open longer is cut there). */
export const READ_REPORT_WINDOW = "3 hours";
/**
 * The edges (seconds) of the engaged-time histogram of audience_read_hours.engaged_buckets: bucket i
 * counts reads with edges[i] ≤ engaged seconds < edges[i + 1]; the last one, everything from 30 minutes.
 */
export const ENGAGED_BUCKETS_SECONDS = [0, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 420, 600, 900, 1200, 1800] as const;

export type AudienceRowKind = "story" | "source" | "siteSource" | "site" | "read";

/** Each rollup table and its columns, in the order the raw aggregation yields them. */
export const AUDIENCE_ROLLUPS: Record<AudienceRowKind, { table: string; columns: string[] }> = {
  story: { table: "audience_story_hours", columns: ["hour", "article_id", "views", "visitors"] },
  source: {
    table: "audience_source_hours",
    columns: ["hour", "article_id", "source", "source_host", "utm_source", "utm_medium", "utm_campaign", "ref", "views", "visitors"],
  },
  siteSource: {
    table: "audience_site_source_hours",
    columns: ["hour", "source", "source_host", "utm_source", "utm_medium", "utm_campaign", "ref", "views", "visitors"],
  },
  site: { table: "audience_site_hours", columns: ["hour", "device", "views", "visitors"] },
  read: {
    table: "audience_read_hours",
    columns: ["hour", "article_id", "reads", "engaged_ms", "engaged_buckets", "depth_25", "depth_50", "depth_75", "depth_100"],
  },
};

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const hourOf = (column: string) => sql.raw(`date_trunc('hour', ${column}, 'UTC')`);
const edgesArray = sql.raw(`array[${ENGAGED_BUCKETS_SECONDS.join(",")}]::numeric[]`);

/**
 * The raw rows of [from, to) aggregated by UTC hour exactly as the rollup table of `kind` holds them
 * (same columns, same order). Reads: one read per page load (load_id) whose first report falls in
 * [from, to), its highest engaged time and depth among its reports up to READ_REPORT_WINDOW later.
 */
export function rawAudienceRows(kind: AudienceRowKind, from: Date, to: Date): SQL {
  const story = sql`coalesce(article_id, ${NO_STORY}::uuid)`;
  switch (kind) {
    case "story":
      return sql`select ${hourOf("at")} as hour, ${story} as article_id, count(*)::int as views,
          (count(*) filter (where new_story_visitor))::int as visitors
        from audience_events where at >= ${ts(from)} and at < ${ts(to)} group by 1, 2`;
    case "source":
      // A story's visitors from a source are its own new visitors today (a reader who came to the site
      // earlier, for another story, is still this story's new visitor), as the story rows count them.
      return sql`select ${hourOf("at")} as hour, ${story} as article_id, source, source_host, utm_source, utm_medium, utm_campaign, ref,
          count(*)::int as views, (count(*) filter (where new_story_visitor))::int as visitors
        from audience_events where at >= ${ts(from)} and at < ${ts(to)} group by 1, 2, 3, 4, 5, 6, 7, 8`;
    case "siteSource":
      return sql`select ${hourOf("at")} as hour, source, source_host, utm_source, utm_medium, utm_campaign, ref,
          count(*)::int as views, (count(*) filter (where new_visitor))::int as visitors
        from audience_events where at >= ${ts(from)} and at < ${ts(to)} group by 1, 2, 3, 4, 5, 6, 7`;
    case "site":
      return sql`select ${hourOf("at")} as hour, device, count(*)::int as views, (count(*) filter (where new_visitor))::int as visitors
        from audience_events where at >= ${ts(from)} and at < ${ts(to)} group by 1, 2`;
    case "read": {
      const buckets = sql.raw(ENGAGED_BUCKETS_SECONDS.map((_, i) => `(count(*) filter (where b = ${i + 1}))::int`).join(", "));
      return sql`select ${hourOf("first_at")} as hour, article_id, count(*)::int as reads, sum(engaged_ms)::bigint as engaged_ms,
          array[${buckets}] as engaged_buckets,
          (count(*) filter (where depth >= 25))::int as depth_25, (count(*) filter (where depth >= 50))::int as depth_50,
          (count(*) filter (where depth >= 75))::int as depth_75, (count(*) filter (where depth >= 100))::int as depth_100
        from (
          select first_at, article_id, engaged_ms, depth, width_bucket(engaged_ms / 1000.0, ${edgesArray}) as b
          from (
            select load_id, min(at) as first_at, (array_agg(article_id))[1] as article_id, max(engaged_ms) as engaged_ms, max(depth) as depth
            from audience_reads
            where at >= ${ts(from)}::timestamptz - interval '${sql.raw(READ_REPORT_WINDOW)}' and at < ${ts(to)}::timestamptz + interval '${sql.raw(READ_REPORT_WINDOW)}'
            group by load_id
            having min(at) >= ${ts(from)} and min(at) < ${ts(to)}
          ) loads
        ) bucketed
        group by 1, 2`;
    }
  }
}

/** The day tables of the kinds that have one: the hour table's rows added up by UTC day. */
export const AUDIENCE_DAY_TABLES: Partial<Record<AudienceRowKind, string>> = { story: "audience_story_days", read: "audience_read_days" };

/** The day table's rows of the UTC day starting at `day`, from the hour table (same columns, `hour` = the day). */
function dayRowsOf(kind: "story" | "read", day: Date): SQL {
  const end = new Date(day.getTime() + DAY_MS);
  const where = sql`where hour >= ${ts(day)} and hour < ${ts(end)} group by article_id`;
  if (kind === "story") return sql`select ${ts(day)} as day, article_id, sum(views)::int, sum(visitors)::int from audience_story_hours ${where}`;
  const buckets = sql.raw(ENGAGED_BUCKETS_SECONDS.map((_, i) => `sum(engaged_buckets[${i + 1}])::int`).join(", "));
  return sql`select ${ts(day)} as day, article_id, sum(reads)::int, sum(engaged_ms)::bigint, array[${buckets}],
    sum(depth_25)::int, sum(depth_50)::int, sum(depth_75)::int, sum(depth_100)::int from audience_read_hours ${where}`;
}

/**
 * THE read of audience figures (every report goes through it): the rows of `kind` for [from, to) —
 * the rollup table's hours before `rolledUntil`, then the raw events from `rolledUntil` aggregated the
 * same way — as a derived table with the rollup table's columns. With `days` (a caller that does not
 * bucket by hour), the whole UTC days in between come from the day table (one row a story a day; its
 * `hour` column is the day's start).
 */
export function audienceRows(kind: AudienceRowKind, from: Date, to: Date, rolledUntil: Date, options: { days?: boolean } = {}): SQL {
  const { table, columns } = AUDIENCE_ROLLUPS[kind];
  const rolledEnd = new Date(Math.min(to.getTime(), rolledUntil.getTime()));
  const rawStart = new Date(Math.max(from.getTime(), rolledUntil.getTime()));
  const parts: SQL[] = [];
  const hours = (start: Date, end: Date) => {
    if (start < end) parts.push(sql`select ${sql.raw(columns.join(", "))} from ${sql.raw(table)} where hour >= ${ts(start)} and hour < ${ts(end)}`);
  };
  const dayTable = options.days ? AUDIENCE_DAY_TABLES[kind] : undefined;
  const firstDay = new Date(Math.ceil(from.getTime() / DAY_MS) * DAY_MS);
  const lastDayEnd = new Date(Math.floor(rolledEnd.getTime() / DAY_MS) * DAY_MS);
  if (dayTable && firstDay < lastDayEnd) {
    hours(from, firstDay);
    parts.push(sql`select ${sql.raw(["day as hour", ...columns.slice(1)].join(", "))} from ${sql.raw(dayTable)} where day >= ${ts(firstDay)} and day < ${ts(lastDayEnd)}`);
    hours(lastDayEnd, rolledEnd);
  } else hours(from, rolledEnd);
  if (rawStart < to) parts.push(rawAudienceRows(kind, rawStart, to));
  if (parts.length === 0) parts.push(sql`select ${sql.raw(columns.join(", "))} from ${sql.raw(table)} where false`);
  return sql`(${sql.join(parts, sql` union all `)})`;
}

/** Where the rollup stands: every hour before this instant is in the rollup tables. */
export async function audienceRolledUntil(db: Db | Tx): Promise<Date> {
  const result = await db.execute(sql`select rolled_until from audience_rollup_state where id = 1`);
  const value = result.rows[0]?.rolled_until;
  if (!value) throw new Error("audience_rollup_state has no row: migration 0040 did not run");
  return value instanceof Date ? value : new Date(String(value));
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** Read hours rolled again with each new hour: a page still open reports for up to READ_REPORT_WINDOW. */
export const READ_REROLL_HOURS = 3;

/**
 * Rolls one UTC hour [hour, end) in the caller's transaction (end: the hour's end, or an instant inside
 * it for the hour under way): its rollup rows deleted and inserted again, and the read hours of the
 * READ_REROLL_HOURS before it too (their pages' later reports), then the day rows of the UTC days touched.
 */
async function rollHour(tx: Tx, hour: Date, end = new Date(hour.getTime() + HOUR_MS)) {
  for (const kind of Object.keys(AUDIENCE_ROLLUPS) as AudienceRowKind[]) {
    const { table, columns } = AUDIENCE_ROLLUPS[kind];
    const start = kind === "read" ? new Date(hour.getTime() - READ_REROLL_HOURS * HOUR_MS) : hour;
    await tx.execute(sql`delete from ${sql.raw(table)} where hour >= ${ts(start)} and hour < ${ts(end)}`);
    await tx.execute(sql`insert into ${sql.raw(table)} (${sql.raw(columns.join(", "))}) ${rawAudienceRows(kind, start, end)}`);
  }
  const day = new Date(Math.floor(hour.getTime() / DAY_MS) * DAY_MS);
  const readDay = new Date(Math.floor((hour.getTime() - READ_REROLL_HOURS * HOUR_MS) / DAY_MS) * DAY_MS);
  for (const [kind, days] of [["story", [day]], ["read", readDay < day ? [readDay, day] : [day]]] as const) {
    const dayTable = AUDIENCE_DAY_TABLES[kind]!;
    for (const d of days) {
      await tx.execute(sql`delete from ${sql.raw(dayTable)} where day = ${ts(d)}`);
      await tx.execute(sql`insert into ${sql.raw(dayTable)} ${dayRowsOf(kind, d)}`);
    }
  }
}

/** Makes the raw tables' partitions from the day before `now` to 7 days after (UTC days). */
export async function makeAudiencePartitions(db: Db, now: Date): Promise<number> {
  const result = await db.execute(
    sql`select audience_make_partitions(${utcDay(new Date(now.getTime() - DAY_MS))}::date, ${utcDay(new Date(now.getTime() + 7 * DAY_MS))}::date) as made`,
  );
  return Number(result.rows[0]?.made ?? 0);
}

/**
 * Rolls every complete UTC hour from rolled_until up to the hour that ended ROLLUP_SETTLE_MS before
 * `now`, hour by hour, each in its own transaction that also moves rolled_until (the state row is
 * locked: two runners cannot roll the same hour twice at once); then the hour under way up to
 * ROLLUP_SETTLE_MS before `now` (rolled_until then lies inside it). Returns the complete hours rolled.
 */
export async function rollUpAudience(db: Db, now: Date): Promise<number> {
  const settled = now.getTime() - ROLLUP_SETTLE_MS;
  const until = Math.floor(settled / HOUR_MS) * HOUR_MS;
  let rolled = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const state = await tx.execute(sql`select rolled_until from audience_rollup_state where id = 1 for update`);
      const value = state.rows[0]?.rolled_until;
      if (!value) throw new Error("audience_rollup_state has no row: migration 0040 did not run");
      const from = value instanceof Date ? value : new Date(String(value));
      // A rolled_until inside an hour (the hour under way, rolled so far) starts at its hour.
      const hour = new Date(Math.floor(from.getTime() / HOUR_MS) * HOUR_MS);
      if (hour.getTime() + HOUR_MS > until) {
        // Every ended hour is rolled: the hour under way, up to ROLLUP_SETTLE_MS ago (rolled whole again
        // once it has ended, with any load that arrived late). Not counted among the hours rolled.
        if (from.getTime() < settled && hour.getTime() === until) {
          await rollHour(tx, hour, new Date(settled));
          await tx.execute(sql`update audience_rollup_state set rolled_until = ${ts(new Date(settled))} where id = 1`);
        }
        return true;
      }
      await rollHour(tx, hour);
      await tx.execute(sql`update audience_rollup_state set rolled_until = ${ts(new Date(hour.getTime() + HOUR_MS))} where id = 1`);
      return false;
    });
    if (done) return rolled;
    rolled++;
  }
}

/**
 * Drops the raw partitions (both tables) of UTC days that ended more than the retention's days before
 * `now` AND before rolled_until: never a row that is not rolled up yet. Returns the tables dropped.
 */
export async function dropExpiredAudiencePartitions(db: Db, now: Date): Promise<string[]> {
  const settings = await db.execute(sql`select audience_retention_days from website_settings where id = 1`);
  const retentionDays = Number(settings.rows[0]?.audience_retention_days ?? 90);
  const rolledUntil = await audienceRolledUntil(db);
  const limit = Math.min(now.getTime() - retentionDays * DAY_MS, rolledUntil.getTime());
  const partitions = await db.execute(sql`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.relname in ('audience_events', 'audience_reads')`);
  const dropped: string[] = [];
  for (const row of partitions.rows) {
    const name = String(row.name);
    const match = /^audience_(?:events|reads)_(\d{4})(\d{2})(\d{2})$/.exec(name);
    if (!match) continue;
    const end = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) + DAY_MS;
    if (end > limit) continue;
    await db.execute(sql`drop table if exists ${sql.identifier(name)}`);
    dropped.push(name);
  }
  return dropped.sort();
}

/** The site's day (YYYY-MM-DD in its time zone) at `now`: the day of the visitor hash's salt. */
export const siteDayOf = (now: Date, timeZone: string) => isoDayOf(inTimeZone(now, timeZone));

/**
 * Deletes the salts and day visitors of every site day before today's (in `timeZone`): after that no
 * one can link a visitor hash to an address, nor to the next day's hash. Returns the salts deleted.
 */
export async function forgetFinishedAudienceDays(db: Db, timeZone: string, now: Date): Promise<number> {
  const today = siteDayOf(now, timeZone);
  return db.transaction(async (tx) => {
    await tx.execute(sql`delete from audience_day_visitors where day < ${today}`);
    const salts = await tx.execute(sql`delete from audience_salts where day < ${today}`);
    return salts.rowCount ?? 0;
  });
}

export interface AudienceRollupRun {
  partitionsMade: number;
  hoursRolled: number;
  partitionsDropped: string[];
  saltsDeleted: number;
}

/** The whole job, in order: partitions, rollup, retention, finished days. */
export async function runAudienceRollup(db: Db, { timeZone, now = new Date() }: { timeZone: string; now?: Date }): Promise<AudienceRollupRun> {
  const partitionsMade = await makeAudiencePartitions(db, now);
  const hoursRolled = await rollUpAudience(db, now);
  const partitionsDropped = await dropExpiredAudiencePartitions(db, now);
  const saltsDeleted = await forgetFinishedAudienceDays(db, timeZone, now);
  return { partitionsMade, hoursRolled, partitionsDropped, saltsDeleted };
}

/** The job queue's task and crontab line (server/services.ts); the task is also queued once at start-up. */
export function audienceRollupTasks(deps: { db: Db; log: Logger; timeZone: string }): { tasks: TaskList; cron: string[] } {
  return {
    tasks: {
      [AUDIENCE_ROLLUP_TASK]: async () => {
        const run = await runAudienceRollup(deps.db, { timeZone: deps.timeZone });
        if (run.hoursRolled > 0 || run.partitionsDropped.length > 0 || run.saltsDeleted > 0) {
          deps.log.info(
            { hoursRolled: run.hoursRolled, partitionsMade: run.partitionsMade, partitionsDropped: run.partitionsDropped.length, saltsDeleted: run.saltsDeleted },
            "audience rollup",
          );
        }
      },
    },
    cron: [AUDIENCE_ROLLUP_CRON],
  };
}
