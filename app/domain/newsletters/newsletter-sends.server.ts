import { PLAN_EACH_TIME } from "~/db/prepared-statements.server";
import { performance } from "node:perf_hooks";
import { eq, sql } from "drizzle-orm";
import type { TaskList } from "graphile-worker";
import type pg from "pg";
import type { Db } from "~/db/client.server";
import { newsletterSends, user } from "~/db/schema";
import { actorName, SYSTEM_ACTOR, type Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { checkCapability } from "~/domain/articles/article-access.server";
import { AppError } from "~/lib/app-error";
import type { Env } from "~/lib/env.server";
import { enqueueJob } from "~/lib/job-queue.server";
import type { Logger } from "~/lib/logger.server";
import { NO_NEW_STORIES, newsletterDigestTasks } from "./newsletter-digests.server";
import {
  digestSendEmail,
  emailSiteOf,
  emailStoryOfArticle,
  personalizeEmail,
  storyEmailVariants,
  type NewsletterEmail,
  type StoryEmailVariants,
} from "./newsletter-email.server";
import { PUBLIC_STORY } from "~/domain/members/access";
import { paidAccessSqlText } from "~/domain/members/members.server";
import { getSettings } from "~/domain/settings/settings.server";
import { listUnsubscribeHeaders, newsletterFromAddress, type Delivery, type NewsletterMessage, type NewsletterTransport } from "./newsletter-transport.server";
import { newsletterById, type Newsletter } from "./newsletters.server";
import { subscriberToken } from "./subscriber-tokens.server";

export { newsletterTransportKind } from "./newsletter-transport.server";

// The send engine (issue 30, decisions 0043 and 0053). A send is a job of the one queue (graphile-worker,
// decision 0032), keyed by the send, so it runs once at a time and survives restarts. It freezes its
// recipients in one statement, renders the e-mail once, and delivers through the transport with at
// most the pool's size plus one claim batch of recipients in state 'sending' at any moment: each
// statement records the messages that finished and claims as many rows as that leaves room for, half
// a batch at a time, so a connection that finishes always has its next message waiting. Killed
// (kill -9), the rows found 'sending' at the next start are the messages that were claimed and not
// recorded: at most the pool's size plus one batch, sent again and listed as "may have been sent twice".

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const NEWSLETTER_SEND_TASK = "newsletter-send";
export const NEWSLETTER_TEST_TASK = "newsletter-test";

const sendJobKey = (sendId: string) => `${NEWSLETTER_SEND_TASK}:${sendId}`;

/** Adds (or brings forward) the send's one job: the same key never makes a second runner of one send. */
async function enqueueSend(db: Tx | Db, sendId: string, runAt?: Date): Promise<void> {
  await enqueueJob(db, NEWSLETTER_SEND_TASK, { sendId }, { key: sendJobKey(sendId), maxAttempts: 25, ...(runAt ? { runAt } : {}) });
}

async function actorOfId(tx: Tx, actorId: string | null): Promise<Actor> {
  if (!actorId) return SYSTEM_ACTOR;
  const [row] = await tx.select({ email: user.email, name: user.name }).from(user).where(eq(user.id, actorId));
  return row ? { id: actorId, name: actorName(row) } : { id: actorId, name: actorId };
}

/**
 * Called in the transaction that makes an article public (publish now, scheduler): one send per chosen
 * newsletter, never twice. `onlyNewsletterId`: that chosen newsletter alone (a public story sent now
 * from its edit page). Answers how many sends it queued (0: each had its send already).
 */
export async function queueStorySends(tx: Tx, article: { id: string }, actorId: string | null, onlyNewsletterId?: string): Promise<number> {
  // The unique index on (newsletter, article) for story sends makes this exactly once per pair:
  // updating, unpublishing and republishing run it again and it inserts nothing.
  const queued = await tx.execute<{ id: string; newsletter_id: string; subject: string; name: string }>(sql`
    with queued as (
      insert into newsletter_sends (newsletter_id, article_id, kind, subject, created_by_id)
      select an.newsletter_id, a.id, 'story', a.title, ${actorId}
      from article_newsletters an
      join newsletters n on n.id = an.newsletter_id and n.archived_at is null and n.kind = 'stories'
      join articles a on a.id = an.article_id
      where an.article_id = ${article.id} ${onlyNewsletterId ? sql`and an.newsletter_id = ${onlyNewsletterId}::uuid` : sql``}
      on conflict (newsletter_id, article_id) where kind = 'story' do nothing
      returning id, newsletter_id, subject
    )
    select q.id, q.newsletter_id, q.subject, n.name from queued q join newsletters n on n.id = q.newsletter_id`);
  if (queued.rows.length === 0) return 0;
  const actor = await actorOfId(tx, actorId);
  for (const send of queued.rows) {
    await recordActivity(tx, actor, {
      kind: "newsletter.send",
      objectId: send.id,
      objectLabel: `${send.name}: ${send.subject}`,
      details: { newsletterId: send.newsletter_id, articleId: article.id, ...(actorId ? {} : { scheduled: true }) },
    });
    await enqueueSend(tx, send.id);
  }
  return queued.rows.length;
}

export const SEND_NOT_CANCELLABLE = "This send has finished: there is nothing left to cancel.";

/** "Cancel send": what has not gone yet does not go (queued and deferred recipients); what went, went. */
export async function cancelSend(db: Db, sendId: string, actor: Actor): Promise<{ cancelled: number }> {
  checkCapability(actor, "newsletters.send", "Your role cannot send newsletters.");
  return db.transaction(async (tx) => {
    const stopped = await tx.execute<{ id: string; subject: string; name: string; newsletter_id: string }>(sql`
      update newsletter_sends s set status = 'cancelled', finished_at = now()
      from newsletters n
      where s.id = ${sendId}::uuid and n.id = s.newsletter_id and s.status in ('queued', 'sending')
      returning s.id, s.subject, n.name, s.newsletter_id`);
    const send = stopped.rows[0];
    if (!send) {
      const [exists] = await tx.select({ id: newsletterSends.id }).from(newsletterSends).where(eq(newsletterSends.id, sendId));
      throw exists ? new AppError("invalid_input", SEND_NOT_CANCELLABLE, { status: 409 }) : new AppError("not_found", "This send does not exist.");
    }
    const cancelled = await tx.execute(sql`
      update send_recipients set status = 'cancelled', next_attempt_at = null
      where send_id = ${sendId}::uuid and status in ('queued', 'deferred')`);
    await recordActivity(tx, actor, {
      kind: "newsletter.cancel",
      objectId: send.id,
      objectLabel: `${send.name}: ${send.subject}`,
      details: { newsletterId: send.newsletter_id, cancelled: cancelled.rowCount ?? 0 },
    });
    return { cancelled: cancelled.rowCount ?? 0 };
  });
}

/** Queues a test e-mail of an already-rendered story to one address (job queue), logged as newsletter.test. */
export async function queueTestEmail(db: Db, input: { newsletterId: string; to: string; email: NewsletterEmail }, actor: Actor): Promise<void> {
  checkCapability(actor, "newsletters.send", "Your role cannot send newsletters.");
  const to = input.to.trim();
  if (!/^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/.test(to)) throw new AppError("invalid_input", "Enter a valid e-mail address.", { field: "testEmail" });
  const newsletter = await newsletterById(db, input.newsletterId);
  if (!newsletter) throw new AppError("not_found", "This newsletter does not exist.");
  await db.transaction(async (tx) => {
    await recordActivity(tx, actor, { kind: "newsletter.test", objectId: newsletter.id, objectLabel: `${newsletter.name}: ${input.email.subject}`, details: { to } });
    await enqueueJob(tx, NEWSLETTER_TEST_TASK, { newsletterId: newsletter.id, to, ...input.email }, { key: `${NEWSLETTER_TEST_TASK}:${crypto.randomUUID()}`, maxAttempts: 5 });
  });
}

export interface SendSummary {
  id: string;
  kind: "story" | "digest";
  status: "queued" | "sending" | "sent" | "cancelled" | "failed" | "skipped";
  subject: string;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  recipients: number;
  accepted: number;
  failed: number;
  bounced: number;
  complaints: number;
  unsubscribes: number;
  /** Null when the newsletter does not track opens and clicks (and none were recorded). */
  opens: number | null;
  clicks: number | null;
  /** Recipients in flight when a sending process was killed: they may have received it twice. */
  mayBeDuplicate: number;
  note: string | null;
  articleTitle: string | null;
}

/** A newsletter's sends, newest first, with what became of their recipients. */
export async function sendsOfNewsletter(db: Db, newsletterId: string, options: { limit?: number } = {}): Promise<SendSummary[]> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 200);
  const result = await db.execute<{
    id: string;
    kind: SendSummary["kind"];
    status: SendSummary["status"];
    subject: string;
    created_at: string;
    started_at: string | null;
    finished_at: string | null;
    recipients: number;
    note: string | null;
    article_title: string | null;
    tracks: boolean;
    accepted: number;
    failed: number;
    bounced: number;
    complaints: number;
    unsubscribes: number;
    opens: number;
    clicks: number;
    may_be_duplicate: number;
  }>(sql`
    select s.id, s.kind, s.status, s.subject, s.created_at, s.started_at, s.finished_at, s.recipients, s.note,
      a.title as article_title, n.track_engagement as tracks, c.*
    from newsletter_sends s
    join newsletters n on n.id = s.newsletter_id
    left join articles a on a.id = s.article_id
    cross join lateral (
      select
        count(*) filter (where r.status = 'sent')::int as accepted,
        count(*) filter (where r.status = 'failed')::int as failed,
        count(*) filter (where r.status = 'bounced')::int as bounced,
        count(*) filter (where r.status = 'complained')::int as complaints,
        count(r.unsubscribed_at)::int as unsubscribes,
        count(r.opened_at)::int as opens,
        count(r.clicked_at)::int as clicks,
        count(*) filter (where r.may_be_duplicate)::int as may_be_duplicate
      from send_recipients r where r.send_id = s.id
    ) c
    where s.newsletter_id = ${newsletterId}::uuid
    order by s.created_at desc, s.id desc
    limit ${limit}`);
  const date = (v: string | null) => (v === null ? null : new Date(v));
  return result.rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    subject: r.subject,
    createdAt: new Date(r.created_at),
    startedAt: date(r.started_at),
    finishedAt: date(r.finished_at),
    recipients: r.recipients,
    accepted: r.accepted,
    failed: r.failed,
    bounced: r.bounced,
    complaints: r.complaints,
    unsubscribes: r.unsubscribes,
    opens: r.tracks || r.opens > 0 ? r.opens : null,
    clicks: r.tracks || r.clicks > 0 ? r.clicks : null,
    mayBeDuplicate: r.may_be_duplicate,
    note: r.note,
    articleTitle: r.article_title,
  }));
}

// ---------------------------------------------------------------- the engine

export interface NewsletterDeps {
  db: Db;
  log: Logger;
  transport: NewsletterTransport;
  env: Pick<Env, "publicUrl" | "TIME_ZONE" | "NEWSLETTER_FROM" | "MAIL_FROM">;
  /** The session secret: it signs the subscribers' unsubscribe and preferences links. */
  secret: string;
  /** Waits before the attempts after a 4xx (the last repeats): 1 min, 5, 15, 1 h, 2, 4, 8 h. */
  retryDelaysMs?: readonly number[];
  /** A recipient still refused with 4xx this long after their first attempt has failed (24 h). */
  retryWindowMs?: number;
  /** How long a send whose transport is down waits before it tries again (30 s). */
  pauseMs?: number;
  /** Recipients claimed ahead of the transport's pool (CLAIM_BATCH): rows in 'sending' never exceed the pool plus this. */
  claimBatch?: number;
  /** The clock of digests' schedules (tests fix it). */
  now?: () => Date;
}

export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 3_600_000, 2 * 3_600_000, 4 * 3_600_000, 8 * 3_600_000] as const;
export const RETRY_WINDOW_MS = 24 * 3_600_000;
const PAUSE_MS = 30_000;
/** This many messages in a row finding the transport down pause the send. */
const DOWN_IN_A_ROW = 3;
/**
 * Recipients claimed ahead of the pool (issue 39): the messages waiting behind the pool's connections,
 * so a connection that finishes starts its next message without waiting on the database, and one
 * statement records and claims half a batch. Rows in 'sending' (what a kill -9 can leave, listed as
 * "may have been sent twice") are at most the pool's size plus this.
 */
export const CLAIM_BATCH = 50;
/** A result waits at most this long to be written when fewer than half a batch came back (a slow transport). */
const FLUSH_MS = 500;

/**
 * When to try a recipient again after their `attempts`-th attempt was refused with a 4xx: null when
 * the next try would come more than the window after the first (then they have failed).
 */
export function retryDelayMs(attempts: number, delays: readonly number[] = RETRY_DELAYS_MS, windowMs = RETRY_WINDOW_MS): number | null {
  const delayOf = (n: number) => delays[Math.min(n - 1, delays.length - 1)]!;
  let elapsed = 0;
  for (let n = 1; n < attempts; n++) elapsed += delayOf(n);
  const next = delayOf(attempts);
  return elapsed + next > windowMs ? null : next;
}

/** Messages a second, over this process (decision 0043: only the primary process runs the queue). */
class TokenBucket {
  private next = 0;
  constructor(private readonly rate: number) {}
  async take(): Promise<void> {
    const now = performance.now();
    this.next = Math.max(this.next, now);
    const wait = this.next - now;
    this.next += 1000 / this.rate;
    // A few milliseconds of burst are let through: timers are not finer than that.
    if (wait > 4) await new Promise((r) => setTimeout(r, wait));
  }
}

/** The advisory lock class of sends: one process at a time delivers a send (pg_try_advisory_lock(class, hashtext(id))). */
const SEND_LOCK_CLASS = 30_043;

interface Claimed {
  subscriber_id: string;
  email: string;
  attempts: number;
  token_key: string | null;
  active: boolean;
  /** Whether their member record gives them the whole of the send's story now (issue 40): its whole e-mail, else its teaser. */
  entitled: boolean;
}

/** A row of RECORD_AND_CLAIM: the send's status, with a claimed recipient (or, when none was, nulls). */
type ClaimRow = { send_status: string } & { [K in keyof Claimed]: Claimed[K] | null };

interface Outcome {
  subscriberId: string;
  status: "sent" | "deferred" | "bounced" | "failed" | "queued" | "cancelled";
  error: string | null;
  nextAttemptAt: Date | null;
}

/**
 * Records what became of finished messages and claims up to `room` more recipients, in one statement.
 * Rows in 'sending' never exceed what is claimed and not yet finished plus what just finished, whose
 * results this same statement writes: at most the pool plus one batch. A 5xx marks the subscriber
 * bounced (suppressed from every later send); a recipient whose subscriber left (unsubscribed, erased)
 * since the list was frozen comes back inactive and is not sent to. Always one row at least: the
 * send's status (a cancel is seen at the next statement), with each claimed recipient.
 *
 * Each claimed recipient comes with whether they may read the send's story whole (issue 40), decided
 * here, at the claim, from their member record as it is now: `$7` is the story's access as its e-mails
 * were rendered ('public' for a digest), `$8` a paid story's tier (null: any paid tier). Public and
 * members-only: every recipient (each is a confirmed subscriber, so a member); paid: a subscription in
 * a paid status or a complimentary plan not ended, of that tier (members.server.ts, the one rule).
 * Evaluated for the claimed rows only, and only for a paid story.
 */
const RECORD_AND_CLAIM = `${PLAN_EACH_TIME}
  with results as (
    select * from unnest($2::uuid[], $3::text[], $4::text[], $5::timestamptz[]) as r(subscriber_id, status, error, next_at)
  ), recorded as (
    update send_recipients s set
      status = r.status,
      last_error = r.error,
      next_attempt_at = r.next_at,
      sent_at = case when r.status = 'sent' then now() else s.sent_at end,
      attempts = case when r.status = 'queued' then s.attempts - 1 else s.attempts end
    from results r
    where s.send_id = $1 and s.subscriber_id = r.subscriber_id and s.status = 'sending'
    returning s.subscriber_id, s.status
  ), suppressed as (
    update subscribers b set status = 'bounced', updated_at = now()
    from recorded
    where recorded.status = 'bounced' and b.id = recorded.subscriber_id and b.status in ('active', 'pending')
    returning b.id
  ), picked as materialized (
    -- Run once (materialized): as the inner side of a nested loop (a plan PostgreSQL chose when its
    -- statistics had not yet seen this send's rows) the pick ran again for every row, each time
    -- skipping the rows just claimed, and claimed twice its limit.
    select subscriber_id from send_recipients
    where send_id = $1 and status in ('queued', 'deferred') and (status = 'queued' or next_attempt_at <= now())
      and exists (select 1 from newsletter_sends where id = $1 and status = 'sending')
    limit $6
    for update skip locked
  ), claimed as (
    update send_recipients s set status = 'sending', attempts = s.attempts + 1
    from picked c
    where s.send_id = $1 and s.subscriber_id = c.subscriber_id
    returning s.subscriber_id, s.email, s.attempts
  )
  select n.status as send_status, c.subscriber_id, c.email, c.attempts, b.token_key, coalesce(b.status = 'active', false) as active,
    case when c.subscriber_id is null then null when $7::text <> 'paid' then true
      else ${paidAccessSqlText("c.subscriber_id", "$8::uuid")} end as entitled
  from newsletter_sends n
  left join claimed c on true
  left join subscribers b on b.id = c.subscriber_id
  where n.id = $1`;

interface LoadedSend {
  id: string;
  newsletterId: string;
  articleId: string | null;
  kind: "story" | "digest";
  status: string;
  createdAt: Date;
}

/**
 * The e-mails of a send, each rendered once: a story's whole e-mail and, for a gated story, its teaser
 * (issue 40); a digest's one e-mail (its stories' titles and summaries, the same for everyone). Null
 * when there is nothing to send any more (the story was deleted, the digest's stories all gone).
 */
async function renderSend(deps: NewsletterDeps, send: LoadedSend, newsletter: Newsletter): Promise<StoryEmailVariants | null> {
  const { db, env } = deps;
  if (send.kind === "story") {
    const story = send.articleId ? await emailStoryOfArticle(db, send.articleId, env.publicUrl) : null;
    if (!story) return null;
    const [site, settings] = await Promise.all([emailSiteOf(db, env.publicUrl, env.TIME_ZONE), getSettings(db)]);
    return storyEmailVariants(site, newsletter, story, settings.paywallParagraphs ?? 3);
  }
  // The same e-mail the digest's browser view shows (decision 0042).
  const digest = await digestSendEmail(db, send, newsletter, env.publicUrl, env.TIME_ZONE);
  return digest.stories > 0 ? { access: PUBLIC_STORY, whole: digest.email, teaser: null } : null;
}

/** Ends a send that cannot go (its story deleted: failed; a digest's stories all gone: skipped): the recipients not yet sent are cancelled. */
async function endSend(db: Db, sendId: string, status: "failed" | "skipped", note: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`update newsletter_sends set status = ${status}, finished_at = now(), note = ${note} where id = ${sendId}::uuid and status in ('queued', 'sending')`);
    await tx.execute(sql`update send_recipients set status = 'cancelled' where send_id = ${sendId}::uuid and status in ('queued', 'deferred', 'sending')`);
  });
}

interface Engine {
  /** Stops claiming in every send under way; they record what is in flight and continue at the next start. */
  stop(): void;
  stopping: boolean;
  /** NEWSLETTER_RATE over every send of this process. */
  bucket: TokenBucket;
}

/**
 * Runs one send as far as it can go now: to its end, to its next deferred recipient's time (the job
 * comes back then), or to a pause while the transport is down (the job comes back a little later).
 */
export async function runSend(deps: NewsletterDeps, sendId: string, engine: Engine = { stop() {}, stopping: false, bucket: new TokenBucket(deps.transport.rate) }): Promise<void> {
  const { db, log } = deps;
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  const client = await pool.connect();
  let locked = false;
  try {
    // One process at a time delivers a send: the session lock goes with the connection when a process dies.
    locked = (await client.query<{ ok: boolean }>("select pg_try_advisory_lock($1, hashtext($2)) as ok", [SEND_LOCK_CLASS, sendId])).rows[0]!.ok;
    if (!locked) {
      log.info({ sendId }, "newsletter send: another process is delivering it");
      return;
    }
    await deliver(deps, client, sendId, engine);
  } finally {
    if (locked) await client.query("select pg_advisory_unlock($1, hashtext($2))", [SEND_LOCK_CLASS, sendId]).catch(() => {});
    client.release();
  }
}

async function deliver(deps: NewsletterDeps, client: pg.PoolClient, sendId: string, engine: Engine): Promise<void> {
  const { db, log, transport, env, secret } = deps;
  // Freeze the recipients (the active subscribers of the newsletter now) and start, in one statement.
  // Done once: a send already 'sending' is resumed as it is.
  const frozen = await client.query<{ recipients: number }>(
    `with s as (select id, newsletter_id from newsletter_sends where id = $1 and status = 'queued' for update),
     frozen as (
       insert into send_recipients (send_id, subscriber_id, email)
       select s.id, b.id, b.email from s
       join subscriptions x on x.newsletter_id = s.newsletter_id
       join subscribers b on b.id = x.subscriber_id and b.status = 'active'
       on conflict do nothing
       returning 1
     )
     update newsletter_sends n set status = 'sending', started_at = now(), recipients = (select count(*) from frozen)
     from s where n.id = s.id
     returning n.recipients`,
    [sendId],
  );
  if (frozen.rows[0]) log.info({ sendId, recipients: frozen.rows[0].recipients }, "newsletter send started");
  const [row] = await db
    .select({ id: newsletterSends.id, newsletterId: newsletterSends.newsletterId, articleId: newsletterSends.articleId, kind: newsletterSends.kind, status: newsletterSends.status, createdAt: newsletterSends.createdAt })
    .from(newsletterSends)
    .where(eq(newsletterSends.id, sendId));
  if (!row || row.status !== "sending") return;
  // Rows left 'sending' were in flight when a process delivering this send died (we hold its lock: no
  // one else is). They may have gone: sent again, and listed as possibly sent twice.
  const resumed = await client.query("update send_recipients set status = 'queued', may_be_duplicate = true where send_id = $1 and status = 'sending'", [sendId]);
  if (resumed.rowCount) log.warn({ sendId, recipients: resumed.rowCount }, "newsletter send resumed after a stop: messages in flight then may have been sent twice");

  const newsletter = await newsletterById(db, row.newsletterId);
  const emails = newsletter ? await renderSend(deps, row, newsletter) : null;
  if (!newsletter || !emails) {
    if (row.kind === "story") await endSend(db, sendId, "failed", "The story no longer exists.");
    else await endSend(db, sendId, "skipped", NO_NEW_STORIES);
    log.warn({ sendId }, "newsletter send ended: nothing left to send");
    return;
  }
  const fromAddress = newsletterFromAddress(env);
  const from = { name: newsletter.senderName?.trim() || (await emailSiteOf(db, env.publicUrl, env.TIME_ZONE)).name, address: fromAddress };
  const messageFor = (recipient: Claimed): NewsletterMessage => {
    const who = { id: recipient.subscriber_id, tokenKey: recipient.token_key! };
    const unsubscribeUrl = `${env.publicUrl}/newsletter/unsubscribe/${subscriberToken(secret, "unsubscribe", who)}?send=${sendId}`;
    const preferencesUrl = `${env.publicUrl}/newsletter/preferences/${subscriberToken(secret, "preferences", who)}`;
    // The variant their entitlement allows (the claim decided it): no rendering here, only a choice.
    const email: NewsletterEmail = emails.teaser && !recipient.entitled ? emails.teaser : emails.whole;
    const personal = personalizeEmail(email, {
      unsubscribeUrl,
      preferencesUrl,
      ...(newsletter.trackEngagement ? { tracking: { secret, sendId, subscriberId: recipient.subscriber_id } } : {}),
    });
    return { to: recipient.email, from, replyTo: newsletter.replyTo, subject: personal.subject, html: personal.html, text: personal.text, headers: { ...listUnsubscribeHeaders(unsubscribeUrl, fromAddress), "X-Frontpage-Send": sendId }, sendId };
  };

  const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
  const windowMs = deps.retryWindowMs ?? RETRY_WINDOW_MS;
  const outcomeOf = (recipient: Claimed, delivery: Delivery): Outcome => {
    const base = { subscriberId: recipient.subscriber_id };
    if (delivery.outcome === "accepted") return { ...base, status: "sent", error: null, nextAttemptAt: null };
    if (delivery.outcome === "permanent") return { ...base, status: "bounced", error: delivery.error, nextAttemptAt: null };
    // The transport out of reach says nothing about this recipient: back in the queue, untried.
    if (delivery.down) return { ...base, status: "queued", error: delivery.error, nextAttemptAt: null };
    const wait = retryDelayMs(recipient.attempts, delays, windowMs);
    return wait === null ? { ...base, status: "failed", error: delivery.error, nextAttemptAt: null } : { ...base, status: "deferred", error: delivery.error, nextAttemptAt: new Date(Date.now() + wait) };
  };

  const { bucket } = engine;
  const poolSize = Math.max(1, transport.concurrency);
  const claimBatch = Math.max(1, deps.claimBatch ?? CLAIM_BATCH);
  const half = Math.ceil(claimBatch / 2);
  // Rows in 'sending' at most (the kill -9 bound): the pool's connections and one batch claimed ahead.
  const window = poolSize + claimBatch;
  // Messages handed to the transport at once. SMTP: one per connection and one queued behind each in
  // nodemailer's pool, so a connection that finishes starts the next at once, as nodemailer alone does.
  // SES and the outbox have no queue: their concurrency is the requests or writes under way.
  const handAhead = transport.kind === "smtp" ? 2 * poolSize : poolSize;
  /** Claimed, not yet handed to the transport. */
  const ready: Claimed[] = [];
  let inTransport = 0;
  /** Results not yet written (their rows are still 'sending'), and since when the oldest waits. */
  const finished: Outcome[] = [];
  let oldestFinishedAt = 0;
  /** The last claim found fewer rows than it asked for: none to claim until results come back. */
  let exhausted = false;
  let cancelled = false;
  /** A statement failed (the database went away): this run is over, and its job is tried again. */
  let aborted = false;
  let downInARow = 0;
  let paused = false;
  let counts = { sent: 0, deferred: 0, bounced: 0, failed: 0 };
  let wake: (() => void) | null = null;
  const halted = () => paused || engine.stopping || cancelled || aborted;
  const note = (outcome: Outcome) => {
    if (finished.length === 0) oldestFinishedAt = performance.now();
    finished.push(outcome);
  };
  const finish = (outcome: Outcome) => {
    inTransport--;
    note(outcome);
    if (outcome.status === "queued") {
      if (++downInARow >= Math.min(DOWN_IN_A_ROW, poolSize)) paused = true;
    } else if (outcome.status !== "cancelled") downInARow = 0;
    if (outcome.status in counts) counts = { ...counts, [outcome.status]: counts[outcome.status as keyof typeof counts] + 1 };
    // The next claimed message goes at once, whatever the loop is waiting for (the database, maybe).
    pump();
    wake?.();
  };
  const deliverOne = async (recipient: Claimed) => {
    let delivery: Delivery;
    try {
      await bucket.take();
      delivery = await transport.send(messageFor(recipient));
    } catch (error) {
      delivery = { outcome: "temporary", error: error instanceof Error ? error.message : String(error), down: true };
    }
    finish(outcomeOf(recipient, delivery));
  };
  function pump() {
    while (ready.length > 0 && inTransport < handAhead && !halted()) {
      const recipient = ready.shift()!;
      if (!recipient.active || !recipient.token_key) {
        // Unsubscribed, bounced, complained or erased since the list was frozen: not sent to.
        note({ subscriberId: recipient.subscriber_id, status: "cancelled", error: "No longer subscribed", nextAttemptAt: null });
        continue;
      }
      inTransport++;
      void deliverOne(recipient);
    }
  }

  for (;;) {
    pump();
    if (halted() && ready.length > 0) {
      // Claimed but never handed to the transport: they did not go. Back in the queue, their attempt
      // not counted (or cancelled with the send's other waiting rows).
      for (const recipient of ready.splice(0)) note({ subscriberId: recipient.subscriber_id, status: cancelled ? "cancelled" : "queued", error: null, nextAttemptAt: null });
    }
    // Rows 'sending' whose results are not among `finished`: what the next claim must leave room for.
    const open = ready.length + inTransport;
    const room = halted() ? 0 : window - open;
    const claimNow = room > 0 && !exhausted && (room >= half || open === 0);
    const due = finished.length >= half || claimNow || (finished.length > 0 && (open === 0 || performance.now() - oldestFinishedAt >= FLUSH_MS));
    if (!due) {
      if (open === 0 && finished.length === 0) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (finished.length > 0) setTimeout(resolve, Math.max(0, FLUSH_MS - (performance.now() - oldestFinishedAt)));
      });
      wake = null;
      continue;
    }
    const batch = finished.splice(0);
    // Planned for this send's id each time (PLAN_EACH_TIME): a named statement's generic plan
    // (PostgreSQL's choice after five runs) scans every send's recipients; a second send of 100,000 crawled.
    let result: pg.QueryResult<ClaimRow>;
    try {
      result = await client.query<ClaimRow>(RECORD_AND_CLAIM, [
        sendId,
        batch.map((o) => o.subscriberId),
        batch.map((o) => o.status),
        batch.map((o) => o.error),
        batch.map((o) => o.nextAttemptAt),
        room,
        emails.access.level,
        emails.access.tierId,
      ]);
    } catch (error) {
      // Nothing more goes from this run: the messages under way finish unrecorded, and the rows it
      // claimed stay 'sending', for the next run (the job's retry) to send again and list.
      aborted = true;
      throw error;
    }
    // Cancelled (or ended) meanwhile: what is claimed and not yet handed over does not go.
    if (result.rows[0]?.send_status !== "sending") cancelled = true;
    const claimed = result.rows.filter((row) => row.subscriber_id !== null) as Claimed[];
    // A result that put its row back in the queue (the transport down) makes it claimable again.
    exhausted = claimed.length < room && !batch.some((o) => o.status === "queued");
    ready.push(...claimed);
  }

  if (counts.sent + counts.deferred + counts.bounced + counts.failed > 0) log.info({ sendId, ...counts }, "newsletter send: messages delivered");
  if (paused || engine.stopping) {
    const at = new Date(Date.now() + (engine.stopping ? 0 : (deps.pauseMs ?? PAUSE_MS)));
    await enqueueSend(db, sendId, at);
    if (paused) log.warn({ sendId, until: at }, "newsletter send paused: the mail transport cannot be reached; it resumes by itself");
    return;
  }
  // Nothing to claim now: finished, or waiting for deferred recipients' next attempt.
  const rest = await client.query<{ waiting: number; next_at: Date | null; status: string }>(
    `select (select status from newsletter_sends where id = $1) as status,
       count(*) filter (where status in ('queued', 'sending'))::int as waiting,
       min(next_attempt_at) filter (where status = 'deferred') as next_at
     from send_recipients where send_id = $1`,
    [sendId],
  );
  const { waiting, next_at: nextAt, status } = rest.rows[0]!;
  if (status !== "sending") return;
  if (nextAt) {
    await enqueueSend(db, sendId, nextAt);
    return;
  }
  // Queued rows another process holds would be a second runner: the advisory lock rules that out.
  if (waiting > 0) {
    await enqueueSend(db, sendId, new Date(Date.now() + 5_000));
    return;
  }
  const done = await client.query("update newsletter_sends set status = 'sent', finished_at = now() where id = $1 and status = 'sending'", [sendId]);
  if (done.rowCount) log.info({ sendId }, "newsletter send finished");
}

/**
 * Sends that a stop or a crash left under way get their job back at once: graphile-worker frees a job
 * whose runner died only after 4 hours, and the same job key makes a fresh one (decision 0043). Called
 * at start, in the process that runs the queue.
 */
export async function resumeSends(db: Db): Promise<number> {
  const sends = await db.select({ id: newsletterSends.id }).from(newsletterSends).where(sql`${newsletterSends.status} in ('queued', 'sending')`);
  for (const send of sends) await enqueueSend(db, send.id);
  return sends.length;
}

/** The test e-mail: one message to one address, "[Test] " before the subject, the personal links leading to /newsletter. */
async function sendTestEmail(deps: NewsletterDeps, payload: { newsletterId: string; to: string; subject: string; html: string; text: string }): Promise<void> {
  const { db, env, transport, log } = deps;
  const newsletter = await newsletterById(db, payload.newsletterId);
  if (!newsletter) return;
  const site = await emailSiteOf(db, env.publicUrl, env.TIME_ZONE);
  const links = { unsubscribeUrl: `${env.publicUrl}/newsletter`, preferencesUrl: `${env.publicUrl}/newsletter` };
  const email = personalizeEmail({ subject: payload.subject, html: payload.html, text: payload.text }, links);
  const delivery = await transport.send({
    to: payload.to,
    from: { name: newsletter.senderName?.trim() || site.name, address: newsletterFromAddress(env) },
    replyTo: newsletter.replyTo,
    subject: `[Test] ${email.subject}`,
    html: email.html,
    text: email.text,
    headers: {},
  });
  if (delivery.outcome === "temporary") throw new Error(`the test e-mail could not be sent yet: ${delivery.error}`);
  if (delivery.outcome === "permanent") log.warn({ newsletterId: newsletter.id, error: delivery.error }, "the test e-mail was refused by the mail server");
  else log.info({ newsletterId: newsletter.id }, "test e-mail sent");
}

/** The job queue's newsletter tasks (sends, test e-mails, digests' schedule) and their cron line; `stop` pauses sends under way. */
export function newsletterTasks(deps: NewsletterDeps): { tasks: TaskList; cron: string[]; stop: () => void } {
  const engine: Engine = {
    stopping: false,
    bucket: new TokenBucket(deps.transport.rate),
    stop() {
      this.stopping = true;
    },
  };
  const digests = newsletterDigestTasks({ db: deps.db, log: deps.log, env: deps.env, ...(deps.now ? { now: deps.now } : {}), enqueueSend });
  return {
    tasks: {
      [NEWSLETTER_SEND_TASK]: async (payload: unknown) => {
        const sendId = (payload as { sendId?: unknown } | null)?.sendId;
        if (typeof sendId !== "string") {
          deps.log.warn({ task: NEWSLETTER_SEND_TASK }, "a newsletter send job without a send id was dropped");
          return;
        }
        await runSend(deps, sendId, engine);
      },
      [NEWSLETTER_TEST_TASK]: async (payload: unknown) => {
        const p = payload as { newsletterId?: unknown; to?: unknown; subject?: unknown; html?: unknown; text?: unknown } | null;
        if (!p || typeof p.newsletterId !== "string" || typeof p.to !== "string" || typeof p.subject !== "string" || typeof p.html !== "string" || typeof p.text !== "string") {
          deps.log.warn({ task: NEWSLETTER_TEST_TASK }, "a test e-mail job without its message was dropped");
          return;
        }
        await sendTestEmail(deps, { newsletterId: p.newsletterId, to: p.to, subject: p.subject, html: p.html, text: p.text });
      },
      ...digests.tasks,
    },
    cron: digests.cron,
    stop: () => engine.stop(),
  };
}
