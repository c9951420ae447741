import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberEvents, memberInvoices, memberSubscriptions, stripeEvents, subscribers } from "~/db/schema";
import { SYSTEM_ACTOR } from "~/domain/accounts/actor";
import { startJobQueue, type JobQueue } from "~/lib/job-queue.server";
import { createMailer } from "~/lib/mail.server";
import { startSmtpSink, type SmtpSink } from "../../../tests/setup/smtp-sink";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { startStripeStandIn, type StripeStandIn } from "../../../tests/support/stripe-stand-in";
import type { Billing } from "./billing.server";
import { paidTiersOf } from "./members.server";
import type { Member } from "./member-session.server";
import { receiveStripeEvent, stripeTasks } from "./stripe-events.server";
import { createStripeBilling, createStripeClient } from "./stripe.server";
import { tierFormSchema } from "./tiers.schema";
import { createTier } from "./tiers.server";

// Stripe's webhook events end to end, with no internet: the SDK talks to the local stand-in
// (STRIPE_API_BASE), which signs its events with the SDK's own test-header helper; each event goes
// through the same receive (signature, store once, queue) as /api/stripe/webhook, and the real job
// queue applies it against this file's database and mails through a real SMTP server.

const log = pino({ level: "silent" });
const PUBLIC_URL = "https://news.example.org";
let t: TestDatabase;
let standIn: StripeStandIn;
let billing: Billing;
let queue: JobQueue;
let sink: SmtpSink;
let tierId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  sink = await startSmtpSink({ keep: true });
  standIn = await startStripeStandIn();
  const env = { STRIPE_SECRET_KEY: standIn.apiKey, STRIPE_API_BASE: standIn.url, STRIPE_WEBHOOK_SECRET: standIn.webhookSecret, CURRENCY: "usd", publicUrl: PUBLIC_URL };
  const stripe = createStripeClient(env)!;
  billing = createStripeBilling({ stripe, db: t.db, env, log });
  // The webhook: what /api/stripe/webhook does with the body and its header.
  standIn.webhook = async (body, signature) => (await receiveStripeEvent(t.db, stripe, Buffer.from(body), signature || null, standIn.webhookSecret)).status;
  const mailer = createMailer({ smtpUrl: sink.url, from: "Frontpage <news@example.org>", log, outboxDir: "/nonexistent" });
  queue = await startJobQueue({ connectionString: t.url, log, tasks: stripeTasks({ db: t.db, stripe, log, mailer, publicUrl: PUBLIC_URL }), pollIntervalMs: 200 });
  const input = tierFormSchema.parse({ name: "Supporter", description: "Keep us going", benefits: "Every story\nNo ads", monthlyPrice: "5", yearlyPrice: "50", trialDays: "" });
  tierId = (await createTier(t.db, SYSTEM_ACTOR, input, billing.catalog, "usd")).id;
});

afterAll(async () => {
  await queue?.stop();
  await standIn?.stop();
  await sink?.stop();
});

async function newMember(name: string): Promise<Member> {
  const [member] = await t.db
    .insert(subscribers)
    .values({ email: `${name}-${Date.now().toString(36)}@example.com`, status: "active", emailVerified: true })
    .returning();
  return member!;
}

const sessionIdOf = (url: string) => url.split("/").at(-1)!;

/** Waits until the job queue has applied every event the site took so far (or `ids`). */
async function applied(ids = standIn.deliveries.filter((d) => d.status === 200).map((d) => d.eventId)) {
  await expect
    .poll(
      async () => {
        const rows = await t.db.select({ id: stripeEvents.id, processedAt: stripeEvents.processedAt }).from(stripeEvents);
        const done = new Set(rows.filter((r) => r.processedAt).map((r) => r.id));
        return ids.filter((id) => !done.has(id));
      },
      { timeout: 20_000, interval: 100 },
    )
    .toEqual([]);
}

async function subscriptionRow(stripeSubscriptionId: string) {
  const [row] = await t.db.select().from(memberSubscriptions).where(eq(memberSubscriptions.stripeSubscriptionId, stripeSubscriptionId));
  return row;
}

const eventsOf = async (memberId: string) =>
  (await t.db.select({ kind: memberEvents.kind }).from(memberEvents).where(eq(memberEvents.memberId, memberId)).orderBy(memberEvents.createdAt)).map((e) => e.kind);

/** A member who went through Checkout and paid (events applied). */
async function paidMember(name: string, cadence: "month" | "year" = "month") {
  const member = await newMember(name);
  const url = await billing.checkoutUrl(member, tierId, cadence);
  const { subscription } = await standIn.completeCheckout(sessionIdOf(url));
  await applied();
  return { member, subscriptionId: String(subscription.id) };
}

describe("a paid Checkout", () => {
  it("links the customer, makes the member paid in the tier, records the invoice and sends one welcome mail", async () => {
    const member = await newMember("reader");
    const before = member.accessChangedAt;
    const url = await billing.checkoutUrl(member, tierId, "year");
    expect(url).toMatch(new RegExp(`^${standIn.url}/checkout/cs_test_`));
    const session = standIn.sessions.get(sessionIdOf(url))!;
    expect(session).toMatchObject({ mode: "subscription", client_reference_id: member.id, success_url: `${PUBLIC_URL}/subscribe/return?session_id={CHECKOUT_SESSION_ID}`, cancel_url: `${PUBLIC_URL}/subscribe?canceled=1` });
    // The customer is made once and kept on the member.
    const [linked] = await t.db.select().from(subscribers).where(eq(subscribers.id, member.id));
    expect(linked!.stripeCustomerId).toBe(session.customer);
    expect(await paidTiersOf(t.db, member.id)).toEqual([]);

    const { subscription } = await standIn.completeCheckout(String(session.id));
    expect(standIn.deliveries.slice(-3).map((d) => d.status)).toEqual([200, 200, 200]);
    await applied();
    expect(await paidTiersOf(t.db, member.id)).toEqual([tierId]);
    expect(await subscriptionRow(String(subscription.id))).toMatchObject({ memberId: member.id, tierId, status: "active", cadence: "year", amount: 5000, currency: "usd", cancelAtPeriodEnd: false });
    const [after] = await t.db.select().from(subscribers).where(eq(subscribers.id, member.id));
    expect(after!.accessChangedAt.getTime()).toBeGreaterThan(before.getTime());
    expect(await eventsOf(member.id)).toEqual(["subscribed"]);
    const invoices = await t.db.select().from(memberInvoices).where(eq(memberInvoices.memberId, member.id));
    expect(invoices).toMatchObject([{ amountPaid: 5000, currency: "usd", status: "paid", stripeSubscriptionId: subscription.id }]);
    await expect.poll(() => sink.messages.filter((m) => m.to.includes(member.email)).map((m) => m.subject), { timeout: 10_000 }).toEqual(["Welcome to Supporter at Frontpage"]);
    expect(sink.messages.find((m) => m.to.includes(member.email))!.text).toContain(`${PUBLIC_URL}/account`);
  });

  it("a member who already pays is not sent to Checkout again", async () => {
    const { member } = await paidMember("twice");
    await expect(billing.checkoutUrl(member, tierId, "month")).rejects.toThrow(/already have a paid plan/);
  });
});

describe("events out of order, twice, replayed or forged", () => {
  it("an update that arrives before its creation leaves the subscription as Stripe says it is now (past_due: still paid)", async () => {
    const member = await newMember("early");
    const url = await billing.checkoutUrl(member, tierId, "month");
    const { subscription, events } = await standIn.completeCheckout(sessionIdOf(url), { deliver: false });
    const [pastDue] = (await standIn.setSubscriptionStatus(String(subscription.id), "past_due", { deliver: false })).filter((e) => e.type === "customer.subscription.updated");
    // Stripe's order is not guaranteed: the update first, then the creation, then the rest.
    for (const event of [pastDue!, ...events]) {
      expect(await standIn.send(event)).toBe(200);
      await applied([String(event.id)]);
    }
    expect(await subscriptionRow(String(subscription.id))).toMatchObject({ status: "past_due", memberId: member.id });
    expect(await paidTiersOf(t.db, member.id)).toEqual([tierId]);
    // The creation event, applied after, carried "active": the row kept what Stripe says now.
    expect(await eventsOf(member.id)).toEqual(["subscribed"]);
  });

  it("a forged, stale or missing signature is refused with 400 and writes nothing", async () => {
    const { subscriptionId } = await paidMember("forged");
    const [event] = await standIn.setSubscriptionStatus(subscriptionId, "canceled", { deliver: false });
    const count = async () => (await t.db.execute<{ n: number }>(sql`select (select count(*) from stripe_events)::int + (select count(*) from graphile_worker._private_jobs)::int as n`)).rows[0]!.n;
    const before = await count();
    expect(await standIn.send(event!, { signature: "forged" })).toBe(400);
    expect(await standIn.send(event!, { signature: "stale" })).toBe(400);
    expect(await standIn.send(event!, { signature: "none" })).toBe(400);
    expect(await standIn.send({ ...event!, type: "customer.subscription.created" }, { signature: "forged" })).toBe(400);
    expect(await count()).toBe(before);
    expect((await subscriptionRow(subscriptionId))!.status).toBe("active");
  });

  it("a replayed event is received once and changes nothing", async () => {
    const { member, subscriptionId } = await paidMember("replay");
    const checkoutEvent = standIn.events.findLast((e) => e.type === "checkout.session.completed")!;
    const rowBefore = await subscriptionRow(subscriptionId);
    const timeline = await eventsOf(member.id);
    // The welcome mail is its own job: wait for it, so the count below is the one after the first delivery.
    await expect.poll(() => sink.receivedBy(member.email), { timeout: 10_000 }).toBe(1);
    const mails = sink.receivedBy(member.email);
    const [{ n: stored }] = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from stripe_events`)).rows as [{ n: number }];
    expect(await standIn.replay(String(checkoutEvent.id))).toBe(200);
    expect(await standIn.replay(String(checkoutEvent.id))).toBe(200);
    const [{ n: storedAfter }] = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from stripe_events`)).rows as [{ n: number }];
    expect(storedAfter).toBe(stored);
    await new Promise((r) => setTimeout(r, 500));
    expect(await subscriptionRow(subscriptionId)).toEqual(rowBefore);
    expect(await eventsOf(member.id)).toEqual(timeline);
    expect(sink.receivedBy(member.email)).toBe(mails);
  });
});

describe("the member's status follows Stripe (Ghost's rule)", () => {
  it("past_due keeps paid access and mails the billing link once; deleted makes them free and mails that it ended", async () => {
    const { member, subscriptionId } = await paidMember("lapsing");
    await standIn.setSubscriptionStatus(subscriptionId, "past_due");
    await applied();
    expect(await paidTiersOf(t.db, member.id)).toEqual([tierId]);
    expect(await eventsOf(member.id)).toEqual(["subscribed", "status_changed", "payment_failed"]);
    await expect.poll(() => sink.messages.filter((m) => m.to.includes(member.email)).map((m) => m.subject).sort(), { timeout: 10_000 }).toEqual(["Welcome to Supporter at Frontpage", "Your payment for Frontpage did not go through"]);
    expect(sink.messages.find((m) => m.subject.startsWith("Your payment"))!.text).toContain(`${PUBLIC_URL}/account/billing`);

    await standIn.setSubscriptionStatus(subscriptionId, "canceled");
    await applied();
    expect(await paidTiersOf(t.db, member.id)).toEqual([]);
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: "canceled" });
    expect((await eventsOf(member.id)).at(-1)).toBe("ended");
    await expect.poll(() => sink.messages.filter((m) => m.to.includes(member.email)).length, { timeout: 10_000 }).toBe(3);
    expect(sink.messages.filter((m) => m.to.includes(member.email)).at(-1)!.subject).toBe("Your Supporter plan at Frontpage has ended");
  });

  it("a renewal records its invoice and a 'renewed' line; cancelling at the period's end keeps access until then", async () => {
    const { member, subscriptionId } = await paidMember("renewing");
    await standIn.renew(subscriptionId);
    await applied();
    expect(await eventsOf(member.id)).toEqual(["subscribed", "renewed"]);
    expect((await t.db.select().from(memberInvoices).where(eq(memberInvoices.memberId, member.id))).length).toBe(2);
    // The reader cancels in the portal: Stripe cancels at the period's end.
    await standIn.updateSubscription(subscriptionId, { cancel_at_period_end: true });
    await applied();
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    expect(await paidTiersOf(t.db, member.id)).toEqual([tierId]);
    expect((await eventsOf(member.id)).at(-1)).toBe("canceled");
  });

  it("cancelAll cancels every subscription of the member at Stripe and at once here", async () => {
    const { member, subscriptionId } = await paidMember("leaving");
    await billing.cancelAll(member.id);
    expect(standIn.subscriptions.get(subscriptionId)!.status).toBe("canceled");
    expect(await paidTiersOf(t.db, member.id)).toEqual([]);
    await applied();
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ status: "canceled" });
  });

  it("the billing portal opens for a member with a customer, and is refused for one without", async () => {
    const { member } = await paidMember("portal");
    const [row] = await t.db.select().from(subscribers).where(eq(subscribers.id, member.id));
    expect(await billing.portalUrl(row!, `${PUBLIC_URL}/account`)).toMatch(new RegExp(`^${standIn.url}/portal/bps_`));
    await expect(billing.portalUrl(await newMember("nobody"), `${PUBLIC_URL}/account`)).rejects.toThrow(/no billing account/);
  });
});

describe("a handler that fails", () => {
  it("keeps the error on the event and is retried by the job queue until it holds", async () => {
    const member = await newMember("retry");
    const url = await billing.checkoutUrl(member, tierId, "month");
    const { subscription, events } = await standIn.completeCheckout(sessionIdOf(url), { deliver: false });
    const created = events.find((e) => e.type === "customer.subscription.created")!;
    // Stripe answers the job's fetch of the subscription with an error once.
    standIn.failNext("GET", `/v1/subscriptions/${String(subscription.id)}`, { status: 400, message: "Simulated refusal" });
    expect(await standIn.send(created)).toBe(200);
    await expect
      .poll(async () => (await t.db.select().from(stripeEvents).where(eq(stripeEvents.id, String(created.id))))[0]?.lastError ?? null, { timeout: 10_000, interval: 100 })
      .toMatch(/Simulated refusal/);
    expect(await subscriptionRow(String(subscription.id))).toBeUndefined();
    // graphile-worker tries again after exp(1) ≈ 2.7 s.
    await applied([String(created.id)]);
    const [event] = await t.db.select().from(stripeEvents).where(eq(stripeEvents.id, String(created.id)));
    expect(event).toMatchObject({ lastError: null });
    expect(await paidTiersOf(t.db, member.id)).toEqual([tierId]);
  });
});
