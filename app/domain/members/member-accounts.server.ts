import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { memberEvents, memberSession, memberSubscriptions, memberTiers, subscribers } from "~/db/schema";
import { emailHash, isBlockedDomain, BLOCKED_DOMAIN, confirmSubscriber, parseSignupEmail, savePreferences, type PreferencesOutcome } from "~/domain/newsletters/subscribers.server";
import type { SignupField } from "~/domain/newsletters/subscribers.schema";
import { getSettings } from "~/domain/settings/settings.server";
import { AppError } from "~/lib/app-error";
import { takeAllowance, type LimitRule } from "~/lib/rate-limit.server";
import { PAID_STATUSES } from "./access";
import { EMAIL_UNCHANGED, SIGN_IN_MAIL_FAILED, NAME_MAX_LENGTH, NAME_TOO_LONG } from "./member-account.schema";
import { MEMBER_SESSION_SECONDS, type MemberAuth } from "./member-auth.server";
import { ACCESS_COOKIE, readerHintSetCookie } from "./reader-cookies";
import { addMemberEvent, noteAccessChanged } from "./members.server";
import type { Member } from "./member-session.server";

// Readers' accounts (issue 40, decision 0054): what /account and its sign-in do, apart from the routes.
// Better Auth's members' instance (member-auth.server.ts) holds the sign-in link, the session and the
// change of address; this module adds the site's rules around them (limits, blocked domains, the
// member's newsletter state, the timeline).

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The header's hint cookie (READER_HINT_COOKIE) for a site at `publicUrl`: set for a session's lifetime, or cleared. */
export function readerHintCookie(publicUrl: string, signedIn: boolean): string {
  return readerHintSetCookie({ secure: publicUrl.startsWith("https://"), maxAgeSeconds: signedIn ? MEMBER_SESSION_SECONDS : 0 });
}

/**
 * Signing out (here, everywhere, or by deleting the account) clears the header's hint and the signed
 * access cookie the page cache's door issued (ACCESS_COOKIE), so this browser is an anonymous reader
 * at its next request whatever the door would have trusted for its remaining minutes.
 */
export function signedOutCookies(publicUrl: string): string[] {
  const secure = publicUrl.startsWith("https://") ? "; Secure" : "";
  return [readerHintCookie(publicUrl, false), `${ACCESS_COOKIE}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${secure}`];
}

/** Headers carrying Better Auth's Set-Cookie values and the hint cookie. */
export function cookieHeaders(setCookies: readonly string[], extra: Record<string, string> = {}): Headers {
  const headers = new Headers(extra);
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return headers;
}

/** Sign-in requests from one client address: a person asks a few times, a script hundreds of times. */
export const SIGN_IN_ADDRESS_LIMIT: LimitRule = {
  bucket: "member-sign-in",
  max: 10,
  windowMs: 60 * 60 * 1000,
  refusal: "There have been many sign-in requests from your network in a short time.",
};
/**
 * Sign-in links for one e-mail address (keyed by its hash): beyond it the page still gives the one
 * answer, but no e-mail goes, so nobody can fill a stranger's inbox with sign-in links.
 */
export const SIGN_IN_EMAIL_LIMIT: LimitRule = { bucket: "member-sign-in-email", max: 5, windowMs: 60 * 60 * 1000, refusal: "" };

/** What a sign-in request did behind the one answer (for tests and the log; the page never shows it). */
export type SignInRequestOutcome = "link sent" | "limited";

/**
 * A sign-in request from /account/sign-in. Throws an AppError the reader must see (too many requests
 * from their network, a malformed or blocked address); otherwise the answer is the same for a known
 * and an unknown address: Better Auth stores a hashed, 15-minute token and the link is mailed, or,
 * past the address's own allowance, nothing is sent.
 */
export async function requestSignInLink(
  deps: { db: Db; memberAuth: MemberAuth },
  input: { email: string; next: string; clientIp: string; headers: Headers },
  now = new Date(),
): Promise<SignInRequestOutcome> {
  const { db, memberAuth } = deps;
  const allowance = await takeAllowance(db, SIGN_IN_ADDRESS_LIMIT, `address ${input.clientIp}`, now);
  if (allowance.limited) throw new AppError("rate_limited", allowance.message);
  const email = parseSignupEmail(input.email);
  const settings = await getSettings(db);
  if (isBlockedDomain(email, settings.newsletterBlockedDomains)) throw new AppError<SignupField>("invalid_input", BLOCKED_DOMAIN, { field: "email" });
  const perEmail = await takeAllowance(db, SIGN_IN_EMAIL_LIMIT, `email ${emailHash(email)}`, now);
  if (perEmail.limited) return "limited";
  try {
    await memberAuth.api.signInMagicLink({ body: { email, metadata: { next: input.next } }, headers: input.headers });
  } catch (cause) {
    // The mail server refused or could not be reached: the same for every address, so nothing is revealed.
    throw new AppError("upstream_failed", SIGN_IN_MAIL_FAILED, { cause });
  }
  return "link sent";
}

/**
 * After a sign-in link was used (the session exists): a row Better Auth has just made for a new address
 * becomes a member who receives no newsletter ("unsubscribed": never a pending sign-up, which the
 * hourly clean-up would delete) and gets "signed up" on their timeline; a pending newsletter sign-up has
 * proved its address, so it is confirmed and its newsletter starts. Answers whether the member is new.
 */
export async function completeSignIn(db: Db, memberId: string, now = new Date()): Promise<{ isNew: boolean }> {
  const [member] = await db.select().from(subscribers).where(eq(subscribers.id, memberId));
  if (!member) return { isNew: false };
  const [joined] = await db
    .select({ id: memberEvents.id })
    .from(memberEvents)
    .where(and(eq(memberEvents.memberId, memberId), eq(memberEvents.kind, "signed up")))
    .limit(1);
  // Better Auth's new row: pending, with no consent record (every newsletter sign-up and import writes one).
  const madeBySignIn = member.status === "pending" && member.consentSource === null && member.confirmedAt === null;
  if (madeBySignIn) {
    await db.transaction(async (tx) => {
      await tx
        .update(subscribers)
        .set({ status: "unsubscribed", name: member.name?.trim() ? member.name : null, updatedAt: now })
        .where(and(eq(subscribers.id, memberId), eq(subscribers.status, "pending")));
      if (!joined) await addMemberEvent(tx, memberId, "signed up", {}, now);
    });
    return { isNew: true };
  }
  if (member.status === "pending") await confirmSubscriber(db, member, now);
  // A newsletter subscriber's first sign-in makes them a member: the timeline starts there.
  if (!joined) await addMemberEvent(db, memberId, "signed up", { newsletterSubscriber: true }, now);
  return { isNew: false };
}

/** Saves the member's name ("" clears it). */
export async function renameMember(db: Db, memberId: string, name: string, now = new Date()): Promise<void> {
  const value = name.trim();
  if (value.length > NAME_MAX_LENGTH) throw new AppError<"name">("invalid_input", NAME_TOO_LONG, { field: "name" });
  if (value.includes("\u0000")) throw new AppError<"name">("invalid_input", NAME_TOO_LONG, { field: "name" });
  await db
    .update(subscribers)
    .set({ name: value === "" ? null : value, updatedAt: now })
    .where(eq(subscribers.id, memberId));
}

/**
 * /account's newsletters: the preferences page's rules (savePreferences), except that a signed-in
 * member has proved their address, so ticking a newsletter while receiving none starts it at once
 * (no confirmation e-mail); the consent record names /account.
 */
export async function saveMemberNewsletters(db: Db, member: Member, newsletterIds: readonly string[], now = new Date()): Promise<PreferencesOutcome> {
  return db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    let current = member;
    if (newsletterIds.length > 0 && (member.status === "pending" || member.status === "unsubscribed")) {
      current = await confirmSubscriber(txDb, member, now);
      const [updated] = await tx.update(subscribers).set({ consentSource: "/account", signupArticleId: null }).where(eq(subscribers.id, member.id)).returning();
      current = updated ?? current;
    }
    const outcome = await savePreferences(txDb, current, newsletterIds, now);
    await addMemberEvent(tx, member.id, "newsletters changed", { outcome }, now);
    return outcome;
  });
}

/**
 * Asks for a change of address: Better Auth's change-email flow on the members' instance mails a link
 * to the NEW address (app/domain/members/member-auth.server.ts), and nothing changes until it is used.
 * The address is lower-cased. An address another member has gets no link, and the answer is the same
 * (nobody learns who is a member); the link is refused when used if another member took it meanwhile.
 */
export async function requestEmailChange(deps: { db: Db; memberAuth: MemberAuth }, member: Member, newEmail: string, headers: Headers): Promise<void> {
  const email = parseSignupEmail(newEmail);
  if (email === member.email.toLowerCase()) throw new AppError<"email">("invalid_input", EMAIL_UNCHANGED, { field: "email" });
  const settings = await getSettings(deps.db);
  if (isBlockedDomain(email, settings.newsletterBlockedDomains)) throw new AppError<"email">("invalid_input", BLOCKED_DOMAIN, { field: "email" });
  await deps.memberAuth.api.changeEmail({ body: { newEmail: email }, headers });
}

/** The old and new addresses a change-of-address link names (read, not trusted: Better Auth checks its signature). */
function addressesOf(token: string): { email: string; updateTo: string; userId: string | null } | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { email?: unknown; updateTo?: unknown; userId?: unknown };
    return typeof payload.email === "string" && typeof payload.updateTo === "string"
      ? { email: payload.email, updateTo: payload.updateTo, userId: typeof payload.userId === "string" ? payload.userId : null }
      : null;
  } catch {
    return null;
  }
}

/** What opening a change-of-address link did. */
export type EmailChangeOutcome = { ok: true; memberId: string; email: string } | { ok: false; reason: "refused" | "taken" };

/**
 * Opens a change-of-address link (the POST of /account/email): Better Auth checks its signature, its
 * age and that the member still has the old address (so it works once), then changes the address.
 * Refused when another member has the new address by now. The member's timeline records it, and every
 * access cookie is renewed (its holder's address changed).
 */
export async function confirmEmailChange(deps: { db: Db; memberAuth: MemberAuth }, token: string, headers: Headers, now = new Date()): Promise<EmailChangeOutcome & { setCookies: string[] }> {
  const named = addressesOf(token);
  if (!named) return { ok: false, reason: "refused", setCookies: [] };
  const [taken] = await deps.db.select({ id: subscribers.id }).from(subscribers).where(sql`lower(${subscribers.email}) = lower(${named.updateTo})`);
  // The member's own new address: the link was used already.
  if (taken) return { ok: false, reason: taken.id === named.userId ? "refused" : "taken", setCookies: [] };
  const response = await deps.memberAuth.api.verifyEmail({ query: { token }, headers, asResponse: true });
  if (!response.ok) return { ok: false, reason: "refused", setCookies: [] };
  const body = (await response.json()) as { user?: { id?: string; email?: string } };
  if (!body.user?.id || !body.user.email) return { ok: false, reason: "refused", setCookies: [] };
  await addMemberEvent(deps.db, body.user.id, "changed e-mail", {}, now);
  await noteAccessChanged(deps.db, body.user.id, now);
  return { ok: true, memberId: body.user.id, email: body.user.email, setCookies: response.headers.getSetCookie() };
}

/**
 * Signs the member out on every device: Better Auth deletes every session of theirs (its answer clears
 * this browser's cookie), and their access cookies are renewed from the database at the next request
 * in every process (noteAccessChanged). Answers the Set-Cookie headers to pass on.
 */
export async function signOutEverywhere(deps: { db: Db; memberAuth: MemberAuth }, memberId: string, headers: Headers, now = new Date()): Promise<string[]> {
  const response = await deps.memberAuth.api.revokeSessions({ headers, asResponse: true });
  // Whatever Better Auth answered (a session that just expired), no session of theirs outlives this.
  await deps.db.delete(memberSession).where(eq(memberSession.userId, memberId));
  await noteAccessChanged(deps.db, memberId, now);
  await addMemberEvent(deps.db, memberId, "signed out everywhere", {}, now);
  return response.headers.getSetCookie();
}

/** A member's plan as /account shows it. */
export type MemberPlan =
  | { kind: "free" }
  | { kind: "complimentary"; tierName: string; until: Date | null }
  | { kind: "paid"; tierName: string; cadence: "month" | "year"; status: string; renewsOn: Date | null; endsOn: Date | null; amount: number; currency: string };

/**
 * The member's plans (Ghost's rule, as paidTiersOf): their subscriptions in a paid status, newest
 * first, with renewal or end dates, then a complimentary plan that has not ended; "Free" when none.
 */
export async function plansOf(db: Db, member: Pick<Member, "id" | "compTierId" | "compUntil">, now = new Date()): Promise<MemberPlan[]> {
  const rows = await db
    .select({
      tierName: memberTiers.name,
      cadence: memberSubscriptions.cadence,
      status: memberSubscriptions.status,
      currentPeriodEnd: memberSubscriptions.currentPeriodEnd,
      cancelAtPeriodEnd: memberSubscriptions.cancelAtPeriodEnd,
      amount: memberSubscriptions.amount,
      currency: memberSubscriptions.currency,
    })
    .from(memberSubscriptions)
    .innerJoin(memberTiers, eq(memberTiers.id, memberSubscriptions.tierId))
    .where(and(eq(memberSubscriptions.memberId, member.id), inArray(memberSubscriptions.status, [...PAID_STATUSES])))
    .orderBy(desc(memberSubscriptions.startedAt));
  const plans: MemberPlan[] = rows.map((r) => ({
    kind: "paid",
    tierName: r.tierName,
    cadence: r.cadence,
    status: r.status,
    renewsOn: r.cancelAtPeriodEnd ? null : r.currentPeriodEnd,
    endsOn: r.cancelAtPeriodEnd ? r.currentPeriodEnd : null,
    amount: r.amount,
    currency: r.currency,
  }));
  if (member.compTierId && (!member.compUntil || member.compUntil > now)) {
    const [tier] = await db.select({ name: memberTiers.name }).from(memberTiers).where(eq(memberTiers.id, member.compTierId));
    if (tier) plans.push({ kind: "complimentary", tierName: tier.name, until: member.compUntil });
  }
  return plans.length ? plans : [{ kind: "free" }];
}

/** Unused sign-in links naming `email` (the link's stored value names the address): gone with the member. */
export async function deleteSignInLinksOf(tx: Pick<Tx, "execute">, email: string): Promise<void> {
  await tx.execute(sql`delete from member_verification where (case when value like '{%}' then value::jsonb ->> 'email' end) = ${email.toLowerCase()}`);
}
