import { createHash } from "node:crypto";
import { and, asc, eq, inArray, isNull, lt, notInArray, or, sql } from "drizzle-orm";
import type { TaskList } from "graphile-worker";
import { z } from "zod";
import { publiclyVisible } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { articles, newsletters, sendRecipients, subscribers, subscriptions } from "~/db/schema";
import { getSettings } from "~/domain/settings/settings.server";
import { AppError } from "~/lib/app-error";
import type { FormTimer } from "~/lib/form-timer.server";
import { isUuid } from "~/lib/ids";
import { enqueueJob } from "~/lib/job-queue.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/lib/mail.server";
import { takeAllowance, type LimitRule } from "~/lib/rate-limit.server";
import { isSlug } from "~/lib/slugs";
import { publicNewsletters } from "./newsletters.server";
import { alreadySubscribedMail, confirmationMail } from "./subscriber-mail.server";
import { newTokenKey, subscriberIdOf, subscriberToken, tokenHolds, type SubscriberTokenPurpose } from "./subscriber-tokens.server";
import { PENDING_SIGNUP_DAYS, subscriberPath, type NewsletterChoice, type SignupField } from "./subscribers.schema";

// The readers' side of the newsletters (issue 30): the sign-up with its defences (the comment form's
// honeypot and minimum fill time, limits per client address and per e-mail address counted in
// PostgreSQL, the admin's blocked domains), the double opt-in (only a POST confirms), preferences and
// the one-click unsubscribe (RFC 8058), and the hourly deletion of sign-ups left unconfirmed.
//
// Every accepted sign-up gets the same answer, whatever the address's state; what differs happens in
// the background (a job sends the e-mail, or nothing is sent), so the page reveals nobody.

export type Subscriber = typeof subscribers.$inferSelect;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The job that e-mails a sign-up its confirmation link (or an active subscriber the "already subscribed" note). */
export const SUBSCRIBER_MAIL_TASK = "newsletter-confirmation";
/** The recurring job that deletes sign-ups left unconfirmed for PENDING_SIGNUP_DAYS. */
export const EXPIRE_PENDING_TASK = "newsletter-expire-pending";
/** Hourly (graphile-worker's crontab, UTC): a sign-up is gone within the hour after its 7 days. */
export const EXPIRE_PENDING_CRON = `0 * * * * ${EXPIRE_PENDING_TASK}`;

/** The comment form's wording for a malformed address (app/domain/comments/comments.server.ts). */
export const INVALID_EMAIL = "Please enter a valid e-mail address.";
export const BLANK_EMAIL = "Please enter your e-mail address.";
export const BLOCKED_DOMAIN = "Sign-ups from this e-mail domain are not accepted.";
export const CHOOSE_NEWSLETTER = "Choose at least one newsletter.";
export const NO_NEWSLETTER = "There is no newsletter to sign up for at the moment.";
export const SIGNUP_REFUSED = "Your sign-up could not be accepted.";
export const SIGNUP_TOO_FAST = "That was quick! Please check your e-mail address, then press Subscribe again.";
export const SIGNUP_STALE_FORM = "The sign-up form has expired. Please reload the page and sign up again.";

/** Sign-ups from one client address: a person signs up once or twice, a script hundreds of times. */
export const SIGNUP_ADDRESS_LIMIT: LimitRule = {
  bucket: "newsletter-signup",
  max: 10,
  windowMs: 60 * 60 * 1000,
  refusal: "There have been many sign-ups from your network in a short time.",
};
/**
 * Sign-ups of one e-mail address (keyed by its hash): beyond it the page still gives the one answer,
 * but no e-mail goes, so nobody can fill a stranger's inbox with confirmations.
 */
export const SIGNUP_EMAIL_LIMIT: LimitRule = { bucket: "newsletter-signup-email", max: 3, windowMs: 24 * 60 * 60 * 1000, refusal: "" };

/** The tombstone's hash of an address (sha256 of the trimmed, lower-cased address, hex). */
export function emailHash(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

const emailSchema = z.string().trim().toLowerCase().min(1, BLANK_EMAIL).max(254, INVALID_EMAIL).pipe(z.email(INVALID_EMAIL));

/** The address as typed, trimmed and lower-cased (members sign in by it: decision 0054), or an AppError for the "email" field. */
export function parseSignupEmail(value: string): string {
  const parsed = emailSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? INVALID_EMAIL;
  throw new AppError<SignupField>(message === BLANK_EMAIL ? "missing_fields" : "invalid_input", message, { field: "email" });
}

/** Whether the address's domain is one of `blocked`, or a subdomain of one. */
export function isBlockedDomain(email: string, blocked: readonly string[]): boolean {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase().replace(/\.$/, "");
  return blocked.some((entry) => {
    const d = entry.trim().toLowerCase();
    return d !== "" && (domain === d || domain.endsWith(`.${d}`));
  });
}

/** The settings the sign-up shares with the comment form (its honeypot and minimum fill time). */
export interface SignupGuards {
  minFillSeconds: number;
  formTimer: FormTimer;
}

export interface SignupInput {
  email: string;
  /** The ticked newsletters (ignored when only one public newsletter exists: it is implied). */
  newsletterIds: readonly string[];
  /** The page the form was on: "/", "/newsletter", "/article/{slug}" (the consent record). */
  source: string;
  honeypot: string;
  formStarted: string;
  clientIp?: string;
}

/** What happened behind the one answer (for tests and the log; the page never shows it). */
export type SignupOutcome = "confirmation sent" | "already subscribed" | "suppressed" | "limited";

/** The consent record's page: the home page, /newsletter, or a public article (its id kept too). */
async function consentSourceOf(db: Db, source: string): Promise<{ source: string; articleId: string | null }> {
  if (source === "/") return { source, articleId: null };
  const slug = /^\/article\/([^/?#]+)$/.exec(source)?.[1];
  if (slug && isSlug(slug)) {
    const [article] = await db
      .select({ id: articles.id, slug: articles.slug })
      .from(articles)
      .where(and(eq(articles.slug, slug), publiclyVisible()))
      .limit(1);
    if (article) return { source: `/article/${article.slug}`, articleId: article.id };
  }
  return { source: "/newsletter", articleId: null };
}

/**
 * A sign-up from a form. Throws an AppError for a refusal the reader must see (the honeypot, a form
 * sent too fast or without its stamp, too many sign-ups from the client's address, a malformed or
 * blocked address, no newsletter chosen). Otherwise the answer is always the same page text, and
 * this says what it did: a new, pending or unsubscribed address is (again) sent the confirmation
 * link (the subscription waits for it), an active one a note with its preferences link, a bounced
 * or complained one nothing (suppressed), and past the per-address limit nothing either.
 */
export async function signUp(db: Db, input: SignupInput, guards: SignupGuards, now = new Date()): Promise<SignupOutcome> {
  if (input.honeypot.trim() !== "") throw new AppError("invalid_input", SIGNUP_REFUSED);
  if (guards.minFillSeconds > 0) {
    const elapsed = guards.formTimer.elapsedMs(input.formStarted, now);
    if (elapsed === null) throw new AppError("invalid_input", SIGNUP_STALE_FORM);
    if (elapsed < guards.minFillSeconds * 1000) throw new AppError("rate_limited", SIGNUP_TOO_FAST);
  }
  if (input.clientIp) {
    const allowance = await takeAllowance(db, SIGNUP_ADDRESS_LIMIT, `address ${input.clientIp}`, now);
    if (allowance.limited) throw new AppError("rate_limited", allowance.message);
  }
  const email = parseSignupEmail(input.email);
  const settings = await getSettings(db);
  if (isBlockedDomain(email, settings.newsletterBlockedDomains)) throw new AppError<SignupField>("invalid_input", BLOCKED_DOMAIN, { field: "email" });

  const offered = await publicNewsletters(db);
  if (offered.length === 0) throw new AppError("invalid_input", NO_NEWSLETTER);
  const chosen = offered.length === 1 ? [offered[0]!.id] : offered.filter((n) => input.newsletterIds.includes(n.id)).map((n) => n.id);
  if (chosen.length === 0) throw new AppError<SignupField>("invalid_input", CHOOSE_NEWSLETTER, { field: "newsletters" });
  const { source, articleId } = await consentSourceOf(db, input.source);

  // Counted after the checks above: a refused attempt spends none of the address's own allowance.
  const perEmail = await takeAllowance(db, SIGNUP_EMAIL_LIMIT, `email ${emailHash(email)}`, now);
  if (perEmail.limited) return "limited";

  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(subscribers)
      .values({ email, status: "pending", tokenKey: newTokenKey(), consentSource: source, signupArticleId: articleId, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning({ id: subscribers.id });
    if (created) {
      await replaceSubscriptions(tx, created.id, chosen);
      await queueSubscriberMail(tx, created.id, "confirm");
      return "confirmation sent";
    }
    // The address exists: read it under a row lock (two sign-ups of one address take turns).
    const [row] = await tx
      .select()
      .from(subscribers)
      .where(sql`lower(${subscribers.email}) = lower(${email})`)
      .for("update");
    if (!row) throw new Error("a subscriber's row vanished during its sign-up");
    switch (row.status) {
      case "pending":
      case "unsubscribed":
        // Waits for the link again (an unsubscribed address stays unsubscribed until it confirms; a
        // pending one's 7 days start again). The consent record names this latest form.
        await tx.update(subscribers).set({ consentSource: source, signupArticleId: articleId, updatedAt: now }).where(eq(subscribers.id, row.id));
        await replaceSubscriptions(tx, row.id, chosen);
        await queueSubscriberMail(tx, row.id, "confirm");
        return "confirmation sent";
      case "active":
        await queueSubscriberMail(tx, row.id, "already subscribed");
        return "already subscribed";
      default:
        return "suppressed";
    }
  });
}

async function replaceSubscriptions(tx: Tx, subscriberId: string, newsletterIds: readonly string[]) {
  await tx.delete(subscriptions).where(and(eq(subscriptions.subscriberId, subscriberId), newsletterIds.length ? notInArray(subscriptions.newsletterId, [...newsletterIds]) : undefined));
  if (newsletterIds.length) {
    await tx
      .insert(subscriptions)
      .values(newsletterIds.map((newsletterId) => ({ subscriberId, newsletterId })))
      .onConflictDoNothing();
  }
}

type SubscriberMailKind = "confirm" | "already subscribed";

/** One waiting job per subscriber: signing up five times in a minute sends one e-mail. */
async function queueSubscriberMail(tx: Tx, subscriberId: string, kind: SubscriberMailKind) {
  await enqueueJob(tx, SUBSCRIBER_MAIL_TASK, { subscriberId, kind }, { key: `${SUBSCRIBER_MAIL_TASK}:${subscriberId}`, maxAttempts: 10 });
}

// ---------------------------------------------------------------- links

/** A subscriber's signed link of `purpose` ({PUBLIC_URL}/newsletter/{purpose}/{token}); an unsubscribe link may name the send it came in. */
export function subscriberUrl(
  publicUrl: string,
  secret: string,
  purpose: SubscriberTokenPurpose,
  subscriber: { id: string; tokenKey: string },
  options: { sendId?: string } = {},
): string {
  const url = `${publicUrl}${subscriberPath(purpose, subscriberToken(secret, purpose, subscriber))}`;
  return options.sendId ? `${url}?send=${encodeURIComponent(options.sendId)}` : url;
}

/** Whether a pending sign-up is past its days (its link no longer confirms; the hourly job deletes it). */
const expired = (subscriber: Subscriber, now: Date) =>
  subscriber.status === "pending" && subscriber.updatedAt.getTime() < now.getTime() - PENDING_SIGNUP_DAYS * 24 * 60 * 60 * 1000;

/**
 * The subscriber a link of `purpose` belongs to, or null for a forged, edited or voided token (the
 * routes answer 404), and for a confirmation link of an expired sign-up or of a suppressed address.
 */
export async function subscriberOfToken(db: Db, secret: string, purpose: SubscriberTokenPurpose, token: string, now = new Date()): Promise<Subscriber | null> {
  const id = subscriberIdOf(token);
  if (!id) return null;
  const [row] = await db.select().from(subscribers).where(eq(subscribers.id, id)).limit(1);
  if (!row || !tokenHolds(secret, purpose, token, row)) return null;
  if (purpose === "confirm" && (expired(row, now) || row.status === "bounced" || row.status === "complained")) return null;
  return row;
}

/**
 * The confirmation page's button: the subscription is active from now (the consent's time). A
 * re-subscription after an unsubscribe gets a new token key, which voids every link sent before.
 * Confirming twice changes nothing.
 */
export async function confirmSubscriber(db: Db, subscriber: Subscriber, now = new Date()): Promise<Subscriber> {
  if (subscriber.status === "active") return subscriber;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(subscribers)
      .set({
        status: "active",
        confirmedAt: now,
        consentAt: now,
        unsubscribedAt: null,
        tokenKey: subscriber.status === "unsubscribed" ? newTokenKey() : subscriber.tokenKey,
        updatedAt: now,
      })
      .where(and(eq(subscribers.id, subscriber.id), inArray(subscribers.status, ["pending", "unsubscribed"])))
      .returning();
    if (!row) return subscriber;
    // A subscription with no newsletter left (they were archived meanwhile) gets the first public one.
    const [some] = await tx.select({ id: subscriptions.newsletterId }).from(subscriptions).where(eq(subscriptions.subscriberId, row.id)).limit(1);
    if (!some) {
      const [first] = await publicNewsletters(tx as unknown as Db);
      if (first) await tx.insert(subscriptions).values({ subscriberId: row.id, newsletterId: first.id }).onConflictDoNothing();
    }
    return row;
  });
}

// ---------------------------------------------------------------- preferences and unsubscribing

export interface PreferenceChoice extends NewsletterChoice {
  subscribed: boolean;
}

/**
 * The newsletters a subscriber's preferences list: every public one and any they are subscribed to
 * (not archived), ticked where they receive it (nothing is ticked once they have unsubscribed).
 */
export async function preferencesOf(db: Db, subscriber: Subscriber): Promise<PreferenceChoice[]> {
  const rows = await db
    .select({ id: newsletters.id, name: newsletters.name, description: newsletters.description, subscribed: sql<boolean>`${subscriptions.subscriberId} is not null` })
    .from(newsletters)
    .leftJoin(subscriptions, and(eq(subscriptions.newsletterId, newsletters.id), eq(subscriptions.subscriberId, subscriber.id)))
    .where(and(isNull(newsletters.archivedAt), or(eq(newsletters.isPublic, true), sql`${subscriptions.subscriberId} is not null`)))
    .orderBy(asc(newsletters.position), asc(newsletters.createdAt));
  const receiving = subscriber.status === "active" || subscriber.status === "pending";
  return rows.map((row) => ({ ...row, subscribed: receiving && row.subscribed }));
}

/** What saving the preferences did: the page's answer. */
export type PreferencesOutcome = "saved" | "unsubscribed" | "confirmation sent";

/**
 * Saves the preferences page: the ticked newsletters (of those it lists) are the subscriber's; none
 * ticked is "Unsubscribe from all"; a bounced or complained address stays suppressed. After an
 * unsubscribe the links sent before still open the page, but ticking again does not resubscribe
 * (issue 39: a forwarded newsletter carries the link): the choice is kept and, as a sign-up would,
 * a new confirmation link is e-mailed (within the address's sign-up allowance); the address stays
 * unsubscribed until that link is used, which also voids the old links.
 */
export async function savePreferences(db: Db, subscriber: Subscriber, newsletterIds: readonly string[], now = new Date()): Promise<PreferencesOutcome> {
  const listed = await preferencesOf(db, subscriber);
  const chosen = listed.filter((n) => newsletterIds.includes(n.id)).map((n) => n.id);
  if (chosen.length === 0) {
    await unsubscribeSubscriber(db, subscriber.id);
    return "unsubscribed";
  }
  const resubscribing = subscriber.status === "unsubscribed";
  // The sign-up's per-address allowance: an old link cannot fill the inbox with confirmations either.
  const allowance = resubscribing ? await takeAllowance(db, SIGNUP_EMAIL_LIMIT, `email ${emailHash(subscriber.email)}`, now) : null;
  await db.transaction(async (tx) => {
    if (resubscribing) {
      // The consent record names this page once the link is used (confirmSubscriber sets the time).
      const [waiting] = await tx
        .update(subscribers)
        .set({ consentSource: "/newsletter/preferences", signupArticleId: null, updatedAt: now })
        .where(and(eq(subscribers.id, subscriber.id), eq(subscribers.status, "unsubscribed")))
        .returning({ id: subscribers.id });
      if (waiting && !allowance?.limited) await queueSubscriberMail(tx, subscriber.id, "confirm");
    }
    const unticked = listed.map((n) => n.id).filter((id) => !chosen.includes(id));
    if (unticked.length) await tx.delete(subscriptions).where(and(eq(subscriptions.subscriberId, subscriber.id), inArray(subscriptions.newsletterId, unticked)));
    await tx
      .insert(subscriptions)
      .values(chosen.map((newsletterId) => ({ subscriberId: subscriber.id, newsletterId })))
      .onConflictDoNothing();
  });
  return resubscribing ? "confirmation sent" : "saved";
}

/**
 * Marks a subscriber unsubscribed from everything (one-click, preferences' "Unsubscribe from all"; a
 * bounce or a complaint passes its own status). Their subscriptions stay as the record of what they
 * had: sends go to active subscribers only. Records send_recipients.unsubscribed_at for the send when
 * given (the unsubscribes it caused). An unsubscribe never lifts a bounce or a complaint.
 */
export async function unsubscribeSubscriber(
  db: Db,
  subscriberId: string,
  options: { sendId?: string; status?: "unsubscribed" | "complained" | "bounced" } = {},
): Promise<void> {
  const status = options.status ?? "unsubscribed";
  const now = new Date();
  await db.transaction(async (tx) => {
    const from: Subscriber["status"][] =
      status === "unsubscribed" ? ["pending", "active"] : status === "bounced" ? ["pending", "active", "unsubscribed"] : ["pending", "active", "unsubscribed", "bounced"];
    await tx
      .update(subscribers)
      .set({ status, unsubscribedAt: sql`coalesce(${subscribers.unsubscribedAt}, ${now.toISOString()}::timestamptz)`, updatedAt: now })
      .where(and(eq(subscribers.id, subscriberId), inArray(subscribers.status, from)));
    if (options.sendId && isUuid(options.sendId) && status === "unsubscribed") {
      await tx
        .update(sendRecipients)
        .set({ unsubscribedAt: now })
        .where(and(eq(sendRecipients.sendId, options.sendId), eq(sendRecipients.subscriberId, subscriberId), isNull(sendRecipients.unsubscribedAt)));
    }
  });
}

/** Deletes sign-ups left unconfirmed for PENDING_SIGNUP_DAYS (counted from their latest sign-up); answers how many. */
export async function expirePendingSignups(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - PENDING_SIGNUP_DAYS * 24 * 60 * 60 * 1000);
  const deleted = await db
    .delete(subscribers)
    .where(and(eq(subscribers.status, "pending"), lt(subscribers.updatedAt, cutoff)))
    .returning({ id: subscribers.id });
  return deleted.length;
}

// ---------------------------------------------------------------- the job queue's tasks

export interface SubscriberTaskDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  /** The session secret: the links' signing key is derived from it. */
  secret: string;
  log: Logger;
}

/**
 * Sends a sign-up's e-mail, as things stand when the job runs: the confirmation while the address is
 * pending or unsubscribed (and its sign-up not expired), the "already subscribed" note while it is
 * active; nothing to a deleted, bounced or complained address. Throws when the mail cannot be sent
 * (the queue tries again).
 */
export async function sendSubscriberMail(deps: SubscriberTaskDeps, subscriberId: string, kind: SubscriberMailKind, now = new Date()): Promise<"sent" | "skipped"> {
  const [row] = await deps.db.select().from(subscribers).where(eq(subscribers.id, subscriberId)).limit(1);
  if (!row) return "skipped";
  const { siteName, postalAddress } = await getSettings(deps.db);
  if ((row.status === "pending" || row.status === "unsubscribed") && !expired(row, now)) {
    const url = subscriberUrl(deps.publicUrl, deps.secret, "confirm", row);
    await deps.mailer.send(confirmationMail({ to: row.email, siteName, url, postalAddress, days: PENDING_SIGNUP_DAYS }));
  } else if (row.status === "active" && kind === "already subscribed") {
    const preferencesUrl = subscriberUrl(deps.publicUrl, deps.secret, "preferences", row);
    await deps.mailer.send(alreadySubscribedMail({ to: row.email, siteName, preferencesUrl, postalAddress }));
  } else {
    return "skipped";
  }
  deps.log.info({ subscriberId, kind }, "newsletter sign-up e-mail sent");
  return "sent";
}

/** The readers' tasks for the job queue (server/services.ts): the sign-up e-mails, and the hourly expiry. */
export function subscriberTasks(deps: SubscriberTaskDeps): { tasks: TaskList; cron: string[] } {
  return {
    tasks: {
      [SUBSCRIBER_MAIL_TASK]: async (payload: unknown) => {
        const { subscriberId, kind } = (payload ?? {}) as { subscriberId?: unknown; kind?: unknown };
        if (typeof subscriberId !== "string" || (kind !== "confirm" && kind !== "already subscribed")) {
          deps.log.warn({ task: SUBSCRIBER_MAIL_TASK }, "a sign-up e-mail job without a subscriber was dropped");
          return;
        }
        await sendSubscriberMail(deps, subscriberId, kind);
      },
      [EXPIRE_PENDING_TASK]: async () => {
        const deleted = await expirePendingSignups(deps.db);
        if (deleted > 0) deps.log.info({ deleted }, "unconfirmed newsletter sign-ups deleted");
      },
    },
    cron: [EXPIRE_PENDING_CRON],
  };
}

/** The public newsletters as the sign-up forms and /newsletter show them (name and description only). */
export async function signupChoices(db: Db): Promise<NewsletterChoice[]> {
  return (await publicNewsletters(db)).map((n) => ({ id: n.id, name: n.name, description: n.description }));
}

/** The names of the newsletters (not archived) with "Track opens and clicks" on: the privacy policy lists them. */
export async function trackingNewsletterNames(db: Db): Promise<string[]> {
  const rows = await db
    .select({ name: newsletters.name })
    .from(newsletters)
    .where(and(isNull(newsletters.archivedAt), eq(newsletters.trackEngagement, true)))
    .orderBy(asc(newsletters.position), asc(newsletters.createdAt));
  return rows.map((r) => r.name);
}
