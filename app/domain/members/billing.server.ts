import type { Member } from "./member-session.server";

/**
 * Payments (issue 40): what the rest of the app asks of Stripe, implemented by the Stripe module
 * (its official SDK) and present as `context.billing` only when STRIPE_SECRET_KEY is set. Without it
 * the site has free members only.
 */
export interface Billing {
  /** The site's currency (CURRENCY, lower-case ISO code, default "usd"). */
  currency: string;
  /** A Stripe Checkout session for `member` in a tier at a cadence: the address to send them to. */
  checkoutUrl(member: Member, tierId: string, cadence: "month" | "year"): Promise<string>;
  /** Stripe's Customer Portal for `member` (who has a Stripe customer): the address to send them to. */
  portalUrl(member: Member, returnUrl: string): Promise<string>;
  /** Cancels every subscription of the member at once (before "Delete my account" erases them). */
  cancelAll(memberId: string): Promise<void>;
}
