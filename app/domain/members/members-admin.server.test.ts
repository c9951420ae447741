import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents, memberEvents, memberSubscriptions, memberTiers, newsletters, subscriberTombstones, subscribers, subscriptions } from "~/db/schema";
import type { Actor } from "~/domain/accounts/actor";
import { newTokenKey } from "~/domain/newsletters/subscriber-tokens.server";
import { importSubscribers } from "~/domain/newsletters/subscribers-admin.server";
import { parseSubscribersCsv } from "~/domain/newsletters/subscribers-csv.server";
import { emailHash } from "~/domain/newsletters/subscribers.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { refusal } from "../../../tests/setup/refusal";
import { membersToCsv } from "./members-csv.server";
import { deleteMember, exportMembers, getMemberForAdmin, grantComp, listMembers, resendSignInLink, takeBackComp } from "./members-admin.server";
import { COMP_END_IN_PAST } from "./members-admin.schema";
import { paidTiersOf } from "./members.server";

let t: TestDatabase;
const admin: Actor = { id: null, name: "Ad Min", role: "admin" };
const editor: Actor = { id: null, name: "Ed Itor", role: "editor" };
const author: Actor = { id: null, name: "Au Thor", role: "author" };
const TZ = "America/New_York";
const DAY = 24 * 60 * 60 * 1000;
const now = new Date();

let supporter: string;
let patron: string;
let archived: string;
let storiesId: string;
let storiesName: string;
const ids: Record<string, string> = {};

async function member(key: string, values: Partial<typeof subscribers.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(subscribers)
    .values({ email: `${key}@members.test`, tokenKey: newTokenKey(), status: "active", ...values })
    .returning({ id: subscribers.id });
  ids[key] = row!.id;
  return row!.id;
}

let subscriptionNumber = 0;
async function subscription(memberId: string, values: Partial<typeof memberSubscriptions.$inferInsert>) {
  subscriptionNumber++;
  await t.db.insert(memberSubscriptions).values({
    memberId,
    stripeSubscriptionId: `sub_test_${subscriptionNumber}`,
    stripeCustomerId: `cus_test_${subscriptionNumber}`,
    tierId: supporter,
    status: "active",
    cadence: "month",
    amount: 500,
    currency: "usd",
    startedAt: new Date(now.getTime() - 90 * DAY),
    currentPeriodEnd: new Date(now.getTime() + 20 * DAY),
    ...values,
  });
}

const emails = (rows: { email: string }[]) => rows.map((r) => r.email.replace("@members.test", "")).sort();
const list = async (filter: Parameters<typeof listMembers>[1], billing = false) => (await listMembers(t.db, filter, 1, { billing, timeZone: TZ, now })).rows;

beforeAll(async () => {
  t = await createTestDatabase();
  const tiers = await t.db
    .insert(memberTiers)
    .values([
      { name: "Supporter", slug: "supporter", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd", position: 1 },
      { name: "Patron", slug: "patron", monthlyPrice: 2000, yearlyPrice: 20000, currency: "usd", position: 2 },
      { name: "Old", slug: "old", monthlyPrice: 100, yearlyPrice: 1000, currency: "usd", position: 0, archivedAt: now },
    ])
    .returning();
  [supporter, patron, archived] = tiers.map((r) => r.id) as [string, string, string];
  const [stories] = await t.db.select().from(newsletters).where(eq(newsletters.slug, "stories"));
  storiesId = stories!.id;
  storiesName = stories!.name;

  await member("free-reader", { name: "Frida Free", createdAt: new Date("2026-01-10T15:00:00Z") });
  await t.db.insert(subscriptions).values({ subscriberId: ids["free-reader"]!, newsletterId: storiesId });
  await member("payer", { name: "Paula Payer", createdAt: new Date("2026-03-05T15:00:00Z") });
  await subscription(ids.payer!, { status: "active", cadence: "month", amount: 500 });
  await member("yearly", { createdAt: new Date("2026-03-20T15:00:00Z") });
  await subscription(ids.yearly!, { status: "trialing", cadence: "year", amount: 6000, tierId: patron });
  await member("overdue");
  await subscription(ids.overdue!, { status: "past_due" });
  await member("comped", { compTierId: patron });
  await member("comp-ended", { compTierId: supporter, compUntil: new Date(now.getTime() - DAY) });
  await member("left");
  await subscription(ids.left!, { status: "canceled", endedAt: new Date(now.getTime() - 5 * DAY) });
  await member("left-long-ago");
  await subscription(ids["left-long-ago"]!, { status: "canceled", endedAt: new Date(now.getTime() - 60 * DAY) });
  await member("quit", { status: "unsubscribed" });
});

describe("the members list", () => {
  it("says each member's status, the strongest first, and their tiers", async () => {
    const rows = await list({ search: "members.test" });
    const by = Object.fromEntries(rows.map((r) => [r.email.replace("@members.test", ""), r]));
    expect(by.payer).toMatchObject({ memberStatus: "paid", tiers: ["Supporter"] });
    expect(by.yearly).toMatchObject({ memberStatus: "paid", tiers: ["Patron"] });
    expect(by.overdue).toMatchObject({ memberStatus: "past_due", tiers: ["Supporter"] });
    expect(by.comped).toMatchObject({ memberStatus: "comp", tiers: ["Patron"] });
    expect(by["comp-ended"]).toMatchObject({ memberStatus: "free", tiers: [] });
    expect(by.left).toMatchObject({ memberStatus: "canceled", tiers: [] });
    expect(by["left-long-ago"]).toMatchObject({ memberStatus: "free" });
    expect(by["free-reader"]).toMatchObject({ memberStatus: "free", newsletters: [storiesName], name: "Frida Free" });
  });

  it("filters by status: free, paid, complimentary, past due, canceled recently", async () => {
    expect(emails(await list({ status: "paid" }))).toEqual(["payer", "yearly"]);
    expect(emails(await list({ status: "past_due" }))).toEqual(["overdue"]);
    expect(emails(await list({ status: "comp" }))).toEqual(["comped"]);
    expect(emails(await list({ status: "canceled" }))).toEqual(["left"]);
    expect(emails(await list({ status: "free", search: "members.test" }))).toEqual(["comp-ended", "free-reader", "left", "left-long-ago", "quit"]);
  });

  it("filters by tier: free, any paid tier, one tier (paid or complimentary in it)", async () => {
    expect(emails(await list({ tier: "paid" }))).toEqual(["comped", "overdue", "payer", "yearly"]);
    expect(emails(await list({ tier: patron }))).toEqual(["comped", "yearly"]);
    expect(emails(await list({ tier: supporter }))).toEqual(["overdue", "payer"]);
    expect(emails(await list({ tier: "free", search: "members.test" }))).toHaveLength(5);
  });

  it("filters by newsletter (one, none, unsubscribed), by name or address, and by sign-up days in the site's time zone", async () => {
    expect(emails(await list({ newsletter: storiesId, search: "members.test" }))).toEqual(["free-reader"]);
    expect(emails(await list({ newsletter: "unsubscribed", search: "members.test" }))).toEqual(["quit"]);
    expect(await list({ newsletter: "none", search: "members.test" })).toHaveLength(8);
    expect(emails(await list({ search: "paula" }))).toEqual(["payer"]);
    expect(emails(await list({ from: "2026-03-01", to: "2026-03-20", search: "members.test" }))).toEqual(["payer", "yearly"]);
    expect(emails(await list({ from: "2026-03-06", search: "members.test" })).includes("payer")).toBe(false);
    expect(emails(await list({ to: "2026-01-10", search: "members.test" }))).toEqual(["free-reader"]);
  });

  it("carries what a member pays a month only when asked with billing (editors never receive it)", async () => {
    const [withoutBilling] = await list({ search: "yearly@" });
    expect(withoutBilling).not.toHaveProperty("monthlyAmount");
    const [withBilling] = await list({ search: "yearly@" }, true);
    expect(withBilling!.monthlyAmount).toBe(500);
    const member = await getMemberForAdmin(t.db, ids.payer!, { billing: false });
    expect(member!.subscriptions[0]).not.toHaveProperty("amount");
    expect((await getMemberForAdmin(t.db, ids.payer!, { billing: true }))!.subscriptions[0]).toMatchObject({ amount: 500, currency: "usd", status: "active" });
  });
});

describe("complimentary plans", () => {
  it("an admin gives one: the member reads the tier at once, their access cookie is renewed, the timeline and the activity log say so", async () => {
    const id = await member("gift");
    const [before] = await t.db.select({ at: subscribers.accessChangedAt }).from(subscribers).where(eq(subscribers.id, id));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await grantComp(t.db, admin, id, { tierId: supporter, until: null }, { timeZone: TZ });
    expect(await paidTiersOf(t.db, id)).toEqual([supporter]);
    const [after] = await t.db.select({ at: subscribers.accessChangedAt }).from(subscribers).where(eq(subscribers.id, id));
    expect(after!.at.getTime()).toBeGreaterThan(before!.at.getTime());
    const events = await t.db.select().from(memberEvents).where(eq(memberEvents.memberId, id));
    expect(events.map((e) => [e.kind, e.detail.tier])).toEqual([["comp_granted", "Supporter"]]);
    const logged = await t.db.select().from(auditEvents).where(eq(auditEvents.objectId, id));
    expect(logged.map((e) => [e.kind, e.actorName, e.objectLabel])).toEqual([["member.comp_grant", "Ad Min", "gift@members.test"]]);

    const view = await getMemberForAdmin(t.db, id, { billing: false });
    expect(view!.comp).toMatchObject({ tierName: "Supporter", until: null, active: true });
    expect(view!.timeline.map((e) => e.kind)).toEqual(["comp_granted", "signed_up"]);
  });

  it("with an end date: until the end of that day on the site's clock; a day already past is refused", async () => {
    const id = await member("gift-until");
    const day = new Date(now.getTime() + 10 * DAY).toISOString().slice(0, 10);
    const given = await grantComp(t.db, admin, id, { tierId: patron, until: day }, { timeZone: TZ });
    expect(given.until!.toISOString() > `${day}T23:59`).toBe(true);
    const past = await refusal(grantComp(t.db, admin, id, { tierId: patron, until: "2020-01-01" }, { timeZone: TZ }));
    expect([past.status, past.message, past.field]).toEqual([400, COMP_END_IN_PAST, "until"]);
    const gone = await refusal(grantComp(t.db, admin, id, { tierId: archived, until: null }, { timeZone: TZ }));
    expect(gone.message).toMatch(/archived/);
    const [row] = await t.db.select({ compTierId: subscribers.compTierId }).from(subscribers).where(eq(subscribers.id, id));
    expect(row!.compTierId).toBe(patron);
  });

  it("taken back: free again at once, access renewed, logged; taking back what is not there is refused", async () => {
    const id = await member("gift-back", { compTierId: patron });
    const [before] = await t.db.select({ at: subscribers.accessChangedAt }).from(subscribers).where(eq(subscribers.id, id));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await takeBackComp(t.db, admin, id);
    expect(await paidTiersOf(t.db, id)).toEqual([]);
    const [after] = await t.db.select({ at: subscribers.accessChangedAt, comp: subscribers.compTierId }).from(subscribers).where(eq(subscribers.id, id));
    expect(after!.comp).toBeNull();
    expect(after!.at.getTime()).toBeGreaterThan(before!.at.getTime());
    expect((await t.db.select().from(auditEvents).where(eq(auditEvents.objectId, id))).map((e) => e.kind)).toEqual(["member.comp_remove"]);
    expect((await refusal(takeBackComp(t.db, admin, id))).status).toBe(400);
  });

  it("editors and authors may neither give nor take back (403), and nothing changes", async () => {
    const id = await member("not-for-editors", { compTierId: patron });
    for (const actor of [editor, author]) {
      expect((await refusal(grantComp(t.db, actor, id, { tierId: supporter, until: null }, { timeZone: TZ }))).status).toBe(403);
      expect((await refusal(takeBackComp(t.db, actor, id))).status).toBe(403);
    }
    const [row] = await t.db.select({ compTierId: subscribers.compTierId }).from(subscribers).where(eq(subscribers.id, id));
    expect(row!.compTierId).toBe(patron);
  });
});

describe("sign-in link and erasure", () => {
  it("an admin resends a sign-in link to the member's address; an editor is refused before anything is sent", async () => {
    const id = await member("link");
    const send = vi.fn(async () => {});
    expect((await refusal(resendSignInLink(t.db, editor, id, send))).status).toBe(403);
    expect(send).not.toHaveBeenCalled();
    await resendSignInLink(t.db, admin, id, send);
    expect(send).toHaveBeenCalledWith("link@members.test");
    expect((await t.db.select().from(memberEvents).where(eq(memberEvents.memberId, id))).map((e) => e.kind)).toEqual(["sign_in_link_sent"]);
  });

  it("delete: Stripe first, then the person goes (a hash stays, payments stay without them), logged without the address", async () => {
    const id = await member("erase-me");
    await subscription(id, { status: "active" });
    const calls: string[] = [];
    const billing = {
      cancelAll: vi.fn(async (memberId: string) => {
        const [still] = await t.db.select({ id: subscribers.id }).from(subscribers).where(eq(subscribers.id, memberId));
        calls.push(still ? "canceled while the member existed" : "canceled after");
      }),
    };
    expect((await refusal(deleteMember(t.db, billing, editor, id))).status).toBe(403);
    expect(billing.cancelAll).not.toHaveBeenCalled();
    await deleteMember(t.db, billing, admin, id);
    expect(calls).toEqual(["canceled while the member existed"]);
    expect(await t.db.select().from(subscribers).where(eq(subscribers.id, id))).toEqual([]);
    expect(await t.db.select().from(subscriberTombstones).where(eq(subscriberTombstones.emailHash, emailHash("erase-me@members.test")))).toHaveLength(1);
    const kept = await t.db.select().from(memberSubscriptions).where(sql`${memberSubscriptions.memberId} is null`);
    expect(kept.length).toBeGreaterThanOrEqual(1);
    const logged = await t.db.select().from(auditEvents).where(eq(auditEvents.kind, "member.delete"));
    expect(JSON.stringify(logged)).not.toContain("erase-me@");
  });

  it("a Stripe failure stops the erasure: no one is erased while still paying", async () => {
    const id = await member("stripe-down");
    const billing = { cancelAll: vi.fn(async () => Promise.reject(new Error("Stripe is unreachable"))) };
    await expect(deleteMember(t.db, billing, admin, id)).rejects.toThrow("Stripe is unreachable");
    expect(await t.db.select().from(subscribers).where(eq(subscribers.id, id))).toHaveLength(1);
  });
});

describe("the members export", () => {
  it("admins export the filtered members with status, tier, comp, newsletters and sign-up; editors are refused", async () => {
    expect((await refusal(exportMembers(t.db, editor, {}, { timeZone: TZ }))).status).toBe(403);
    const rows = await exportMembers(t.db, admin, { tier: "paid", search: "members.test" }, { timeZone: TZ });
    expect(emails(rows)).toEqual(expect.arrayContaining(["comped", "overdue", "payer", "yearly"]));
    expect(rows.every((r) => r.memberStatus !== "free")).toBe(true);
    const csv = membersToCsv(rows);
    expect(csv.startsWith("email,name,status,tiers,comp_tier,comp_until,newsletters,email_state,signed_up_at\r\n")).toBe(true);
    expect(csv).toContain("comped@members.test,,comp,Patron,Patron,,,active,");
    const logged = await t.db.select().from(auditEvents).where(eq(auditEvents.kind, "members.export"));
    expect(logged.at(-1)!.details).toMatchObject({ tier: "paid" });
  });
});

describe("the members CSV import (Ghost and Substack exports)", () => {
  const run = (text: string, dryRun: boolean) => {
    const parsed = parseSubscribersCsv(text);
    return importSubscribers(t.db, admin, parsed.rows, { consent: true, fileProblems: parsed.problems, dryRun, activity: "members.import" });
  };
  const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(subscribers))[0]!.n;

  it("Ghost's members export: a dry run writes nothing; the import maps e-mail, comp (by tier name or the first paid tier) and the Stripe customer; a second run changes nothing", async () => {
    await t.db.insert(subscriberTombstones).values({ emailHash: emailHash("erased@ghost.test") });
    await member("ghost-existing", { email: "existing@ghost.test", name: null });
    const ghost = [
      "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers",
      "6401,free@ghost.test,Free Reader,,true,false,,2022-04-01T10:00:00.000Z,,,",
      "6402,quiet@ghost.test,Quiet Reader,,false,false,,2022-04-02T10:00:00.000Z,,,",
      "6403,vip@ghost.test,Vip Reader,a friend,true,true,,2022-04-03T10:00:00.000Z,,press,Patron",
      "6404,comp-any@ghost.test,,,true,true,,2022-04-04T10:00:00.000Z,,,",
      "6405,paying@ghost.test,Paying Reader,,true,false,cus_GhostPay1,2022-04-05T10:00:00.000Z,,,Supporter",
      "6406,erased@ghost.test,,,true,false,,2022-04-06T10:00:00.000Z,,,",
      "6407,deleted@ghost.test,,,true,false,,2022-04-07T10:00:00.000Z,2023-01-01T00:00:00.000Z,,",
      "6408,existing@ghost.test,Now Named,,true,false,,2022-04-08T10:00:00.000Z,,,",
      "6409,not-an-address,,,true,false,,,,,",
    ].join("\n");
    const before = await count();
    const dry = await run(ghost, true);
    expect(await count()).toBe(before);
    expect(dry).toMatchObject({ dryRun: true, added: 5, updated: 1, unchanged: 0 });
    expect(dry.skipped.map((s) => [s.email, s.reason])).toEqual([
      ["erased@ghost.test", "erased at their request"],
      ["deleted@ghost.test", "deleted on the old platform"],
    ]);
    expect(dry.problems.map((p) => p.line)).toEqual([10]);
    expect(dry.lines.find((l) => l.email === "vip@ghost.test")).toMatchObject({ action: "create", notes: expect.arrayContaining(["complimentary Patron", "its note and labels are not kept"]) });

    const applied = await run(ghost, false);
    expect(applied).toMatchObject({ dryRun: false, added: 5, updated: 1, unchanged: 0 });
    expect(await count()).toBe(before + 5);
    const rowOf = async (email: string) => (await t.db.select().from(subscribers).where(eq(subscribers.email, email)))[0]!;
    expect(await rowOf("vip@ghost.test")).toMatchObject({ compTierId: patron, compUntil: null, name: "Vip Reader", status: "active" });
    expect(await rowOf("comp-any@ghost.test")).toMatchObject({ compTierId: supporter });
    expect(await rowOf("paying@ghost.test")).toMatchObject({ stripeCustomerId: "cus_GhostPay1", compTierId: null });
    expect(await t.db.select().from(memberSubscriptions).where(eq(memberSubscriptions.stripeCustomerId, "cus_GhostPay1"))).toEqual([]);
    const quiet = await rowOf("quiet@ghost.test");
    expect(quiet.status).toBe("unsubscribed");
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, quiet.id))).toEqual([]);
    expect((await rowOf("free@ghost.test")).createdAt.toISOString()).toBe("2022-04-01T10:00:00.000Z");
    expect(await rowOf("existing@ghost.test")).toMatchObject({ name: "Now Named" });
    expect((await t.db.select().from(auditEvents).where(eq(auditEvents.kind, "members.import"))).length).toBe(1);

    const again = await run(ghost, false);
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 6 });
    expect(await count()).toBe(before + 5);
  });

  it("Substack's subscriber export: email_disabled, comp and gift until their expiry, paid with its Stripe customer, deletion requests skipped; idempotent", async () => {
    const future = new Date(now.getTime() + 200 * DAY).toISOString();
    const substack = [
      "email,active_subscription,expiry,plan,email_disabled,created_at,first_payment_at,stripe_connected_customer_id",
      `reader@substack.test,false,,,false,2021-05-01T00:00:00.000Z,,`,
      `muted@substack.test,false,,,true,2021-05-02T00:00:00.000Z,,`,
      `comp@substack.test,true,${future},comp,false,2021-05-03T00:00:00.000Z,,`,
      `gift@substack.test,true,2020-01-01T00:00:00.000Z,gift,false,2021-05-04T00:00:00.000Z,,`,
      `yearly@substack.test,true,${future},yearly,false,2021-05-05T00:00:00.000Z,2021-05-05T00:00:00.000Z,cus_Substack9`,
      `x9y8@deletion-request.substack.com,false,,,false,2021-05-06T00:00:00.000Z,,`,
    ].join("\n");
    const before = await count();
    const dry = await run(substack, true);
    expect(await count()).toBe(before);
    expect(dry).toMatchObject({ added: 5, updated: 0, unchanged: 0 });
    expect(dry.skipped.map((s) => s.reason)).toEqual(["a deletion request on Substack"]);
    expect(dry.lines.find((l) => l.email === "gift@substack.test")!.notes).toContain("its complimentary plan ended on 2020-01-01: imported as free");

    await run(substack, false);
    const rowOf = async (email: string) => (await t.db.select().from(subscribers).where(eq(subscribers.email, email)))[0]!;
    const comp = await rowOf("comp@substack.test");
    expect(comp.compTierId).toBe(supporter);
    expect(comp.compUntil!.toISOString()).toBe(future);
    expect((await rowOf("gift@substack.test")).compTierId).toBeNull();
    expect((await rowOf("muted@substack.test")).status).toBe("unsubscribed");
    expect((await rowOf("yearly@substack.test")).stripeCustomerId).toBe("cus_Substack9");
    expect((await t.db.select().from(memberEvents).where(eq(memberEvents.memberId, comp.id))).map((e) => [e.kind, e.detail.source])).toEqual([["comp_granted", "import"]]);

    const again = await run(substack, false);
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 5 });
    expect(await count()).toBe(before + 5);
  });

  it("a comp with no paid tier to give it in is a problem line, not a half-imported member", async () => {
    const parsed = parseSubscribersCsv("email,complimentary_plan\nno-tier@ghost.test,true\n");
    // The tiers exist in this database: the rule is checked against an empty list by naming none here.
    await t.db.update(memberTiers).set({ archivedAt: now });
    try {
      const report = await importSubscribers(t.db, admin, parsed.rows, { consent: true, dryRun: true });
      // Archived tiers still match by name; with none named and none open, the line is refused.
      expect(report.problems.map((p) => p.reason)).toEqual([expect.stringMatching(/No paid tier exists/)]);
    } finally {
      await t.db.update(memberTiers).set({ archivedAt: null }).where(sql`${memberTiers.slug} <> 'old'`);
    }
  });

  it("editors may not import, not even a dry run (403)", async () => {
    const parsed = parseSubscribersCsv("email\nsomeone@ghost.test\n");
    expect((await refusal(importSubscribers(t.db, editor, parsed.rows, { consent: true, dryRun: true }))).status).toBe(403);
  });
});

describe("the import and people who left", () => {
  it("someone who unsubscribed is skipped, not updated by a name alone; a comp from the file still reaches them", async () => {
    const [gone] = await t.db.insert(subscribers).values({ email: "left@imports.test", tokenKey: newTokenKey(), status: "unsubscribed" }).returning();
    const nameOnly = parseSubscribersCsv("email,name\nleft@imports.test,Named Now\n");
    const report = await importSubscribers(t.db, admin, nameOnly.rows, { consent: true });
    expect(report).toMatchObject({ added: 0, updated: 0, unchanged: 0 });
    expect(report.skipped.map((s) => s.reason)).toEqual([expect.stringMatching(/^unsubscribed before/)]);
    const withComp = parseSubscribersCsv("email,complimentary_plan,tiers\nleft@imports.test,true,Patron\n");
    const second = await importSubscribers(t.db, admin, withComp.rows, { consent: true });
    expect(second).toMatchObject({ updated: 1 });
    const [row] = await t.db.select().from(subscribers).where(eq(subscribers.id, gone!.id));
    expect(row).toMatchObject({ status: "unsubscribed", name: null, compTierId: patron });
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.subscriberId, gone!.id))).toEqual([]);
  });
});
