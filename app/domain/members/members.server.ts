import { and, eq, gt, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { articles, memberEvents, memberSubscriptions, subscribers } from "~/db/schema";
import { CHANGE_CHANNEL, signalPayload } from "~/lib/change-feed.server";
import { PAID_STATUSES, PUBLIC_STORY, type StoryAccess } from "./access";

/**
 * What a member may read (decision 0054), from their records: the tiers of their subscriptions in a
 * paid status (Ghost's rule: active, trialing, past_due, unpaid) and of a complimentary plan that has
 * not ended. One home for the rule: the access cookie, /account, the admin's lists and the newsletter's
 * two variants all ask here (or use `paidMembersWhere` for many at once).
 */
export async function paidTiersOf(db: Db, memberId: string, now = new Date()): Promise<string[]> {
  const [row] = await db
    .select({ compTierId: subscribers.compTierId, compUntil: subscribers.compUntil })
    .from(subscribers)
    .where(eq(subscribers.id, memberId));
  if (!row) return [];
  const subscriptions = await db
    .select({ tierId: memberSubscriptions.tierId })
    .from(memberSubscriptions)
    .where(and(eq(memberSubscriptions.memberId, memberId), inArray(memberSubscriptions.status, [...PAID_STATUSES]), isNotNull(memberSubscriptions.tierId)));
  const tiers = new Set(subscriptions.map((s) => s.tierId!));
  if (row.compTierId && (!row.compUntil || row.compUntil > now)) tiers.add(row.compTierId);
  return [...tiers].sort();
}

/** SQL: whether the subscriber row `subscribers` is a paid (or complimentary) member now. */
export function isPaidMemberSql(now = new Date()) {
  return or(
    and(isNotNull(subscribers.compTierId), or(isNull(subscribers.compUntil), gt(subscribers.compUntil, now))),
    sql`exists (select 1 from ${memberSubscriptions} where ${memberSubscriptions.memberId} = ${subscribers.id} and ${memberSubscriptions.status} in ${[...PAID_STATUSES]} and ${memberSubscriptions.tierId} is not null)`,
  )!;
}

/**
 * Records that what a member may read changed (a subscription event, a comp given or taken, sign-out
 * everywhere): their access cookies issued before now are renewed at their next request, in every
 * process (the change notice of `subscribers` tells them).
 */
export async function noteAccessChanged(db: Pick<Db, "update" | "execute">, memberId: string, now = new Date()) {
  await db.update(subscribers).set({ accessChangedAt: now, updatedAt: now }).where(eq(subscribers.id, memberId));
  // Heard by every process (at commit, when inside a transaction): server/reader-access.ts renews the member's pass.
  await db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${signalPayload(memberAccessSignal(memberId, now.getTime()))})`);
}

/** The change feed's signal that a member's access changed at `at` (ms): `member-access <id> <ms>`. */
export function memberAccessSignal(memberId: string, at: number): string {
  return `member-access ${memberId} ${at}`;
}

export function parseMemberAccessSignal(name: string): { memberId: string; at: number } | null {
  const match = /^member-access ([0-9a-f-]{36}) (\d+)$/.exec(name);
  return match ? { memberId: match[1]!, at: Number(match[2]) } : null;
}

/** Adds a line to a member's timeline (the member page). */
export async function addMemberEvent(db: Pick<Db, "insert">, memberId: string, kind: string, detail: Record<string, unknown> = {}, now = new Date()) {
  await db.insert(memberEvents).values({ memberId, kind, detail, createdAt: now });
}

/**
 * SQL text, for a raw statement (the newsletter's claim, which picks each recipient's variant as it
 * claims them): whether the member whose id is the expression `member` has paid access now to the tier
 * the expression `tier` names (a uuid; null: any paid tier). The rule of `paidTiersOf`, written once
 * more in SQL because that statement cannot call it (newsletter-variants.server.test.ts holds the two
 * to the same answers: paid, trialing, past_due, unpaid, complimentary, canceled, ended comp, other tier).
 */
export function paidAccessSqlText(member: string, tier: string): string {
  const statuses = PAID_STATUSES.map((status) => `'${status}'`).join(", ");
  return `(exists (select 1 from subscribers pm where pm.id = ${member} and pm.comp_tier_id is not null
      and (pm.comp_until is null or pm.comp_until > now()) and (${tier} is null or pm.comp_tier_id = ${tier}))
    or exists (select 1 from member_subscriptions ps where ps.member_id = ${member} and ps.status in (${statuses})
      and ps.tier_id is not null and (${tier} is null or ps.tier_id = ${tier})))`;
}

/** A story's access as stored (public when the story does not exist: nothing of it is shown then anyway). */
export async function storyAccessOf(db: Pick<Db, "select">, articleId: string): Promise<StoryAccess> {
  const [row] = await db.select({ level: articles.access, tierId: articles.accessTierId }).from(articles).where(eq(articles.id, articleId)).limit(1);
  if (!row || row.level === "public") return PUBLIC_STORY;
  return { level: row.level, tierId: row.level === "paid" ? row.tierId : null };
}
