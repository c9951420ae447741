import { and, eq, isNull, notInArray } from "drizzle-orm";
import Stripe from "stripe";
import type { Db } from "~/db/client.server";
import { memberSubscriptions, memberTiers, subscribers } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import type { Billing, CatalogSync, CatalogTier, CheckoutOutcome, TierCatalog } from "./billing.server";
import { addMemberEvent, noteAccessChanged } from "./members.server";
import type { Member } from "./member-session.server";
import { receiveStripeEvent } from "./stripe-events.server";

// Stripe through its official SDK (issue 40, decision 0054): one client per process, made from
// STRIPE_SECRET_KEY; STRIPE_API_BASE points it at another address (tests: a local stand-in). The
// Billing the app asks for (Checkout, the Customer Portal, cancelling, the catalog of tiers, webhooks)
// is implemented here; the events are applied in stripe-events.server.ts.

/** Statuses whose subscription is over (nothing left to cancel). */
const ENDED_STATUSES = ["canceled", "incomplete_expired"];

/** The SDK's client for the environment, or null without STRIPE_SECRET_KEY (free members only). */
export function createStripeClient(env: Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_API_BASE">): Stripe | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
  return new Stripe(env.STRIPE_SECRET_KEY, {
    ...(base
      ? {
          protocol: base.protocol === "http:" ? "http" : "https",
          host: base.hostname,
          port: base.port || (base.protocol === "http:" ? 80 : 443),
        }
      : {}),
    // Retries with the SDK's idempotency keys on a network error or a 409/5xx.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: "Frontpage" },
  });
}

/**
 * The origins a form post may be redirected to when Stripe is configured (the Content-Security-Policy's
 * form-action): Checkout and the Customer Portal, or the stand-in that serves both (STRIPE_API_BASE).
 */
export function stripeFormOrigins(env: Pick<Env, "STRIPE_SECRET_KEY" | "STRIPE_API_BASE">): string[] {
  if (!env.STRIPE_SECRET_KEY) return [];
  if (env.STRIPE_API_BASE) return [new URL(env.STRIPE_API_BASE).origin];
  return ["https://checkout.stripe.com", "https://billing.stripe.com"];
}

/** A Stripe refusal as the app's error: its message for people (an admin reads it in the toast), the cause logged. */
export function stripeRefusal(error: unknown, doing: string): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Stripe.errors.StripeError) {
    if (error.type === "StripeConnectionError") return new AppError("upstream_failed", `Stripe could not be reached while ${doing}. Nothing was saved; try again.`, { cause: error });
    if (error.type === "StripeAuthenticationError") return new AppError("upstream_failed", `Stripe refused the API key while ${doing} (check STRIPE_SECRET_KEY). Nothing was saved.`, { cause: error });
    return new AppError("upstream_failed", `Stripe refused ${doing}: ${error.message} Nothing was saved.`, { cause: error });
  }
  return new AppError("upstream_failed", `Stripe failed while ${doing}. Nothing was saved; try again.`, { cause: error });
}

/** Tiers as Stripe products (one per tier) with a monthly and a yearly price. */
export function createStripeCatalog(stripe: Stripe, log: Logger): TierCatalog {
  const productFields = (tier: CatalogTier, creating = false) => ({
    name: tier.name,
    // Stripe refuses an empty description when creating; on update "" removes it.
    ...(tier.description || !creating ? { description: tier.description } : {}),
    metadata: { tier_id: tier.id, source: "frontpage" },
    marketing_features: tier.benefits.slice(0, 15).map((name) => ({ name: name.slice(0, 80) })),
  });
  const newPrice = (tier: CatalogTier, productId: string, interval: "month" | "year") =>
    stripe.prices.create({
      product: productId,
      currency: tier.currency,
      unit_amount: interval === "month" ? tier.monthlyPrice : tier.yearlyPrice,
      recurring: { interval },
      nickname: `${tier.name} (${interval === "month" ? "monthly" : "yearly"})`,
      metadata: { tier_id: tier.id, cadence: interval },
    });
  const quietly = (what: string, run: () => Promise<unknown>) =>
    run().then(
      () => {},
      (error: unknown) => log.warn({ err: error }, `Stripe: could not ${what}`),
    );
  return {
    async sync(tier, before) {
      const made: { product?: string; prices: string[] } = { prices: [] };
      const retire: string[] = [];
      try {
        let productId = before?.stripeProductId ?? null;
        if (!productId) {
          productId = (await stripe.products.create(productFields(tier, true))).id;
          made.product = productId;
        } else if (!before || before.name !== tier.name || before.description !== tier.description || JSON.stringify(before.benefits) !== JSON.stringify(tier.benefits)) {
          await stripe.products.update(productId, productFields(tier));
        }
        const priceFor = async (interval: "month" | "year") => {
          const current = interval === "month" ? before?.stripeMonthlyPriceId : before?.stripeYearlyPriceId;
          const amount = interval === "month" ? tier.monthlyPrice : tier.yearlyPrice;
          const previous = interval === "month" ? before?.monthlyPrice : before?.yearlyPrice;
          if (current && previous === amount && before?.currency === tier.currency && before.stripeProductId === productId) return current;
          const price = await newPrice(tier, productId, interval);
          made.prices.push(price.id);
          if (current) retire.push(current);
          return price.id;
        };
        const monthlyPriceId = await priceFor("month");
        const yearlyPriceId = await priceFor("year");
        const sync: CatalogSync = {
          productId,
          monthlyPriceId,
          yearlyPriceId,
          // Existing subscriptions keep their (now inactive) price; new ones get the new price.
          afterSave: async () => {
            for (const price of retire) await quietly(`deactivate the replaced price ${price}`, () => stripe.prices.update(price, { active: false }));
          },
          undo: async () => {
            for (const price of made.prices) await quietly(`deactivate the unsaved price ${price}`, () => stripe.prices.update(price, { active: false }));
            if (made.product) await quietly(`archive the unsaved product ${made.product}`, () => stripe.products.update(made.product!, { active: false }));
            else if (before?.stripeProductId) await quietly("restore the product's name", () => stripe.products.update(before.stripeProductId!, productFields(before)));
          },
        };
        return sync;
      } catch (error) {
        for (const price of made.prices) await quietly(`deactivate the unsaved price ${price}`, () => stripe.prices.update(price, { active: false }));
        if (made.product) await quietly(`archive the unsaved product ${made.product}`, () => stripe.products.update(made.product!, { active: false }));
        throw stripeRefusal(error, "saving the tier's product and prices");
      }
    },
    async setActive(productId, active) {
      try {
        await stripe.products.update(productId, { active });
      } catch (error) {
        throw stripeRefusal(error, active ? "restoring the tier's product" : "archiving the tier's product");
      }
    },
  };
}

/** The member's Stripe customer: the one on record, else a new one saved to the member (one per member, even when two Checkouts race). */
async function customerOf(stripe: Stripe, db: Db, member: Member): Promise<string> {
  if (member.stripeCustomerId) return member.stripeCustomerId;
  const customer = await stripe.customers.create(
    { email: member.email, ...(member.name ? { name: member.name } : {}), metadata: { member_id: member.id } },
    // The same member asking twice gets the same customer (Stripe keeps idempotency keys 24 hours).
    { idempotencyKey: `frontpage-member-customer-${member.id}` },
  );
  const saved = await db
    .update(subscribers)
    .set({ stripeCustomerId: customer.id, updatedAt: new Date() })
    .where(and(eq(subscribers.id, member.id), isNull(subscribers.stripeCustomerId)))
    .returning({ id: subscribers.id });
  if (saved.length > 0) return customer.id;
  const [row] = await db.select({ stripeCustomerId: subscribers.stripeCustomerId }).from(subscribers).where(eq(subscribers.id, member.id));
  if (!row?.stripeCustomerId) throw new AppError("not_found", "Your account no longer exists.");
  return row.stripeCustomerId;
}

/** The Billing of a site with Stripe keys. */
export function createStripeBilling(options: { stripe: Stripe; db: Db; env: Pick<Env, "publicUrl" | "CURRENCY" | "STRIPE_WEBHOOK_SECRET">; log: Logger }): Billing {
  const { stripe, db, env, log } = options;
  const currency = env.CURRENCY;
  return {
    currency,
    catalog: createStripeCatalog(stripe, log),

    async checkoutUrl(member, tierId, cadence, metadata = {}) {
      const [tier] = await db.select().from(memberTiers).where(eq(memberTiers.id, tierId));
      const price = cadence === "year" ? tier?.stripeYearlyPriceId : tier?.stripeMonthlyPriceId;
      if (!tier || tier.archivedAt || !price) throw new AppError("not_found", "This plan is not offered any more. Choose another.", { status: 400 });
      const [current] = await db
        .select({ id: memberSubscriptions.id })
        .from(memberSubscriptions)
        .where(and(eq(memberSubscriptions.memberId, member.id), notInArray(memberSubscriptions.status, [...ENDED_STATUSES, "incomplete"])));
      if (current) throw new AppError("invalid_input", "You already have a paid plan. Change or cancel it from your account (Manage billing).", { status: 409 });
      try {
        const customer = await customerOf(stripe, db, member);
        const session = await stripe.checkout.sessions.create({
          mode: "subscription",
          customer,
          client_reference_id: member.id,
          line_items: [{ price, quantity: 1 }],
          subscription_data: { ...(tier.trialDays > 0 ? { trial_period_days: tier.trialDays } : {}), metadata: { member_id: member.id, tier_id: tier.id } },
          metadata: { ...metadata, member_id: member.id, tier_id: tier.id },
          success_url: `${env.publicUrl}/subscribe/return?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${env.publicUrl}/subscribe?canceled=1`,
        });
        if (!session.url) throw new AppError("upstream_failed", "Stripe did not give a Checkout address. Try again.");
        return session.url;
      } catch (error) {
        throw stripeRefusal(error, "starting Checkout");
      }
    },

    async portalUrl(member, returnUrl) {
      if (!member.stripeCustomerId) throw new AppError("not_found", "You have no billing account yet: subscribe to a plan first.");
      try {
        const session = await stripe.billingPortal.sessions.create({ customer: member.stripeCustomerId, return_url: returnUrl });
        return session.url;
      } catch (error) {
        throw stripeRefusal(error, "opening the billing portal");
      }
    },

    async cancelAll(memberId) {
      const [member] = await db.select({ stripeCustomerId: subscribers.stripeCustomerId }).from(subscribers).where(eq(subscribers.id, memberId));
      const ids = new Set(
        (
          await db
            .select({ id: memberSubscriptions.stripeSubscriptionId })
            .from(memberSubscriptions)
            .where(and(eq(memberSubscriptions.memberId, memberId), notInArray(memberSubscriptions.status, ENDED_STATUSES)))
        ).map((row) => row.id),
      );
      try {
        // Stripe's own list too: a subscription whose events have not arrived yet is canceled as well.
        if (member?.stripeCustomerId) {
          for await (const subscription of stripe.subscriptions.list({ customer: member.stripeCustomerId, status: "all", limit: 100 })) {
            if (!ENDED_STATUSES.includes(subscription.status)) ids.add(subscription.id);
          }
        }
        for (const id of ids) {
          const retrieved = await stripe.subscriptions.retrieve(id);
          if (ENDED_STATUSES.includes(retrieved.status)) continue;
          await stripe.subscriptions.cancel(id);
        }
      } catch (error) {
        throw stripeRefusal(error, "canceling the subscriptions");
      }
      if (ids.size === 0) return;
      const now = new Date();
      await db.transaction(async (tx) => {
        await tx
          .update(memberSubscriptions)
          .set({ status: "canceled", endedAt: now, cancelAtPeriodEnd: false, updatedAt: now })
          .where(and(eq(memberSubscriptions.memberId, memberId), notInArray(memberSubscriptions.status, ENDED_STATUSES)));
        await addMemberEvent(tx, memberId, "canceled", { by: "account deletion", subscriptions: [...ids] });
        await noteAccessChanged(tx, memberId);
      });
    },

    async checkoutOutcome(sessionId): Promise<CheckoutOutcome | null> {
      if (!/^cs_[A-Za-z0-9_]{8,200}$/.test(sessionId)) return null;
      try {
        const session = await stripe.checkout.sessions.retrieve(sessionId);
        return {
          status: session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open",
          memberId: session.client_reference_id,
          subscriptionId: typeof session.subscription === "string" ? session.subscription : (session.subscription?.id ?? null),
        };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw stripeRefusal(error, "reading the Checkout session");
      }
    },

    receiveWebhook(body, signature) {
      return receiveStripeEvent(db, stripe, body, signature, env.STRIPE_WEBHOOK_SECRET!);
    },
  };
}
