import type { Member } from "./member-session.server";

/** A tier as Stripe's catalog needs it (app/domain/members/tiers.server.ts saves what `sync` answers). */
export interface CatalogTier {
  id: string;
  name: string;
  description: string;
  benefits: readonly string[];
  /** Minor units. */
  monthlyPrice: number;
  yearlyPrice: number;
  currency: string;
  stripeProductId: string | null;
  stripeMonthlyPriceId: string | null;
  stripeYearlyPriceId: string | null;
}

/** What a tier's save asks of Stripe's catalog: its product and two prices, made or brought up to date. */
export interface CatalogSync {
  productId: string;
  monthlyPriceId: string;
  yearlyPriceId: string;
  /** Once the tier is saved: retires the prices it no longer uses (Stripe's prices are immutable). */
  afterSave(): Promise<void>;
  /** When the save failed after `sync`: deactivates what `sync` made and restores what it changed (best effort). */
  undo(): Promise<void>;
}

/** Stripe's products and prices for the tiers (/admin/members/tiers). */
export interface TierCatalog {
  /** Creates the tier's product and prices (a new tier: `before` null) or updates them: a changed amount is a new price. Throws an AppError when Stripe refuses. */
  sync(tier: CatalogTier, before: CatalogTier | null): Promise<CatalogSync>;
  /** Archives (inactive: not sold) or restores a tier's product. */
  setActive(productId: string, active: boolean): Promise<void>;
}

/** What the return page from Checkout says (/subscribe/return). */
export interface CheckoutOutcome {
  /** "complete": paid (or a trial started); "open": not finished; "expired": abandoned. */
  status: "complete" | "open" | "expired";
  memberId: string | null;
  subscriptionId: string | null;
}

/**
 * Payments (issue 40): what the rest of the app asks of Stripe, implemented by the Stripe module
 * (app/domain/members/stripe.server.ts, its official SDK) and present as `context.billing` only when
 * STRIPE_SECRET_KEY is set. Without it the site has free members only.
 */
export interface Billing {
  /** The site's currency (CURRENCY, lower-case ISO code, default "usd"). */
  currency: string;
  /**
   * A Stripe Checkout session for `member` in a tier at a cadence: the address to send them to.
   * `metadata`: more of the session's metadata (issue 42: the audience attribution, read back by the webhook).
   */
  checkoutUrl(member: Member, tierId: string, cadence: "month" | "year", metadata?: Record<string, string>): Promise<string>;
  /** Stripe's Customer Portal for `member` (who has a Stripe customer): the address to send them to. */
  portalUrl(member: Member, returnUrl: string): Promise<string>;
  /** Cancels every subscription of the member at once (before "Delete my account" erases them). */
  cancelAll(memberId: string): Promise<void>;
  /** How a Checkout session ended (the return page), or null for an id Stripe does not know. */
  checkoutOutcome(sessionId: string): Promise<CheckoutOutcome | null>;
  /** The tiers' products and prices. */
  catalog: TierCatalog;
  /** A webhook call: its signature checked, the event stored once and queued (app/domain/members/stripe-events.server.ts). */
  receiveWebhook(body: Buffer, signature: string | null): Promise<{ status: number; message: string }>;
}
