/**
 * Who may read what (issue 40, decision 0054): the rules every reader-facing answer follows, in one
 * place, with no I/O, so the page cache's door, the loaders, feeds, search and e-mail decide alike.
 *
 * - A story's access is public, members (any signed-in member) or paid (a tier, or any paid tier).
 * - A member is "paid" in a tier while a subscription of theirs to it is active, trialing, past_due or
 *   unpaid (Ghost's rule), or while an admin's complimentary plan of that tier lasts; free otherwise.
 * - A reader without access gets the story up to its paywall point and a call to action that fits
 *   them: the "variant" of the page. A variant is a class, never a person: the page cache keeps one
 *   copy of a page per variant, so a member's page costs no render.
 */

export type StoryAccessLevel = "public" | "members" | "paid";

export interface StoryAccess {
  level: StoryAccessLevel;
  /** A paid story's tier; null: any paid tier. */
  tierId: string | null;
}

export const PUBLIC_STORY: StoryAccess = { level: "public", tierId: null };

/** Stripe statuses in which a subscription gives paid access (Ghost's rule: paid until canceled or ended). */
export const PAID_STATUSES = ["active", "trialing", "past_due", "unpaid"] as const;

export function isPaidStatus(status: string): boolean {
  return (PAID_STATUSES as readonly string[]).includes(status);
}

/** What a reader is, for access: never more than the cookie or session proved on the server. */
export type Reader =
  | { kind: "anonymous" }
  | { kind: "member"; memberId: string; /** The tiers they have paid (or complimentary) access to; empty: a free member. */ paidTiers: readonly string[] }
  /** A signed-in staff account: reads every story whole (its pages are never cached). */
  | { kind: "staff" };

export const ANONYMOUS: Reader = { kind: "anonymous" };

/**
 * Which copy of a gated page a reader gets:
 * - "full": the whole story;
 * - "anonymous": the teaser with "Sign in" / "Subscribe";
 * - "free": the teaser for a signed-in free member ("Subscribe");
 * - "upgrade": the teaser for a paying member of another tier ("Upgrade").
 */
export type Variant = "full" | "anonymous" | "free" | "upgrade";

export const VARIANTS: readonly Variant[] = ["full", "anonymous", "free", "upgrade"];

export function isVariant(value: unknown): value is Variant {
  return typeof value === "string" && (VARIANTS as readonly string[]).includes(value);
}

/** Whether `reader` may read the whole of a story with `access` (the meter aside). */
export function mayRead(reader: Reader, access: StoryAccess): boolean {
  if (access.level === "public" || reader.kind === "staff") return true;
  if (reader.kind === "anonymous") return false;
  if (access.level === "members") return true;
  return access.tierId === null ? reader.paidTiers.length > 0 : reader.paidTiers.includes(access.tierId);
}

/** Whether the meter may open this story for this reader: only paid stories, only anonymous readers and free members. */
export function isMeterable(reader: Reader, access: StoryAccess): boolean {
  if (access.level !== "paid") return access.level === "members" && reader.kind === "anonymous";
  return reader.kind === "anonymous" || (reader.kind === "member" && reader.paidTiers.length === 0);
}

/** The copy of a story's page a reader gets when the meter does not open it. */
export function variantFor(reader: Reader, access: StoryAccess): Variant {
  if (mayRead(reader, access)) return "full";
  if (reader.kind !== "member") return "anonymous";
  return reader.paidTiers.length > 0 ? "upgrade" : "free";
}

/** The call to action a teaser variant shows (the texts readers see). */
export function callToActionOf(variant: Exclude<Variant, "full">, access: StoryAccess): { heading: string; action: "sign-in" | "subscribe" | "upgrade" } {
  if (variant === "anonymous") {
    return access.level === "members"
      ? { heading: "This story is for members. Sign in or create a free account to keep reading.", action: "sign-in" }
      : { heading: "This story is for paying subscribers. Subscribe to keep reading.", action: "subscribe" };
  }
  if (variant === "free") return { heading: "This story is for paying subscribers. Subscribe to keep reading.", action: "subscribe" };
  return { heading: "This story is part of another plan. Upgrade to keep reading.", action: "upgrade" };
}

/** How long a meter period lasts. */
export const METER_PERIOD_MS = 30 * 24 * 60 * 60 * 1000;

/** "2 of 3 free stories left" (the call to action and the banner on a metered read). */
export function meterNote(left: number, allowed: number): string {
  return `${left} of ${allowed} free ${allowed === 1 ? "story" : "stories"} left`;
}
