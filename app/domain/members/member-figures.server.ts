import { and, count, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { memberSubscriptions, subscribers } from "~/db/schema";
import { PAID_STATUSES } from "./access";
import { isPaidMemberSql } from "./members.server";

// The members' figures (issue 40): one function per figure, read from the member records. The
// dashboard's cards show them; nothing else computes them again.

const DAY_MS = 24 * 60 * 60 * 1000;
const since30Days = (now: Date) => new Date(now.getTime() - 30 * DAY_MS);

/** Members: every person on record (a newsletter subscriber is a member: one person, one record). */
export async function memberCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(subscribers);
  return Number(row?.n ?? 0);
}

/** Paid members: a subscription in a paid status (active, trialing, past_due, unpaid) or a complimentary plan now. */
export async function paidMemberCount(db: Db, now = new Date()): Promise<number> {
  const [row] = await db.select({ n: count() }).from(subscribers).where(isPaidMemberSql(now));
  return Number(row?.n ?? 0);
}

/**
 * Monthly recurring revenue in the site's currency, in its minor unit: every subscription in a paid
 * status (active, trialing, past_due, unpaid), monthly at its amount and yearly at a twelfth, rounded
 * to the minor unit. Subscriptions in another currency are not added (a site sells in one currency).
 */
export async function monthlyRecurringRevenue(db: Db, currency: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | null>`sum(case when ${memberSubscriptions.cadence} = 'year' then ${memberSubscriptions.amount} / 12.0 else ${memberSubscriptions.amount} end)` })
    .from(memberSubscriptions)
    .where(and(inArray(memberSubscriptions.status, [...PAID_STATUSES]), eq(sql`lower(${memberSubscriptions.currency})`, currency.toLowerCase())));
  return Math.round(Number(row?.total ?? 0));
}

/** New members in the last 30 days (by when their record was made: a sign-up, a sign-in link used, an import). */
export async function newMembersLast30Days(db: Db, now = new Date()): Promise<number> {
  const [row] = await db.select({ n: count() }).from(subscribers).where(gte(subscribers.createdAt, since30Days(now)));
  return Number(row?.n ?? 0);
}

/** Paid subscriptions that ended (Stripe's "canceled") in the last 30 days, whoever held them (an erased member's too). */
export async function canceledSubscriptionsLast30Days(db: Db, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(memberSubscriptions)
    .where(and(eq(memberSubscriptions.status, "canceled"), gte(sql`coalesce(${memberSubscriptions.endedAt}, ${memberSubscriptions.updatedAt})`, since30Days(now))));
  return Number(row?.n ?? 0);
}
