import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { newsletters, newsletterSends } from "~/db/schema";
import { SYSTEM_ACTOR } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { fromDateTimeLocal, inTimeZone, isoDayOf } from "~/lib/dates";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import { digestStoriesOf, digestSubject, emailSiteOf } from "./newsletter-email.server";
import type { Newsletter } from "./newsletters.server";

// Digests' schedule (issue 30, decision 0043): "Daily at HH:MM" or "Weekly on {day} at HH:MM" on the
// site's wall clock (TIME_ZONE). A job of the queue's crontab runs every minute; a digest whose latest
// scheduled time has come since its last one gets a send with the stories published since the
// previous digest (the first: the day or the week before), or, with none, a send recorded as skipped.
// Exactly once per time, whatever the number of runners: last_digest_at is moved by a conditional
// update, in the transaction that creates the send.

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const NEWSLETTER_DIGESTS_TASK = "newsletter-digests";
export const NO_NEW_STORIES = "No new stories since the last digest";

export interface DigestSchedule {
  frequency: "daily" | "weekly";
  /** 0 = Sunday … 6 = Saturday (weekly). */
  weekday: number | null;
  /** "HH:MM" */
  time: string;
}

/** The latest time at or before `now` the schedule names, on the wall clock of `timeZone`. */
export function latestDigestTime(now: Date, timeZone: string, schedule: DigestSchedule): Date {
  const wall = inTimeZone(now, timeZone);
  for (let back = 0; back <= 8; back++) {
    const day = new Date(wall.getFullYear(), wall.getMonth(), wall.getDate() - back);
    if (schedule.frequency === "weekly" && day.getDay() !== schedule.weekday) continue;
    const at = fromDateTimeLocal(`${isoDayOf(day)}T${schedule.time}`, timeZone);
    if (at && at.getTime() <= now.getTime()) return at;
  }
  throw new Error(`no digest time in the last week for ${JSON.stringify(schedule)}`);
}

export function scheduleOf(newsletter: Pick<Newsletter, "kind" | "digestFrequency" | "digestWeekday" | "digestTime">): DigestSchedule | null {
  if (newsletter.kind !== "digest" || !newsletter.digestFrequency || !newsletter.digestTime) return null;
  return { frequency: newsletter.digestFrequency, weekday: newsletter.digestWeekday, time: newsletter.digestTime };
}

/** Whether a digest is due at `now`: its latest scheduled time came after its last digest (or its creation). */
export function digestIsDue(newsletter: Newsletter, now: Date, timeZone: string): boolean {
  const schedule = scheduleOf(newsletter);
  if (!schedule || newsletter.archivedAt) return false;
  const since = newsletter.lastDigestAt ?? newsletter.createdAt;
  return latestDigestTime(now, timeZone, schedule).getTime() > since.getTime();
}

export interface DigestDeps {
  db: Db;
  log: Logger;
  env: Pick<Env, "publicUrl" | "TIME_ZONE">;
  now?: () => Date;
  /** The send engine's job for a send (newsletter-sends.server.ts). */
  enqueueSend: (tx: Tx, sendId: string) => Promise<void>;
}

/** Creates the sends of every digest that is due now; returns what it did. */
export async function runDueDigests(deps: DigestDeps): Promise<{ queued: string[]; skipped: string[] }> {
  const { db, log, env } = deps;
  const now = deps.now?.() ?? new Date();
  const done = { queued: [] as string[], skipped: [] as string[] };
  const candidates = await db.select().from(newsletters).where(and(eq(newsletters.kind, "digest"), isNull(newsletters.archivedAt)));
  for (const newsletter of candidates) {
    if (!digestIsDue(newsletter, now, env.TIME_ZONE)) continue;
    const [previous] = await db
      .select({ createdAt: newsletterSends.createdAt })
      .from(newsletterSends)
      .where(and(eq(newsletterSends.newsletterId, newsletter.id), eq(newsletterSends.kind, "digest")))
      .orderBy(desc(newsletterSends.createdAt))
      .limit(1);
    const days = newsletter.digestFrequency === "weekly" ? 7 : 1;
    const since = previous?.createdAt ?? new Date(now.getTime() - days * 86_400_000);
    const stories = await digestStoriesOf(db, newsletter, since, now);
    const site = await emailSiteOf(db, env.publicUrl, env.TIME_ZONE);
    const outcome = await db.transaction(async (tx) => {
      // Another runner may have made this digest since we read it: only one moves last_digest_at.
      const claimed = await tx.execute(sql`
        update newsletters set last_digest_at = ${now}
        where id = ${newsletter.id}::uuid and kind = 'digest' and archived_at is null
          and last_digest_at is not distinct from ${newsletter.lastDigestAt}`);
      if (!claimed.rowCount) return null;
      const [send] = await tx
        .insert(newsletterSends)
        .values({
          newsletterId: newsletter.id,
          kind: "digest",
          subject: digestSubject(site, newsletter, now),
          createdAt: now,
          ...(stories.length === 0 ? { status: "skipped" as const, note: NO_NEW_STORIES, finishedAt: now } : {}),
        })
        .returning({ id: newsletterSends.id, subject: newsletterSends.subject });
      if (stories.length === 0) return { skipped: send!.id };
      await recordActivity(tx, SYSTEM_ACTOR, {
        kind: "newsletter.send",
        objectId: send!.id,
        objectLabel: `${newsletter.name}: ${send!.subject}`,
        details: { newsletterId: newsletter.id, digest: true, stories: stories.length },
      });
      await deps.enqueueSend(tx, send!.id);
      return { queued: send!.id };
    });
    if (outcome?.queued) {
      done.queued.push(outcome.queued);
      log.info({ newsletterId: newsletter.id, sendId: outcome.queued, stories: stories.length }, "digest queued");
    } else if (outcome?.skipped) {
      done.skipped.push(outcome.skipped);
      log.info({ newsletterId: newsletter.id }, "digest skipped: no new stories");
    }
  }
  return done;
}

/** The crontab line and task of digests: every minute, the queue's cron (one runner fires each tick). */
export function newsletterDigestTasks(deps: DigestDeps) {
  return {
    tasks: {
      [NEWSLETTER_DIGESTS_TASK]: async () => {
        await runDueDigests(deps);
      },
    },
    cron: [`* * * * * ${NEWSLETTER_DIGESTS_TASK}`],
  };
}
