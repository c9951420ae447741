import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { GateNote } from "../app/app-context.server";
import type { Db } from "../app/db/client.server";
import { memberReads } from "../app/db/schema";
import { isMeterable, METER_PERIOD_MS, variantFor, type Reader, type Variant } from "../app/domain/members/access";
import type { MemberAuth } from "../app/domain/members/member-auth.server";
import { paidTiersOf, parseMemberAccessSignal } from "../app/domain/members/members.server";
import { getSettings } from "../app/domain/settings/settings.server";
import type { ChangeFeed } from "../app/lib/change-feed.server";
import type { Logger } from "../app/lib/logger.server";
import { hasMemberSessionCookie } from "../app/domain/members/member-session.server";
import { ACCESS_COOKIE, cookieValue, METER_COOKIE, METER_NOTE_COOKIE } from "../app/domain/members/reader-cookies";

/**
 * Which copy of a gated page a reader gets, decided from signed cookies (issue 40, decision 0054):
 * the page cache's door answers with it from memory, no render and no query. Only what a cookie cannot
 * say goes on to the app (ReaderAccess.resolve): a member's class to renew (one query), or a free
 * member's metered read to record (one insert).
 *
 * - ACCESS_COOKIE: a signed-in member's pass (id, paid tiers, free stories read in the last 30 days,
 *   when issued): trusted for PASS_FRESH_MS, and not past a change of the member's access that this
 *   process heard of (the "member-access" signal of the change feed: a webhook, a comp, a sign-out
 *   everywhere).
 * - METER_COOKIE: an anonymous reader's meter (its period's start and the stories read whole), which
 *   the door itself moves on.
 */

/** How long a member's pass is trusted before the database is asked again. */
export const PASS_FRESH_MS = 10 * 60 * 1000;
/** How long the cookies themselves are kept by the browser (a member's session lasts 60 days). */
const PASS_COOKIE_SECONDS = 60 * 24 * 60 * 60;
const METER_COOKIE_SECONDS = 30 * 24 * 60 * 60;
const NOTE_COOKIE_SECONDS = 120;
/** The most stories a meter cookie lists (the settings allow at most 50 a period). */
const MAX_METERED = 50;

export interface MemberPass {
  /** Member id. */
  m: string;
  /** Paid (or complimentary) tiers. */
  t: string[];
  /** Gated stories read whole on the meter in the last 30 days (free members). */
  r: string[];
  /** Issued at (ms). */
  i: number;
}

export interface AnonymousMeter {
  /** The period's start (ms). */
  p: number;
  /** Stories read whole in it. */
  r: string[];
}

/** What the door or the app answers a gated page with. */
export interface GateDecision {
  variant: Variant;
  /** Cookies the answer sets (a moved meter, a renewed pass, the meter's note for the page's script). */
  setCookies: string[];
  /** Whether the answer is this reader's own (a member's copy, a metered read): never kept by a shared cache. */
  personal: boolean;
}

/** What only the app can settle: a pass to renew (or a session gone), or a free member's metered read to record. */
export type PendingDecision = { pending: "renew" } | { pending: "meter"; pass: MemberPass };

export interface ReaderAccessSettings {
  meterAnonymous: number;
  meterMembers: number;
}

export class ReaderAccess {
  private readonly key: Buffer;
  private readonly secure: boolean;
  /** When each member's access last changed, as this process heard (kept PASS_FRESH_MS: older passes are renewed anyway). */
  private readonly changed = new Map<string, number>();
  settings: ReaderAccessSettings = { meterAnonymous: 0, meterMembers: 0 };

  constructor(secret: string, options: { secure: boolean }) {
    this.key = createHmac("sha256", secret).update("frontpage reader access v1").digest();
    this.secure = options.secure;
  }

  /** A member's access changed at `at` (ms): their passes issued before are renewed at their next request. */
  noteChanged(memberId: string, at: number) {
    const now = Date.now();
    if (this.changed.size > 10_000) for (const [id, when] of this.changed) if (now - when > PASS_FRESH_MS) this.changed.delete(id);
    this.changed.set(memberId, Math.max(at, this.changed.get(memberId) ?? 0));
  }

  sign(value: object): string {
    const body = Buffer.from(JSON.stringify(value)).toString("base64url");
    return `${body}.${createHmac("sha256", this.key).update(body).digest("base64url")}`;
  }

  /**
   * Tokens already verified, with what they say (a signed value never changes, so its check is kept):
   * most requests carry a cookie this process has seen, and the door answers them without an HMAC.
   */
  private readonly verified = new Map<string, unknown>();
  /** Meter moves already signed, by old meter, story and allowance (a reader's reload of a first read). */
  private readonly moves = new Map<string, { at: number; cookies: string[] }>();

  verify<T>(token: string | null): T | null {
    if (!token) return null;
    const known = this.verified.get(token);
    if (known !== undefined) return known as T;
    const value = this.verifyOnce<T>(token);
    if (value !== null) {
      if (this.verified.size >= 10_000) this.verified.clear();
      this.verified.set(token, value);
    }
    return value;
  }

  private verifyOnce<T>(token: string): T | null {
    const dot = token.indexOf(".");
    if (dot <= 0) return null;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), "base64url");
    const expected = createHmac("sha256", this.key).update(body).digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
    } catch {
      return null;
    }
  }

  /** The member pass of a request: valid, to renew (a member session without a fresh pass), or none (anonymous). */
  passOf(cookieHeader: string | undefined, now: number): { state: "valid"; pass: MemberPass } | { state: "renew" } | { state: "none" } {
    if (!hasMemberSessionCookie(cookieHeader)) return { state: "none" };
    const pass = this.verify<MemberPass>(cookieValue(cookieHeader, ACCESS_COOKIE));
    if (!pass || typeof pass.m !== "string" || !Array.isArray(pass.t) || !Array.isArray(pass.r) || typeof pass.i !== "number") return { state: "renew" };
    if (now - pass.i > PASS_FRESH_MS || pass.i > now + 60_000) return { state: "renew" };
    const changedAt = this.changed.get(pass.m);
    if (changedAt !== undefined && changedAt >= pass.i) return { state: "renew" };
    return { state: "valid", pass };
  }

  /** An anonymous reader's meter: its signed cookie's, or a new period. */
  meterOf(cookieHeader: string | undefined, now: number): AnonymousMeter {
    const meter = this.verify<AnonymousMeter>(cookieValue(cookieHeader, METER_COOKIE));
    if (!meter || typeof meter.p !== "number" || !Array.isArray(meter.r) || now - meter.p >= METER_PERIOD_MS || meter.p > now + 60_000) return { p: now, r: [] };
    return meter;
  }

  /**
   * The copy of a gated page for the reader of `cookieHeader`, or what only the app can settle. A
   * metered read by an anonymous reader moves their meter here (a cookie, no database).
   */
  decide(gate: GateNote, cookieHeader: string | undefined, now = Date.now()): GateDecision | PendingDecision {
    const held = this.passOf(cookieHeader, now);
    if (held.state === "renew") return { pending: "renew" };
    return this.decideFor(gate, held.state === "valid" ? held.pass : null, cookieHeader, now, []);
  }

  /** `decide` with the pass known (null: anonymous), adding `setCookies` to the answer's. */
  decideFor(gate: GateNote, pass: MemberPass | null, cookieHeader: string | undefined, now: number, setCookies: string[]): GateDecision | PendingDecision {
    const reader: Reader = pass ? { kind: "member", memberId: pass.m, paidTiers: pass.t } : { kind: "anonymous" };
    const variant = variantFor(reader, gate.access);
    const personal = pass !== null || setCookies.length > 0;
    if (variant === "full" || !isMeterable(reader, gate.access)) return { variant, setCookies, personal };
    if (pass) {
      const allowed = this.settings.meterMembers;
      if (pass.r.includes(gate.articleId)) return { variant: "full", setCookies, personal: true };
      if (allowed > 0 && pass.r.length < allowed) return { pending: "meter", pass };
      return { variant, setCookies, personal };
    }
    const allowed = Math.min(this.settings.meterAnonymous, MAX_METERED);
    if (allowed <= 0) return { variant, setCookies, personal };
    const meter = this.meterOf(cookieHeader, now);
    if (meter.r.includes(gate.articleId)) return { variant: "full", setCookies, personal: true };
    if (meter.r.length >= allowed) return { variant, setCookies, personal };
    // The same old meter, story and allowance move the meter alike: signed once a minute at most.
    const moveKey = `${cookieValue(cookieHeader, METER_COOKIE) ?? ""} ${meter.p} ${gate.articleId} ${allowed}`;
    let move = this.moves.get(moveKey);
    if (!move || now - move.at > 60_000) {
      const moved: AnonymousMeter = { p: meter.p, r: [...meter.r, gate.articleId] };
      move = { at: now, cookies: [this.meterCookie(moved, now), this.noteCookie(gate.articleId, allowed - moved.r.length, allowed)] };
      if (this.moves.size >= 10_000) this.moves.clear();
      this.moves.set(moveKey, move);
    }
    return { variant: "full", setCookies: [...setCookies, ...move.cookies], personal: true };
  }

  /**
   * What the app settles with the database: a pass renewed from the member's session and records
   * (or, with no session left, the reader is anonymous and the pass is cleared), and a free member's
   * metered read recorded in member_reads.
   */
  async resolve(
    gate: GateNote,
    pending: PendingDecision,
    deps: { db: Db; memberAuth: MemberAuth; headers: Headers; cookieHeader: string | undefined },
    now = Date.now(),
  ): Promise<GateDecision> {
    let pass: MemberPass | null;
    const setCookies: string[] = [];
    if (pending.pending === "renew") {
      pass = await this.issuePass(deps, now);
      setCookies.push(pass ? this.passCookie(pass) : this.clearCookie(ACCESS_COOKIE));
    } else {
      pass = pending.pass;
    }
    const decision = this.decideFor(gate, pass, deps.cookieHeader, now, setCookies);
    if (!("pending" in decision)) return decision;
    if (decision.pending !== "meter") throw new Error("a renewed pass cannot need renewing again");
    // A free member's metered read: recorded only while they have stories left (counted in the same statement).
    const metered = decision.pass;
    const allowed = this.settings.meterMembers;
    const recorded = await deps.db.execute(sql`
      insert into ${memberReads} (member_id, article_id, read_at)
      select ${metered.m}, ${gate.articleId}, ${new Date(now)}
      where (select count(*) from ${memberReads} where member_id = ${metered.m} and read_at > ${new Date(now - METER_PERIOD_MS)}) < ${allowed}
      on conflict (member_id, article_id) do update set read_at = excluded.read_at
      returning 1`);
    if (recorded.rows.length === 0) {
      const reads = await this.readsOf(deps.db, metered.m, now);
      const renewed = { ...metered, r: reads, i: now };
      return { variant: variantFor({ kind: "member", memberId: metered.m, paidTiers: metered.t }, gate.access), setCookies: [...setCookies, this.passCookie(renewed)], personal: true };
    }
    const renewed: MemberPass = { ...metered, r: [...new Set([...metered.r, gate.articleId])], i: now };
    return {
      variant: "full",
      setCookies: [...setCookies.filter((cookie) => !cookie.startsWith(`${ACCESS_COOKIE}=`)), this.passCookie(renewed), this.noteCookie(gate.articleId, Math.max(0, allowed - renewed.r.length), allowed)],
      personal: true,
    };
  }

  /** A new pass from the member's session (Better Auth's, members' instance), or null when there is none. */
  async issuePass(deps: { db: Db; memberAuth: MemberAuth; headers: Headers }, now = Date.now()): Promise<MemberPass | null> {
    const session = await deps.memberAuth.api.getSession({ headers: deps.headers }).catch(() => null);
    if (!session) return null;
    const memberId = session.user.id;
    const [tiers, reads] = await Promise.all([paidTiersOf(deps.db, memberId, new Date(now)), this.readsOf(deps.db, memberId, now)]);
    return { m: memberId, t: tiers, r: reads, i: now };
  }

  private async readsOf(db: Db, memberId: string, now: number): Promise<string[]> {
    const rows = await db
      .select({ articleId: memberReads.articleId })
      .from(memberReads)
      .where(and(eq(memberReads.memberId, memberId), gt(memberReads.readAt, new Date(now - METER_PERIOD_MS))))
      .limit(MAX_METERED);
    return rows.map((row) => row.articleId);
  }

  private attributes(maxAge: number, httpOnly: boolean) {
    return `; Path=/; Max-Age=${maxAge}; SameSite=Lax${httpOnly ? "; HttpOnly" : ""}${this.secure ? "; Secure" : ""}`;
  }

  passCookie(pass: MemberPass): string {
    return `${ACCESS_COOKIE}=${this.sign(pass)}${this.attributes(PASS_COOKIE_SECONDS, true)}`;
  }

  meterCookie(meter: AnonymousMeter, now: number): string {
    const left = Math.max(1, Math.round((meter.p + METER_PERIOD_MS - now) / 1000));
    return `${METER_COOKIE}=${this.sign(meter)}${this.attributes(Math.min(left, METER_COOKIE_SECONDS), true)}`;
  }

  noteCookie(articleId: string, left: number, allowed: number): string {
    return `${METER_NOTE_COOKIE}=${articleId}.${left}.${allowed}${this.attributes(NOTE_COOKIE_SECONDS, false)}`;
  }

  clearCookie(name: string): string {
    return `${name}=${this.attributes(0, true)}`;
  }
}

/**
 * This process's ReaderAccess: the meters' settings read now and again when the settings change, and
 * every member's access change (the change feed's "member-access" signal) noted as it is heard.
 */
export async function startReaderAccess(options: { secret: string; secure: boolean; db: Db; changes: ChangeFeed; log: Logger }): Promise<ReaderAccess> {
  const access = new ReaderAccess(options.secret, { secure: options.secure });
  const load = async () => {
    const settings = await getSettings(options.db);
    access.settings = { meterAnonymous: settings.meterAnonymous, meterMembers: settings.meterMembers };
  };
  options.changes.on("change", (event) => {
    if (event.table === "website_settings" || event.table === "*") load().catch((err: unknown) => options.log.warn({ err }, "could not read the meters' settings"));
  });
  options.changes.on("signal", (name) => {
    const heard = parseMemberAccessSignal(name);
    if (heard) access.noteChanged(heard.memberId, heard.at);
  });
  await load().catch((err: unknown) => options.log.warn({ err }, "could not read the meters' settings"));
  return access;
}
