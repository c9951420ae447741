import { z } from "zod";

// The newsroom's members screens (issue 40): /admin/members' filters, the member page's forms. Browser-safe.

export const MEMBERS_PAGE_SIZE = 50;

/** What a member is, for the list's "Status" filter and column. */
export const MEMBER_STATUSES = ["free", "paid", "comp", "past_due", "canceled"] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export const MEMBER_STATUS_LABELS: Record<MemberStatus, string> = {
  free: "Free",
  paid: "Paid",
  comp: "Complimentary",
  past_due: "Past due",
  canceled: "Canceled recently",
};
export const isMemberStatus = (value: string): value is MemberStatus => (MEMBER_STATUSES as readonly string[]).includes(value);

/** How long "canceled recently" looks back. */
export const RECENTLY_DAYS = 30;

/** The newsletter filter's two fixed choices beside a newsletter's id. */
export const NEWSLETTER_NONE = "none";
export const NEWSLETTER_UNSUBSCRIBED = "unsubscribed";

/** The tier filter's two fixed choices beside a tier's id. */
export const TIER_FREE = "free";
export const TIER_ANY_PAID = "paid";

const isoDay = /^\d{4}-\d{2}-\d{2}$/;

export interface MemberFilter {
  search: string;
  /** "free", "paid" (any paid tier) or a tier's id. */
  tier: string | null;
  status: MemberStatus | null;
  /** A newsletter's id, "none" or "unsubscribed". */
  newsletter: string | null;
  /** The newsletter state of the record (pending, active, unsubscribed, bounced, complained): /admin/subscribers' old filter. */
  state: string | null;
  /** Signed up on or after this day, on or before that day (YYYY-MM-DD, the site's time zone). */
  from: string | null;
  to: string | null;
}

const EMAIL_STATES = ["pending", "active", "unsubscribed", "bounced", "complained"];

/** The list's filters as read from the address (unknown values are dropped, never refused: a list is a read). */
export function memberFilterOf(params: URLSearchParams): MemberFilter {
  const day = (key: string) => {
    const value = params.get(key) ?? "";
    return isoDay.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
  };
  const status = params.get("status") ?? "";
  const state = params.get("state") ?? "";
  return {
    search: (params.get("q") ?? "").trim().slice(0, 200),
    tier: params.get("tier") || null,
    status: isMemberStatus(status) ? status : null,
    newsletter: params.get("newsletter") || null,
    state: EMAIL_STATES.includes(state) ? state : null,
    from: day("from"),
    to: day("to"),
  };
}

/** The filters back as a query string (the list's links, the export's address). */
export function memberFilterQuery(filter: MemberFilter): URLSearchParams {
  const query = new URLSearchParams();
  if (filter.search) query.set("q", filter.search);
  if (filter.tier) query.set("tier", filter.tier);
  if (filter.status) query.set("status", filter.status);
  if (filter.newsletter) query.set("newsletter", filter.newsletter);
  if (filter.state) query.set("state", filter.state);
  if (filter.from) query.set("from", filter.from);
  if (filter.to) query.set("to", filter.to);
  return query;
}

export const COMP_FIELDS = ["tierId", "until"] as const;

/** The member page's "Give a complimentary plan": a paid tier, and an optional last day (YYYY-MM-DD). */
export const compGrantSchema = z.object({
  tierId: z.uuid({ error: "Choose a tier." }),
  until: z
    .string()
    .trim()
    .refine((v) => v === "" || (isoDay.test(v) && !Number.isNaN(Date.parse(v))), { error: "Enter the end date as a date (YYYY-MM-DD), or leave it empty for no end." })
    .transform((v) => (v === "" ? null : v)),
});

export const COMP_END_IN_PAST = "The end date must be after today.";
export const IMPORT_NEEDS_DRY_RUN = "Run a dry run of this file first, then import the same file.";

/** An amount in the currency's minor unit (cents) as people read it: formatMoney(500, "usd") → "$5.00". */
export function formatMoney(minor: number, currency: string): string {
  const format = new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}
