import { and, asc, count, desc, eq, gte, ilike, inArray, not, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { memberEvents, memberSubscriptions, memberTiers, newsletters, subscribers, subscriptions } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { recordActivity } from "~/domain/activity/activity.server";
import { checkCapability } from "~/domain/articles/article-access.server";
import { erasePerson } from "~/domain/newsletters/subscribers-admin.server";
import { AppError } from "~/lib/app-error";
import { fromDateTimeLocal } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { PAID_STATUSES } from "./access";
import type { Billing } from "./billing.server";
import { addMemberEvent, isPaidMemberSql, noteAccessChanged } from "./members.server";
import {
  COMP_END_IN_PAST,
  MEMBERS_PAGE_SIZE,
  NEWSLETTER_NONE,
  NEWSLETTER_UNSUBSCRIBED,
  RECENTLY_DAYS,
  TIER_ANY_PAID,
  TIER_FREE,
  type MemberFilter,
  type MemberStatus,
} from "./members-admin.schema";

// The newsroom's side of members (issue 40): /admin/members' list and filters, a member's page (their
// subscriptions and timeline), complimentary plans, the admin's erasure and the CSV export. The person
// is the subscriber row (decision 0054); the newsletter side stays in app/domain/newsletters.

export const MEMBER_GONE = "This member no longer exists.";
const MANAGE_REFUSED = "Only admins may give complimentary plans, send sign-in links, import, export or delete members.";
const DAY_MS = 24 * 60 * 60 * 1000;

const ACTIVE_STATUSES = ["active", "trialing"] as const;
const OVERDUE_STATUSES = ["past_due", "unpaid"] as const;

// Drizzle writes a column bare ("id") in a select list, where a subquery would read it as its own
// table's: the subqueries below name the outer row's columns in full, and their own tables by alias.
const S = { id: sql.raw(`"subscribers"."id"`), compTierId: sql.raw(`"subscribers"."comp_tier_id"`), compUntil: sql.raw(`"subscribers"."comp_until"`) };

const hasSubscriptionSql = (statuses: readonly string[], extra?: SQL) =>
  sql`exists (select 1 from ${memberSubscriptions} ms where ms.member_id = ${S.id} and ms.status in ${[...statuses]}${extra ? sql` and ${extra}` : sql``})`;

const compNowSql = (now: Date) => sql`(${S.compTierId} is not null and (${S.compUntil} is null or ${S.compUntil} > ${now}))`;

const canceledRecentlySql = (now: Date) =>
  sql`exists (select 1 from ${memberSubscriptions} ms where ms.member_id = ${S.id} and ms.status = 'canceled' and coalesce(ms.ended_at, ms.updated_at) >= ${new Date(now.getTime() - RECENTLY_DAYS * DAY_MS)})`;

/** One status per member, the strongest first: paid, past due, complimentary, canceled recently, free. */
const memberStatusSql = (now: Date) =>
  sql<MemberStatus>`case when ${hasSubscriptionSql(ACTIVE_STATUSES)} then 'paid' when ${hasSubscriptionSql(OVERDUE_STATUSES)} then 'past_due' when ${compNowSql(now)} then 'comp' when ${canceledRecentlySql(now)} then 'canceled' else 'free' end`;

function statusWhere(status: MemberStatus, now: Date): SQL {
  switch (status) {
    case "paid":
      return hasSubscriptionSql(ACTIVE_STATUSES);
    case "past_due":
      return hasSubscriptionSql(OVERDUE_STATUSES);
    case "comp":
      return compNowSql(now);
    case "canceled":
      return and(canceledRecentlySql(now), not(isPaidMemberSql(now)))!;
    case "free":
      return not(isPaidMemberSql(now));
  }
}

/** The start of a day (YYYY-MM-DD) on the site's wall clock, and the start of the day after it. */
const dayStart = (day: string, timeZone: string) => fromDateTimeLocal(`${day}T00:00`, timeZone);
const dayAfter = (day: string, timeZone: string) => {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  return fromDateTimeLocal(`${next}T00:00`, timeZone);
};

function memberWhere(filter: Partial<MemberFilter>, timeZone: string, now: Date): SQL | undefined {
  const search = filter.search?.trim();
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const tier = filter.tier;
  const newsletter = filter.newsletter;
  const from = filter.from ? dayStart(filter.from, timeZone) : null;
  const to = filter.to ? dayAfter(filter.to, timeZone) : null;
  return and(
    pattern ? or(ilike(subscribers.email, pattern), ilike(subscribers.name, pattern)) : undefined,
    filter.status ? statusWhere(filter.status, now) : undefined,
    tier === TIER_FREE
      ? not(isPaidMemberSql(now))
      : tier === TIER_ANY_PAID
        ? isPaidMemberSql(now)
        : tier && isUuid(tier)
          ? or(hasSubscriptionSql(PAID_STATUSES, sql`ms.tier_id = ${tier}`), and(compNowSql(now), eq(subscribers.compTierId, tier)))
          : undefined,
    newsletter === NEWSLETTER_NONE
      ? sql`not exists (select 1 from ${subscriptions} s where s.subscriber_id = ${S.id})`
      : newsletter === NEWSLETTER_UNSUBSCRIBED
        ? inArray(subscribers.status, ["unsubscribed", "bounced", "complained"])
        : newsletter && isUuid(newsletter)
          ? sql`exists (select 1 from ${subscriptions} s where s.subscriber_id = ${S.id} and s.newsletter_id = ${newsletter})`
          : undefined,
    filter.state ? eq(subscribers.status, filter.state as (typeof subscribers.status.enumValues)[number]) : undefined,
    from ? gte(subscribers.createdAt, from) : undefined,
    to ? sql`${subscribers.createdAt} < ${to}` : undefined,
  );
}

const newsletterNamesSql = sql<
  string[]
>`coalesce((select array_agg(n.name order by n.position, n.created_at) from ${subscriptions} s join ${newsletters} n on n.id = s.newsletter_id where s.subscriber_id = ${S.id}), '{}')`;

/** The tiers a member reads now (paid subscriptions, and a complimentary plan that lasts), by name. */
const tierNamesSql = (now: Date) =>
  sql<string[]>`coalesce((select array_agg(distinct t.name order by t.name) from ${memberTiers} t where t.id in (select ms.tier_id from ${memberSubscriptions} ms where ms.member_id = ${S.id} and ms.status in ${[...PAID_STATUSES]}) or (t.id = ${S.compTierId} and (${S.compUntil} is null or ${S.compUntil} > ${now}))), '{}')`;

/** What the member pays a month (paid subscriptions: monthly amounts, yearly / 12), in minor units. */
const monthlyAmountSql = sql<number>`coalesce((select sum(case when ms.cadence = 'year' then ms.amount / 12.0 else ms.amount end) from ${memberSubscriptions} ms where ms.member_id = ${S.id} and ms.status in ${[...PAID_STATUSES]}), 0)::float8`;

export interface AdminMemberRow {
  id: string;
  email: string;
  name: string | null;
  memberStatus: MemberStatus;
  tiers: string[];
  newsletters: string[];
  /** The newsletter state of the record (pending, active, unsubscribed…). */
  emailState: string;
  createdAt: Date;
  /** Minor units a month: only when asked with `billing` (editors never receive it). */
  monthlyAmount?: number;
}

/** One page of members, newest first, searched by address and name, narrowed by the filters. */
export async function listMembers(
  db: Db,
  filter: Partial<MemberFilter>,
  page: number,
  options: { billing: boolean; timeZone: string; now?: Date },
): Promise<{ rows: AdminMemberRow[]; total: number }> {
  const now = options.now ?? new Date();
  const where = memberWhere(filter, options.timeZone, now);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({
        id: subscribers.id,
        email: subscribers.email,
        name: subscribers.name,
        memberStatus: memberStatusSql(now),
        tiers: tierNamesSql(now),
        newsletters: newsletterNamesSql,
        emailState: subscribers.status,
        createdAt: subscribers.createdAt,
        ...(options.billing ? { monthlyAmount: monthlyAmountSql } : {}),
      })
      .from(subscribers)
      .where(where)
      .orderBy(desc(subscribers.createdAt), asc(subscribers.email))
      .limit(MEMBERS_PAGE_SIZE)
      .offset((page - 1) * MEMBERS_PAGE_SIZE),
    db.select({ total: count() }).from(subscribers).where(where),
  ]);
  return { rows: rows.map((r) => ({ ...r, ...("monthlyAmount" in r ? { monthlyAmount: Math.round(Number(r.monthlyAmount)) } : {}) })) as AdminMemberRow[], total: Number(totalRow?.total ?? 0) };
}

/** Every paid tier for the filters and the comp form, in their order (archived ones marked: they keep their members). */
export async function listTierChoices(db: Db): Promise<{ id: string; name: string; archived: boolean }[]> {
  const rows = await db
    .select({ id: memberTiers.id, name: memberTiers.name, archivedAt: memberTiers.archivedAt })
    .from(memberTiers)
    .orderBy(asc(memberTiers.position), asc(memberTiers.createdAt));
  return rows.map((r) => ({ id: r.id, name: r.name, archived: r.archivedAt !== null }));
}

// ---------------------------------------------------------------- a member's page

export interface AdminSubscriptionView {
  id: string;
  tierName: string | null;
  status: string;
  cadence: "month" | "year";
  /** Per period, minor units; only with `billing`. */
  amount?: number;
  currency?: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  startedAt: Date;
  endedAt: Date | null;
}

export interface TimelineEntry {
  at: Date;
  kind: string;
  detail: Record<string, unknown>;
}

export interface AdminMemberView {
  id: string;
  email: string;
  name: string | null;
  emailState: string;
  emailVerified: boolean;
  createdAt: Date;
  memberStatus: MemberStatus;
  newsletters: string[];
  tiers: string[];
  comp: { tierId: string; tierName: string; until: Date | null; active: boolean } | null;
  hasStripeCustomer: boolean;
  subscriptions: AdminSubscriptionView[];
  /** The member's events and their subscriptions' starts and ends, newest first. */
  timeline: TimelineEntry[];
}

/** A member as their page shows them; amounts only with `billing`. Null when there is no such member. */
export async function getMemberForAdmin(db: Db, id: string, options: { billing: boolean; now?: Date }): Promise<AdminMemberView | null> {
  if (!isUuid(id)) return null;
  const now = options.now ?? new Date();
  const [row] = await db
    .select({
      id: subscribers.id,
      email: subscribers.email,
      name: subscribers.name,
      emailState: subscribers.status,
      emailVerified: subscribers.emailVerified,
      createdAt: subscribers.createdAt,
      memberStatus: memberStatusSql(now),
      newsletters: newsletterNamesSql,
      tiers: tierNamesSql(now),
      compTierId: subscribers.compTierId,
      compUntil: subscribers.compUntil,
      compTierName: sql<string | null>`(select t.name from ${memberTiers} t where t.id = ${S.compTierId})`,
      stripeCustomerId: subscribers.stripeCustomerId,
    })
    .from(subscribers)
    .where(eq(subscribers.id, id));
  if (!row) return null;
  const [subs, events] = await Promise.all([
    db
      .select({ sub: memberSubscriptions, tierName: memberTiers.name })
      .from(memberSubscriptions)
      .leftJoin(memberTiers, eq(memberTiers.id, memberSubscriptions.tierId))
      .where(eq(memberSubscriptions.memberId, id))
      .orderBy(desc(memberSubscriptions.startedAt)),
    db.select().from(memberEvents).where(eq(memberEvents.memberId, id)).orderBy(desc(memberEvents.createdAt)).limit(200),
  ]);
  const timeline: TimelineEntry[] = [
    { at: row.createdAt, kind: "signed_up", detail: {} },
    ...events.map((e) => ({ at: e.createdAt, kind: e.kind, detail: e.detail })),
  ];
  for (const { sub, tierName } of subs) {
    timeline.push({ at: sub.startedAt, kind: "subscription_started", detail: { tier: tierName, cadence: sub.cadence } });
    if (sub.endedAt) timeline.push({ at: sub.endedAt, kind: "subscription_ended", detail: { tier: tierName } });
  }
  timeline.sort((a, b) => b.at.getTime() - a.at.getTime());
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    emailState: row.emailState,
    emailVerified: row.emailVerified,
    createdAt: row.createdAt,
    memberStatus: row.memberStatus,
    newsletters: row.newsletters,
    tiers: row.tiers,
    comp: row.compTierId
      ? { tierId: row.compTierId, tierName: row.compTierName ?? "a deleted tier", until: row.compUntil, active: !row.compUntil || row.compUntil > now }
      : null,
    hasStripeCustomer: row.stripeCustomerId !== null,
    subscriptions: subs.map(({ sub, tierName }) => ({
      id: sub.id,
      tierName,
      status: sub.status,
      cadence: sub.cadence,
      ...(options.billing ? { amount: sub.amount, currency: sub.currency } : {}),
      currentPeriodEnd: sub.currentPeriodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      startedAt: sub.startedAt,
      endedAt: sub.endedAt,
    })),
    timeline,
  };
}

// ---------------------------------------------------------------- complimentary plans

async function lockedMember(tx: Pick<Db, "select">, id: string) {
  if (!isUuid(id)) throw new AppError("not_found", MEMBER_GONE);
  const [row] = await tx
    .select({ id: subscribers.id, email: subscribers.email, compTierId: subscribers.compTierId, compUntil: subscribers.compUntil })
    .from(subscribers)
    .where(eq(subscribers.id, id))
    .for("update");
  if (!row) throw new AppError("not_found", MEMBER_GONE);
  return row;
}

/**
 * Gives a member a complimentary plan of a paid tier (admins): until the end of `until` on the site's
 * wall clock, or with no end. Replaces a plan they had. Their access changes at once (noteAccessChanged),
 * their timeline and the activity log say so, in one transaction.
 */
export async function grantComp(
  db: Db,
  actor: Actor,
  memberId: string,
  input: { tierId: string; until: string | null },
  options: { timeZone: string; now?: Date },
): Promise<{ tierName: string; until: Date | null }> {
  checkCapability(actor, "members.manage", MANAGE_REFUSED);
  const now = options.now ?? new Date();
  const until = input.until ? fromDateTimeLocal(`${input.until}T23:59:59`, options.timeZone) : null;
  if (input.until && !until) throw new AppError("invalid_input", "Enter the end date as a date (YYYY-MM-DD).", { field: "until" });
  if (until && until <= now) throw new AppError("invalid_input", COMP_END_IN_PAST, { field: "until" });
  return db.transaction(async (tx) => {
    const member = await lockedMember(tx, memberId);
    const [tier] = isUuid(input.tierId)
      ? await tx.select({ id: memberTiers.id, name: memberTiers.name, archivedAt: memberTiers.archivedAt }).from(memberTiers).where(eq(memberTiers.id, input.tierId))
      : [];
    if (!tier) throw new AppError("invalid_input", "This tier no longer exists: choose another.", { field: "tierId" });
    if (tier.archivedAt) throw new AppError("invalid_input", "This tier is archived: choose a tier readers can still join.", { field: "tierId" });
    await tx.update(subscribers).set({ compTierId: tier.id, compUntil: until, updatedAt: now }).where(eq(subscribers.id, member.id));
    await noteAccessChanged(tx, member.id, now);
    const detail = { tierId: tier.id, tier: tier.name, until: until?.toISOString() ?? null };
    await addMemberEvent(tx, member.id, "comp_granted", detail, now);
    await recordActivity(tx, actor, { kind: "member.comp_grant", objectType: "member", objectId: member.id, objectLabel: member.email, details: detail });
    return { tierName: tier.name, until };
  });
}

/** Takes a complimentary plan back (admins): the member reads as their subscriptions allow, at once. */
export async function takeBackComp(db: Db, actor: Actor, memberId: string, now = new Date()): Promise<void> {
  checkCapability(actor, "members.manage", MANAGE_REFUSED);
  await db.transaction(async (tx) => {
    const member = await lockedMember(tx, memberId);
    if (!member.compTierId) throw new AppError("invalid_input", "This member has no complimentary plan.");
    const [tier] = await tx.select({ name: memberTiers.name }).from(memberTiers).where(eq(memberTiers.id, member.compTierId));
    await tx.update(subscribers).set({ compTierId: null, compUntil: null, updatedAt: now }).where(eq(subscribers.id, member.id));
    await noteAccessChanged(tx, member.id, now);
    const detail = { tierId: member.compTierId, tier: tier?.name ?? null };
    await addMemberEvent(tx, member.id, "comp_removed", detail, now);
    await recordActivity(tx, actor, { kind: "member.comp_remove", objectType: "member", objectId: member.id, objectLabel: member.email, details: detail });
  });
}

// ---------------------------------------------------------------- sign-in link, erasure

/**
 * Sends a member a new sign-in link (admins) through `send` (the members' Better Auth instance: the
 * route passes it), then notes it on their timeline and in the activity log.
 */
export async function resendSignInLink(db: Db, actor: Actor, memberId: string, send: (email: string) => Promise<void>): Promise<string> {
  checkCapability(actor, "members.manage", MANAGE_REFUSED);
  if (!isUuid(memberId)) throw new AppError("not_found", MEMBER_GONE);
  const [member] = await db.select({ id: subscribers.id, email: subscribers.email }).from(subscribers).where(eq(subscribers.id, memberId));
  if (!member) throw new AppError("not_found", MEMBER_GONE);
  await send(member.email);
  await db.transaction(async (tx) => {
    await addMemberEvent(tx, member.id, "sign_in_link_sent", { by: actor.name });
    await recordActivity(tx, actor, { kind: "member.sign_in_link", objectType: "member", objectId: member.id, objectLabel: member.email });
  });
  return member.email;
}

/**
 * Erases a member at an admin's hand (GDPR): their Stripe subscriptions are canceled first (when the
 * site takes payments; a failure there stops the erasure, so no one keeps paying for a deleted
 * account), then the person goes as a subscriber's erasure does (erasePerson: a hash remains, payment
 * records stay without them). Logged without the address.
 */
export async function deleteMember(db: Db, billing: Pick<Billing, "cancelAll"> | null, actor: Actor, memberId: string): Promise<void> {
  checkCapability(actor, "members.manage", MANAGE_REFUSED);
  if (!isUuid(memberId)) throw new AppError("not_found", MEMBER_GONE);
  const [member] = await db.select({ id: subscribers.id }).from(subscribers).where(eq(subscribers.id, memberId));
  if (!member) throw new AppError("not_found", MEMBER_GONE);
  await billing?.cancelAll(memberId);
  await db.transaction(async (tx) => {
    const hash = await erasePerson(tx, memberId);
    await recordActivity(tx, actor, { kind: "member.delete", objectType: "member", objectId: memberId, objectLabel: "a member", details: { emailHash: hash } });
  });
}

// ---------------------------------------------------------------- export

export interface MemberExportRow {
  email: string;
  name: string | null;
  memberStatus: MemberStatus;
  tiers: string[];
  compTier: string | null;
  compUntil: Date | null;
  /** The newsletters' slugs. */
  newsletters: string[];
  emailState: string;
  createdAt: Date;
}

/** Every member narrowed like the list, oldest first: the export's rows (admins). Logged as members.export. */
export async function exportMembers(db: Db, actor: Actor, filter: Partial<MemberFilter>, options: { timeZone: string; now?: Date }): Promise<MemberExportRow[]> {
  checkCapability(actor, "members.manage", MANAGE_REFUSED);
  const now = options.now ?? new Date();
  const rows = (await db
    .select({
      email: subscribers.email,
      name: subscribers.name,
      memberStatus: memberStatusSql(now),
      tiers: tierNamesSql(now),
      compTier: sql<string | null>`(select t.name from ${memberTiers} t where t.id = ${S.compTierId})`,
      compUntil: subscribers.compUntil,
      newsletters: sql<
        string[]
      >`coalesce((select array_agg(n.slug order by n.position, n.created_at) from ${subscriptions} s join ${newsletters} n on n.id = s.newsletter_id where s.subscriber_id = ${S.id}), '{}')`,
      emailState: subscribers.status,
      createdAt: subscribers.createdAt,
    })
    .from(subscribers)
    .where(memberWhere(filter, options.timeZone, now))
    .orderBy(asc(subscribers.createdAt), asc(subscribers.email))) as MemberExportRow[];
  const narrowed = Object.fromEntries(Object.entries(filter).filter(([, v]) => v));
  await recordActivity(db, actor, {
    kind: "members.export",
    objectType: "member",
    objectLabel: rows.length === 1 ? "1 member" : `${rows.length} members`,
    details: { count: rows.length, ...narrowed },
  });
  return rows;
}
