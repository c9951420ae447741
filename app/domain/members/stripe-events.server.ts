import { attributionFromMetadata, insertConversion } from "~/domain/audience/audience-conversions.server";
import { eq, sql } from "drizzle-orm";
import type { Task, TaskList } from "graphile-worker";
import type Stripe from "stripe";
import type { Db } from "~/db/client.server";
import { memberInvoices, memberSubscriptions, memberTiers, stripeEvents, subscribers, type MemberSubscription } from "~/db/schema";
import { getSettings } from "~/domain/settings/settings.server";
import { enqueueJob } from "~/lib/job-queue.server";
import type { Logger } from "~/lib/logger.server";
import { memberWelcomeMail, paymentFailedMail, subscriptionEndedMail, type Mailer } from "~/lib/mail.server";
import { isPaidStatus } from "./access";
import { addMemberEvent, noteAccessChanged } from "./members.server";

// Stripe's webhook events (issue 40, decision 0054). The endpoint checks the signature, stores the
// event once by its id (`on conflict do nothing`: once across machines) and queues a job keyed by that
// id in the same transaction; the job applies it and marks it processed, or keeps the error and throws
// so the queue retries it. A subscription's event never trusts its own copy of the subscription: it
// fetches it from Stripe and writes what Stripe says now, under a lock per subscription, and the
// member's timeline and mails follow from the change between the stored row and that answer. So events
// out of order, twice, or replayed leave the member right and mail them once.

export const STRIPE_EVENT_TASK = "stripe-event";
export const MEMBER_BILLING_MAIL_TASK = "member-billing-mail";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Verifies a webhook call and stores its event once, with its job: 400 (nothing written) for a missing, forged or stale signature. */
export async function receiveStripeEvent(db: Db, stripe: Stripe, body: Buffer, signature: string | null, secret: string): Promise<{ status: number; message: string }> {
  if (!signature) return { status: 400, message: "Missing Stripe-Signature header." };
  let event: Stripe.Event;
  try {
    // Stripe's default tolerance: a signature more than 5 minutes old is refused (a replay by a third party).
    event = stripe.webhooks.constructEvent(body, signature, secret);
  } catch (error) {
    return { status: 400, message: `Webhook signature refused: ${error instanceof Error ? error.message : String(error)}` };
  }
  const stored = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, stripeCreatedAt: new Date(event.created * 1000), payload: event })
      .onConflictDoNothing({ target: stripeEvents.id })
      .returning({ id: stripeEvents.id });
    if (inserted.length === 0) return false;
    await enqueueJob(tx, STRIPE_EVENT_TASK, { eventId: event.id }, { key: `stripe-event:${event.id}`, maxAttempts: 25 });
    return true;
  });
  return { status: 200, message: stored ? `Received ${event.type}.` : `Already received ${event.id}.` };
}

export interface StripeEventDeps {
  db: Db;
  stripe: Stripe;
  log: Logger;
}

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === "string" ? value : (value?.id ?? null));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const time = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

async function memberExists(db: Pick<Db, "select">, memberId: string | null | undefined): Promise<string | null> {
  if (!memberId || !UUID.test(memberId)) return null;
  const [row] = await db.select({ id: subscribers.id }).from(subscribers).where(eq(subscribers.id, memberId));
  return row?.id ?? null;
}

async function memberOfCustomer(db: Pick<Db, "select">, customerId: string | null): Promise<string | null> {
  if (!customerId) return null;
  const [row] = await db.select({ id: subscribers.id }).from(subscribers).where(eq(subscribers.stripeCustomerId, customerId));
  return row?.id ?? null;
}

/** A mail about a member's billing, sent by its own job (retried on its own; once per key). */
async function queueMail(tx: Tx, key: string, payload: { kind: "welcome" | "payment_failed" | "ended"; memberId: string; tierName: string; trialEnds?: string | null }) {
  await enqueueJob(tx, MEMBER_BILLING_MAIL_TASK, payload, { key: `member-billing-mail:${key}`, keyMode: "preserve_run_at" });
}

/**
 * Writes a subscription as Stripe says it is now, and what that changed to the member: their timeline
 * (subscribed, renewed, canceled, ended, plan or status changed), the welcome and ended mails, and
 * their access cookies' renewal. `memberHint`: the member a Checkout named (client_reference_id).
 */
export async function syncSubscription(deps: StripeEventDeps, subscriptionId: string, memberHint: string | null = null): Promise<MemberSubscription> {
  const { db, stripe } = deps;
  return db.transaction(async (tx) => {
    // One writer per subscription: the fetch and the write of two events about it never interleave.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`stripe-subscription:${subscriptionId}`}, 0))`);
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
    const price = item.price;
    const productId = idOf(price.product);
    const [tier] = productId ? await tx.select().from(memberTiers).where(eq(memberTiers.stripeProductId, productId)) : [];
    const customerId = idOf(subscription.customer)!;
    const [existing] = await tx.select().from(memberSubscriptions).where(eq(memberSubscriptions.stripeSubscriptionId, subscription.id));
    // Its member: the one on record (null once erased stays null), else the member the subscription or Checkout names, else the customer's.
    const memberId = existing
      ? existing.memberId
      : ((await memberExists(tx, subscription.metadata?.member_id)) ?? (await memberExists(tx, memberHint)) ?? (await memberOfCustomer(tx, customerId)));
    const values = {
      memberId,
      stripeSubscriptionId: subscription.id,
      stripeCustomerId: customerId,
      tierId: tier?.id ?? null,
      status: subscription.status,
      cadence: price.recurring?.interval === "year" ? ("year" as const) : ("month" as const),
      amount: (price.unit_amount ?? 0) * (item.quantity ?? 1),
      currency: price.currency,
      currentPeriodEnd: time(item.current_period_end),
      cancelAtPeriodEnd: subscription.cancel_at_period_end || Boolean(subscription.cancel_at),
      trialEnd: time(subscription.trial_end),
      startedAt: time(subscription.start_date) ?? new Date(),
      endedAt: time(subscription.ended_at),
      updatedAt: new Date(),
    };
    const [saved] = await tx
      .insert(memberSubscriptions)
      .values(values)
      .onConflictDoUpdate({ target: memberSubscriptions.stripeSubscriptionId, set: { ...values, memberId: sql`coalesce(${memberSubscriptions.memberId}, excluded.member_id)` } })
      .returning();
    if (!memberId) return saved!;

    const tierName = tier?.name ?? "paid";
    const wasPaid = existing ? isPaidStatus(existing.status) : false;
    const nowPaid = isPaidStatus(subscription.status);
    const detail = { subscription: subscription.id, tier: tier?.name ?? null, cadence: values.cadence, status: subscription.status };
    let accessChanged = !existing || existing.status !== values.status || existing.tierId !== values.tierId || existing.memberId !== memberId;
    if (nowPaid && !wasPaid) {
      await addMemberEvent(tx, memberId, "subscribed", { ...detail, amount: values.amount, currency: values.currency, trialEnd: values.trialEnd?.toISOString() ?? null });
      await queueMail(tx, `welcome:${subscription.id}`, { kind: "welcome", memberId, tierName, trialEnds: values.trialEnd?.toISOString() ?? null });
    } else if (wasPaid && !nowPaid) {
      await addMemberEvent(tx, memberId, "ended", detail);
      await queueMail(tx, `ended:${subscription.id}`, { kind: "ended", memberId, tierName });
    } else if (existing && nowPaid) {
      if (existing.status !== values.status) await addMemberEvent(tx, memberId, "status_changed", { ...detail, from: existing.status });
      if (existing.tierId !== values.tierId || existing.cadence !== values.cadence || existing.amount !== values.amount) {
        await addMemberEvent(tx, memberId, "plan_changed", { ...detail, amount: values.amount, fromAmount: existing.amount, fromCadence: existing.cadence });
      }
      if (existing.currentPeriodEnd && values.currentPeriodEnd && values.currentPeriodEnd > existing.currentPeriodEnd && existing.trialEnd?.getTime() !== values.currentPeriodEnd.getTime()) {
        await addMemberEvent(tx, memberId, "renewed", { ...detail, until: values.currentPeriodEnd.toISOString() });
      }
      if (!existing.cancelAtPeriodEnd && values.cancelAtPeriodEnd) {
        await addMemberEvent(tx, memberId, "canceled", { ...detail, accessUntil: values.currentPeriodEnd?.toISOString() ?? null });
      } else if (existing.cancelAtPeriodEnd && !values.cancelAtPeriodEnd) {
        await addMemberEvent(tx, memberId, "cancellation_undone", detail);
      }
    }
    if (!existing && !nowPaid) accessChanged = false;
    if (accessChanged) await noteAccessChanged(tx, memberId);
    return saved!;
  });
}

/** Links a completed Checkout's customer to its member (client_reference_id) and writes its subscription. */
async function applyCheckoutCompleted(deps: StripeEventDeps, session: Stripe.Checkout.Session) {
  const memberId = await memberExists(deps.db, session.client_reference_id);
  const customerId = idOf(session.customer);
  if (memberId && customerId) {
    const [other] = await deps.db.select({ id: subscribers.id }).from(subscribers).where(eq(subscribers.stripeCustomerId, customerId));
    if (!other) await deps.db.update(subscribers).set({ stripeCustomerId: customerId, updatedAt: new Date() }).where(eq(subscribers.id, memberId));
    else if (other.id !== memberId) deps.log.warn({ customer: customerId }, "Stripe: a Checkout's customer belongs to another member; the member was not linked to it");
  }
  const subscriptionId = idOf(session.subscription);
  if (subscriptionId) await syncSubscription(deps, subscriptionId, memberId);
  await creditPaidConversion(deps, session);
}

/**
 * A paid subscription's conversion (issue 42), credited to what /subscribe put in the session's
 * metadata: once per session (stamped with the session's creation time), never failing the event.
 */
async function creditPaidConversion(deps: StripeEventDeps, session: Stripe.Checkout.Session) {
  const attribution = attributionFromMetadata(session.metadata);
  if (!attribution || session.mode !== "subscription") return;
  try {
    await insertConversion(deps.db, "paid", attribution, new Date(session.created * 1000), { once: true });
  } catch (error) {
    deps.log.warn({ err: error, session: session.id }, "could not record a paid subscription's audience conversion");
  }
}

const subscriptionOfInvoice = (invoice: Stripe.Invoice) => idOf(invoice.parent?.subscription_details?.subscription ?? null);

/** A paid invoice: the payment record (kept for the law, without its member once erased); its subscription written again. */
async function applyInvoicePaid(deps: StripeEventDeps, invoice: Stripe.Invoice) {
  const subscriptionId = subscriptionOfInvoice(invoice);
  if (subscriptionId) await syncSubscription(deps, subscriptionId);
  const memberId =
    (subscriptionId ? (await deps.db.select({ memberId: memberSubscriptions.memberId }).from(memberSubscriptions).where(eq(memberSubscriptions.stripeSubscriptionId, subscriptionId)))[0]?.memberId : null) ??
    (await memberOfCustomer(deps.db, idOf(invoice.customer)));
  const values = {
    stripeInvoiceId: invoice.id!,
    memberId,
    stripeSubscriptionId: subscriptionId,
    amountPaid: invoice.amount_paid,
    currency: invoice.currency,
    status: invoice.status ?? "paid",
    paidAt: time(invoice.status_transitions?.paid_at) ?? new Date(invoice.created * 1000),
  };
  await deps.db
    .insert(memberInvoices)
    .values(values)
    .onConflictDoUpdate({ target: memberInvoices.stripeInvoiceId, set: { amountPaid: values.amountPaid, status: values.status, paidAt: values.paidAt, stripeSubscriptionId: values.stripeSubscriptionId } });
}

/** A failed payment: the subscription written again (past_due keeps access), a line on the timeline and a mail with the billing link, once per attempt. */
async function applyPaymentFailed(deps: StripeEventDeps, invoice: Stripe.Invoice) {
  const subscriptionId = subscriptionOfInvoice(invoice);
  const saved = subscriptionId ? await syncSubscription(deps, subscriptionId) : null;
  const memberId = saved?.memberId ?? (await memberOfCustomer(deps.db, idOf(invoice.customer)));
  if (!memberId) return;
  const [tier] = saved?.tierId ? await deps.db.select({ name: memberTiers.name }).from(memberTiers).where(eq(memberTiers.id, saved.tierId)) : [];
  await deps.db.transaction(async (tx) => {
    // Once per invoice and attempt, however often the event arrives: the timeline line's key is the job's.
    const key = `payment-failed:${invoice.id}:${invoice.attempt_count}`;
    const [seen] = await tx.execute<{ n: number }>(sql`select count(*)::int as n from member_events where member_id = ${memberId} and kind = 'payment_failed' and detail->>'key' = ${key}`).then((r) => r.rows);
    if (seen && seen.n > 0) return;
    await addMemberEvent(tx, memberId, "payment_failed", { key, invoice: invoice.id, subscription: subscriptionId, amount: invoice.amount_due, currency: invoice.currency, attempt: invoice.attempt_count });
    await queueMail(tx, key, { kind: "payment_failed", memberId, tierName: tier?.name ?? "paid" });
  });
}

/** A subscription as the webhooks last wrote it, with its tier's name (the return page from Checkout). */
export async function subscriptionOf(db: Pick<Db, "select">, stripeSubscriptionId: string) {
  const [row] = await db
    .select({ status: memberSubscriptions.status, tierName: memberTiers.name, trialEnd: memberSubscriptions.trialEnd, periodEnd: memberSubscriptions.currentPeriodEnd, memberId: memberSubscriptions.memberId })
    .from(memberSubscriptions)
    .leftJoin(memberTiers, eq(memberTiers.id, memberSubscriptions.tierId))
    .where(eq(memberSubscriptions.stripeSubscriptionId, stripeSubscriptionId));
  return row ?? null;
}

/** Applies one stored event (the job's work). Unknown types are accepted and left alone. */
export async function applyStripeEvent(deps: StripeEventDeps, event: Stripe.Event): Promise<void> {
  switch (event.type) {
    case "checkout.session.completed":
      return applyCheckoutCompleted(deps, event.data.object);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
    case "customer.subscription.paused":
    case "customer.subscription.resumed":
      await syncSubscription(deps, event.data.object.id);
      return;
    case "invoice.paid":
      return applyInvoicePaid(deps, event.data.object);
    case "invoice.payment_failed":
      return applyPaymentFailed(deps, event.data.object);
    default:
      return;
  }
}

/** Applies a stored event by id: processed once; a failure is kept in last_error and thrown (the queue retries). */
export async function processStripeEvent(deps: StripeEventDeps, eventId: string): Promise<"applied" | "already processed" | "unknown"> {
  const [row] = await deps.db.select().from(stripeEvents).where(eq(stripeEvents.id, eventId));
  if (!row) return "unknown";
  if (row.processedAt) return "already processed";
  try {
    await applyStripeEvent(deps, row.payload as Stripe.Event);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await deps.db.update(stripeEvents).set({ lastError: message.slice(0, 2000) }).where(eq(stripeEvents.id, eventId));
    deps.log.warn({ err: error, event: eventId, type: row.type }, "Stripe event not applied yet; the job queue will try again");
    throw error;
  }
  await deps.db.update(stripeEvents).set({ processedAt: new Date(), lastError: null }).where(eq(stripeEvents.id, eventId));
  return "applied";
}

/** The job queue's tasks (server/services.ts): applying events, and the billing mails they queue. */
export function stripeTasks(deps: StripeEventDeps & { mailer: Mailer; publicUrl: string }): TaskList {
  const applyEvent: Task = async (payload) => {
    const eventId = (payload as { eventId?: unknown }).eventId;
    if (typeof eventId !== "string") return;
    await processStripeEvent(deps, eventId);
  };
  const sendMail: Task = async (payload) => {
    const { kind, memberId, tierName, trialEnds } = payload as { kind: string; memberId: string; tierName: string; trialEnds?: string | null };
    const [member] = await deps.db.select({ email: subscribers.email }).from(subscribers).where(eq(subscribers.id, memberId));
    // An erased member gets nothing.
    if (!member) return;
    const siteName = (await getSettings(deps.db)).siteName || "Frontpage";
    const base = deps.publicUrl;
    if (kind === "welcome") await deps.mailer.send(memberWelcomeMail({ to: member.email, siteName, tierName, trialEnds: trialEnds ? new Date(trialEnds) : null, accountUrl: `${base}/account` }));
    else if (kind === "payment_failed") await deps.mailer.send(paymentFailedMail({ to: member.email, siteName, tierName, billingUrl: `${base}/account/billing` }));
    else if (kind === "ended") await deps.mailer.send(subscriptionEndedMail({ to: member.email, siteName, tierName, subscribeUrl: `${base}/subscribe` }));
  };
  return { [STRIPE_EVENT_TASK]: applyEvent, [MEMBER_BILLING_MAIL_TASK]: sendMail };
}
