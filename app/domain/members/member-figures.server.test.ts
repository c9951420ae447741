import { beforeAll, describe, expect, it } from "vitest";
import { memberSubscriptions, memberTiers, subscribers } from "~/db/schema";
import { newTokenKey } from "~/domain/newsletters/subscriber-tokens.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { canceledSubscriptionsLast30Days, memberCount, monthlyRecurringRevenue, newMembersLast30Days, paidMemberCount } from "./member-figures.server";

let t: TestDatabase;
const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
let n = 0;

async function person(values: Partial<typeof subscribers.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(subscribers)
    .values({ email: `figure-${++n}@example.com`, tokenKey: newTokenKey(), status: "active", ...values })
    .returning({ id: subscribers.id });
  return row!.id;
}

async function subscribed(memberId: string | null, values: Partial<typeof memberSubscriptions.$inferInsert>) {
  await t.db.insert(memberSubscriptions).values({
    memberId,
    stripeSubscriptionId: `sub_fig_${++n}`,
    stripeCustomerId: `cus_fig_${n}`,
    status: "active",
    cadence: "month",
    amount: 500,
    currency: "usd",
    startedAt: new Date(now.getTime() - 100 * DAY),
    ...values,
  });
}

beforeAll(async () => {
  t = await createTestDatabase();
  const [tier] = await t.db.insert(memberTiers).values({ name: "Supporter", slug: "supporter", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" }).returning();
  const old = new Date(now.getTime() - 90 * DAY);
  // A monthly payer (5.00), a yearly one (60.00 a year: 5.00 a month), a past-due one (still counted), a
  // trialing one in another currency (not added), a canceled one (not counted), a comp, two free members.
  await subscribed(await person({ createdAt: old }), { tierId: tier!.id, amount: 500, cadence: "month" });
  await subscribed(await person({ createdAt: old }), { tierId: tier!.id, amount: 6000, cadence: "year" });
  await subscribed(await person({ createdAt: old }), { tierId: tier!.id, amount: 700, cadence: "month", status: "past_due" });
  await subscribed(await person({ createdAt: old }), { tierId: tier!.id, amount: 900, cadence: "month", status: "trialing", currency: "eur" });
  await subscribed(await person({ createdAt: old }), { tierId: tier!.id, amount: 1000, cadence: "month", status: "canceled", endedAt: new Date(now.getTime() - 3 * DAY) });
  // A subscription canceled long ago, and one of an erased member (its payment record kept without them).
  await subscribed(await person({ createdAt: old }), { tierId: tier!.id, status: "canceled", endedAt: new Date(now.getTime() - 45 * DAY) });
  await subscribed(null, { tierId: tier!.id, status: "canceled", endedAt: new Date(now.getTime() - 10 * DAY) });
  await person({ compTierId: tier!.id, createdAt: old });
  await person({ createdAt: new Date(now.getTime() - 2 * DAY) });
  await person({ createdAt: new Date(now.getTime() - 29 * DAY), status: "pending" });
});

describe("the members' figures", () => {
  it("monthly recurring revenue: monthly amounts plus yearly ones / 12 of paid-status subscriptions in the site's currency; canceled ones not counted", async () => {
    // 500 + 6000 / 12 + 700 (past due) = 1700 cents.
    expect(await monthlyRecurringRevenue(t.db, "usd")).toBe(1700);
    expect(await monthlyRecurringRevenue(t.db, "USD")).toBe(1700);
    expect(await monthlyRecurringRevenue(t.db, "eur")).toBe(900);
  });

  it("members, paid members (paying or complimentary), new members and canceled subscriptions in the last 30 days", async () => {
    const existing = (await createTestDatabase()).db;
    const base = await memberCount(existing);
    expect(await memberCount(t.db)).toBe(base + 9);
    expect(await paidMemberCount(t.db)).toBe(5);
    expect(await newMembersLast30Days(t.db, now)).toBe((await newMembersLast30Days(existing, now)) + 2);
    expect(await canceledSubscriptionsLast30Days(t.db, now)).toBe(2);
  });
});
