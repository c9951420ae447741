// Readers' accounts (issue 40): the sign-in routes and the account's domain functions, against a real
// PostgreSQL and the real members' Better Auth instance (its links captured instead of mailed).
import { eq, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterEach, describe, expect, test, vi } from "vitest";
import { memberEvents, memberSession, memberSubscriptions, memberTiers, newsletters, subscribers, subscriptions } from "~/db/schema";
import { SUBSCRIBER_MAIL_TASK } from "~/domain/newsletters/subscribers.server";
import { createLogger } from "~/lib/logger.server";
import type { Billing } from "~/domain/members/billing.server";
import { safeNextPath } from "~/domain/members/member-account.schema";
import { completeSignIn, confirmEmailChange, plansOf, requestEmailChange, saveMemberNewsletters, signedOutCookies, signOutEverywhere } from "~/domain/members/member-accounts.server";
import { createMemberAuth, MEMBER_SESSION_COOKIE } from "~/domain/members/member-auth.server";
import { eraseMember } from "~/domain/members/member-erasure.server";
import { signedInMember } from "~/domain/members/member-session.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { action as signInAction } from "./account-sign-in";
import { loader as verifyLoader } from "./account-verify";

const ORIGIN = "http://localhost:3000";
const { db } = await createTestDatabase();
const links: { email: string; token: string; next?: string }[] = [];
const changeLinks: { email: string; token: string }[] = [];
const log = createLogger("silent");
const memberAuth = createMemberAuth({
  db,
  baseURL: ORIGIN,
  secret: "a-test-secret-that-is-long-enough-0123456789",
  log,
  sendSignInLink: async (email, token, next) => void links.push({ email, token, next }),
  sendEmailChangeLink: async (email, token) => void changeLinks.push({ email, token }),
});
const context = { db, memberAuth, log, billing: null, env: { publicUrl: ORIGIN } } as unknown as AppLoadContext;
let ip = 0;

afterEach(() => void vi.useRealTimers());

function signInRequest(email: string, next = "") {
  const body = new URLSearchParams({ email, next });
  return new Request(`${ORIGIN}/account/sign-in`, {
    method: "POST",
    body,
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", "x-frontpage-client-ip": `198.51.100.${++ip}` },
  });
}
const verifyRequest = (token: string, next?: string) =>
  new Request(`${ORIGIN}/account/verify?token=${encodeURIComponent(token)}${next ? `&next=${encodeURIComponent(next)}` : ""}`);

/** What a loader answered or threw, as a Response-like record. */
async function settle(run: () => Promise<unknown>) {
  try {
    const value = await run();
    const init = (value as { init?: { status?: number; headers?: HeadersInit } }).init;
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), body: (value as { data?: unknown }).data };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, headers: thrown.headers, body: null };
    throw thrown;
  }
}

/** Signs `email` in through the real routes; answers the session cookie (name=value) and the member. */
async function signIn(email: string) {
  await signInAction({ request: signInRequest(email), context, params: {} } as never);
  const { token } = links.filter((l) => l.email === email).at(-1)!;
  const answer = await settle(() => verifyLoader({ request: verifyRequest(token), context, params: {} } as never));
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith(`${MEMBER_SESSION_COOKIE}=`))!;
  const [member] = await db.select().from(subscribers).where(eq(subscribers.email, email));
  return { cookie, member: member!, answer };
}
const withCookie = (cookie: string) => new Headers({ cookie, origin: ORIGIN });

describe("signing in by e-mail link", () => {
  test("a known and an unknown address get the same answer, and each a link", async () => {
    await db.insert(subscribers).values({ email: "known@example.com", status: "active", confirmedAt: new Date(), consentSource: "/newsletter" });
    const known = await settle(() => signInAction({ request: signInRequest("Known@Example.com", "/article/a-story"), context, params: {} } as never));
    const unknown = await settle(() => signInAction({ request: signInRequest("nobody-yet@example.com", "/article/a-story"), context, params: {} } as never));
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.headers.get("cache-control")).toBe("no-store");
    expect(links.slice(-2).map((l) => [l.email, l.next])).toEqual([
      ["known@example.com", "/article/a-story"],
      ["nobody-yet@example.com", "/article/a-story"],
    ]);
    // Nobody is made a member before their link is used.
    expect(await db.select().from(subscribers).where(eq(subscribers.email, "nobody-yet@example.com"))).toHaveLength(0);
  });

  test("a malformed or blocked address is refused beside the field with a 400", async () => {
    const bad = await settle(() => signInAction({ request: signInRequest("not-an-address"), context, params: {} } as never));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ sent: false, field: "email", error: "Please enter a valid e-mail address." });
  });

  test("when the mail server fails, the reader is told to try again (502), whoever the address is", async () => {
    const failing = createMemberAuth({
      db,
      baseURL: ORIGIN,
      secret: "a-test-secret-that-is-long-enough-0123456789",
      log,
      sendSignInLink: async () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:25")),
      sendEmailChangeLink: async () => undefined,
    });
    const failingContext = { ...(context as object), memberAuth: failing } as AppLoadContext;
    const answer = await settle(() => signInAction({ request: signInRequest("unlucky@example.com"), context: failingContext, params: {} } as never));
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ sent: false, error: "We could not send the e-mail just now. Please try again in a minute." });
  });

  test("a link signs in once: the second use is refused with no session", async () => {
    const first = await signIn("once@example.com");
    expect(first.answer.status).toBe(302);
    expect(first.answer.headers.get("location")).toBe("/account");
    expect(first.answer.headers.getSetCookie().join("\n")).toMatch(/frontpage-reader=member; Path=\/; Max-Age=5184000; SameSite=Lax/);
    const { token } = links.filter((l) => l.email === "once@example.com").at(-1)!;
    const again = await settle(() => verifyLoader({ request: verifyRequest(token), context, params: {} } as never));
    expect(again.status).toBe(400);
    expect(again.headers.getSetCookie().join("\n")).not.toContain(MEMBER_SESSION_COOKIE);
    expect(await db.select().from(memberSession).where(eq(memberSession.userId, first.member.id))).toHaveLength(1);
  });

  test("a link is refused after its 15 minutes", async () => {
    await signInAction({ request: signInRequest("late@example.com"), context, params: {} } as never);
    const { token } = links.at(-1)!;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 16 * 60 * 1000 });
    const late = await settle(() => verifyLoader({ request: verifyRequest(token), context, params: {} } as never));
    expect(late.status).toBe(400);
    expect(late.headers.getSetCookie().join("\n")).not.toContain(MEMBER_SESSION_COOKIE);
    expect(await db.select().from(subscribers).where(eq(subscribers.email, "late@example.com"))).toHaveLength(0);
  });

  test("`next` leads back to a path of this site only", async () => {
    await signInAction({ request: signInRequest("next@example.com", "/article/x?y=1"), context, params: {} } as never);
    const { token } = links.at(-1)!;
    const answer = await settle(() => verifyLoader({ request: verifyRequest(token, "https://evil.example/"), context, params: {} } as never));
    expect(answer.headers.get("location")).toBe("/account");
    expect(safeNextPath("/article/x?y=1")).toBe("/article/x?y=1");
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "/\u0000x", "", null]) expect(safeNextPath(bad)).toBe("/account");
  });

  test("a new address becomes a free member receiving no newsletter, with 'signed up' on its timeline; it is never an unconfirmed sign-up", async () => {
    const { member } = await signIn("fresh@example.com");
    expect(member).toMatchObject({ status: "unsubscribed", emailVerified: true, name: null });
    const events = await db.select().from(memberEvents).where(eq(memberEvents.memberId, member.id));
    expect(events.map((e) => e.kind)).toEqual(["signed up"]);
    // A second sign-in adds nothing.
    await completeSignIn(db, member.id);
    expect(await db.select().from(memberEvents).where(eq(memberEvents.memberId, member.id))).toHaveLength(1);
  });

  test("a pending newsletter sign-up that signs in has proved its address: its newsletter starts", async () => {
    const [letter] = await db.insert(newsletters).values({ name: "Morning", slug: "morning" }).returning();
    const [pending] = await db.insert(subscribers).values({ email: "pending@example.com", status: "pending", consentSource: "/newsletter" }).returning();
    await db.insert(subscriptions).values({ subscriberId: pending!.id, newsletterId: letter!.id });
    const { member } = await signIn("pending@example.com");
    expect(member.id).toBe(pending!.id);
    expect(member.status).toBe("active");
    expect(member.confirmedAt).not.toBeNull();
  });
});

describe("the member's account", () => {
  test("ticking a newsletter on /account starts it at once (no confirmation e-mail): the address is proved", async () => {
    const { member } = await signIn("letters@example.com");
    const [letter] = await db.insert(newsletters).values({ name: "Evening", slug: "evening" }).returning();
    await db.execute(sql`delete from graphile_worker._private_jobs`);
    expect(await saveMemberNewsletters(db, member, [letter!.id])).toBe("saved");
    const [after] = await db.select().from(subscribers).where(eq(subscribers.id, member.id));
    expect(after).toMatchObject({ status: "active", consentSource: "/account" });
    expect(await db.select().from(subscriptions).where(eq(subscriptions.subscriberId, member.id))).toEqual([expect.objectContaining({ newsletterId: letter!.id })]);
    const jobs = await db.execute(sql`select 1 from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = ${SUBSCRIBER_MAIL_TASK}`);
    expect(jobs.rows).toHaveLength(0);
    expect(await saveMemberNewsletters(db, after!, [])).toBe("unsubscribed");
  });

  test("a change of address happens only when the link mailed to the new address is used, once; it stays lower-case", async () => {
    const { cookie, member } = await signIn("old-address@example.com");
    await requestEmailChange({ db, memberAuth }, member, "New-Address@Example.com", withCookie(cookie));
    const link = changeLinks.at(-1)!;
    expect(link.email).toBe("new-address@example.com");
    const [unchanged] = await db.select().from(subscribers).where(eq(subscribers.id, member.id));
    expect(unchanged!.email).toBe("old-address@example.com");

    const done = await confirmEmailChange({ db, memberAuth }, link.token, new Headers({ origin: ORIGIN }));
    expect(done).toMatchObject({ ok: true, memberId: member.id, email: "new-address@example.com" });
    const [changed] = await db.select().from(subscribers).where(eq(subscribers.id, member.id));
    expect(changed!.email).toBe("new-address@example.com");
    // The same link again: it names the old address, which the member no longer has.
    expect(await confirmEmailChange({ db, memberAuth }, link.token, new Headers({ origin: ORIGIN }))).toMatchObject({ ok: false, reason: "refused" });
    expect(await confirmEmailChange({ db, memberAuth }, "not.a.token", new Headers())).toMatchObject({ ok: false, reason: "refused" });
  });

  test("an address another member has gets no link, and a link is refused if another member took its address meanwhile", async () => {
    const { cookie, member } = await signIn("mover@example.com");
    await signIn("taken@example.com");
    const before = changeLinks.length;
    await requestEmailChange({ db, memberAuth }, member, "taken@example.com", withCookie(cookie));
    expect(changeLinks.length).toBe(before);

    await requestEmailChange({ db, memberAuth }, member, "wanted@example.com", withCookie(cookie));
    const link = changeLinks.at(-1)!;
    await signIn("wanted@example.com");
    expect(await confirmEmailChange({ db, memberAuth }, link.token, new Headers({ origin: ORIGIN }))).toMatchObject({ ok: false, reason: "taken" });
    const [still] = await db.select().from(subscribers).where(eq(subscribers.id, member.id));
    expect(still!.email).toBe("mover@example.com");
  });

  test("signing out everywhere ends every session of the member and renews their access", async () => {
    const first = await signIn("everywhere@example.com");
    const second = await signIn("everywhere@example.com");
    const [before] = await db.select({ at: subscribers.accessChangedAt }).from(subscribers).where(eq(subscribers.id, first.member.id));
    await signOutEverywhere({ db, memberAuth }, first.member.id, withCookie(second.cookie));
    expect(await db.select().from(memberSession).where(eq(memberSession.userId, first.member.id))).toHaveLength(0);
    const request = new Request(`${ORIGIN}/account`, { headers: { cookie: first.cookie } });
    expect(await signedInMember(request, context)).toBeNull();
    const [after] = await db.select({ at: subscribers.accessChangedAt }).from(subscribers).where(eq(subscribers.id, first.member.id));
    expect(after!.at.getTime()).toBeGreaterThan(before!.at.getTime());
  });

  test("signing out clears the header's hint and the door's signed access cookie (Secure on https)", () => {
    const cookies = signedOutCookies("https://news.example");
    expect(cookies).toEqual([expect.stringMatching(/^frontpage-reader=; Path=\/; Max-Age=0;.*; Secure$/), expect.stringMatching(/^frontpage-access=; Path=\/; Max-Age=0;.*HttpOnly; SameSite=Lax; Secure$/)]);
    expect(signedOutCookies(ORIGIN).join("\n")).not.toContain("Secure");
  });

  test("the plan: Free, a paid tier with its renewal date, a complimentary plan with its end", async () => {
    const { member } = await signIn("plans@example.com");
    expect(await plansOf(db, member)).toEqual([{ kind: "free" }]);
    const [tier] = await db.insert(memberTiers).values({ name: "Supporter", slug: "supporter", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" }).returning();
    const renews = new Date("2027-01-01T00:00:00Z");
    await db.insert(memberSubscriptions).values({ memberId: member.id, stripeSubscriptionId: "sub_plans", stripeCustomerId: "cus_plans", tierId: tier!.id, status: "past_due", cadence: "month", amount: 500, currency: "usd", currentPeriodEnd: renews, startedAt: new Date() });
    expect(await plansOf(db, member)).toEqual([expect.objectContaining({ kind: "paid", tierName: "Supporter", cadence: "month", renewsOn: renews, endsOn: null })]);
    await db.update(memberSubscriptions).set({ status: "canceled" }).where(eq(memberSubscriptions.stripeSubscriptionId, "sub_plans"));
    const until = new Date(Date.now() + 86_400_000);
    expect(await plansOf(db, { ...member, compTierId: tier!.id, compUntil: until })).toEqual([{ kind: "complimentary", tierName: "Supporter", until }]);
  });
});

describe("deleting a member", () => {
  async function paidMember(email: string) {
    const { member, cookie } = await signIn(email);
    const [tier] = await db.insert(memberTiers).values({ name: `Tier ${email}`, slug: email.replace(/\W/g, "-"), monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" }).returning();
    await db.update(subscribers).set({ stripeCustomerId: `cus_${member.id}` }).where(eq(subscribers.id, member.id));
    await db.insert(memberSubscriptions).values({ memberId: member.id, stripeSubscriptionId: `sub_${member.id}`, stripeCustomerId: `cus_${member.id}`, tierId: tier!.id, status: "active", cadence: "year", amount: 5000, currency: "usd", startedAt: new Date() });
    return { member, cookie };
  }
  const billing = (cancelAll: Billing["cancelAll"]): Pick<Billing, "cancelAll"> => ({ cancelAll });

  test("cancels at Stripe first, then erases the member and their sessions, keeping the payment record anonymised", async () => {
    const { member, cookie } = await paidMember("leaving@example.com");
    const canceled: string[] = [];
    await eraseMember(db, billing(async (id) => void canceled.push(id)), member.id);
    expect(canceled).toEqual([member.id]);
    expect(await db.select().from(subscribers).where(eq(subscribers.id, member.id))).toHaveLength(0);
    expect(await db.select().from(memberSession).where(eq(memberSession.userId, member.id))).toHaveLength(0);
    const [record] = await db.select().from(memberSubscriptions).where(eq(memberSubscriptions.stripeSubscriptionId, `sub_${member.id}`));
    expect(record).toMatchObject({ memberId: null, amount: 5000, status: "active" });
    expect(await signedInMember(new Request(`${ORIGIN}/account`, { headers: { cookie } }), context)).toBeNull();
  });

  test("when Stripe refuses the cancel, nothing is erased and the member is told", async () => {
    const { member } = await paidMember("staying@example.com");
    await expect(eraseMember(db, billing(async () => Promise.reject(new Error("Stripe is down"))), member.id)).rejects.toMatchObject({ code: "upstream_failed", status: 502 });
    expect(await db.select().from(subscribers).where(eq(subscribers.id, member.id))).toHaveLength(1);
    expect(await db.select().from(memberSession).where(eq(memberSession.userId, member.id))).toHaveLength(1);
  });

  test("an unused sign-in link dies with the member: it cannot bring the address back", async () => {
    const { member } = await signIn("gone@example.com");
    await signInAction({ request: signInRequest("gone@example.com"), context, params: {} } as never);
    const { token } = links.at(-1)!;
    await eraseMember(db, null, member.id);
    const answer = await settle(() => verifyLoader({ request: verifyRequest(token), context, params: {} } as never));
    expect(answer.status).toBe(400);
    expect(await db.select().from(subscribers).where(eq(subscribers.email, "gone@example.com"))).toHaveLength(0);
  });
});
