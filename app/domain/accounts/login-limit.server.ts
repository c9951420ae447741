import { and, count, countDistinct, desc, eq, gt, lt, max, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { loginAttempts } from "~/db/schema";
import { ADVISORY_LOCK_CLASS, tryAgainIn, type Allowance } from "~/lib/rate-limit.server";

/** Failures allowed per account and per IP inside the window; the next attempt is refused. */
export const MAX_FAILED_LOGINS = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export type LoginLimit = Allowance;

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  return `Too many sign-in attempts. ${tryAgainIn(retryAfterSeconds)}`;
}

/** What the checks read with: the pool, or the transaction of beginLoginAttempt. */
type Reader = Pick<Db, "select">;

/**
 * When the newest MAX_FAILED_LOGINS failures matching `where` all fall inside the window, the limit
 * lifts once the oldest of them leaves it. Returns that moment, or null when not limited.
 */
async function blockedUntil(db: Reader, where: SQL | undefined, now: Date): Promise<Date | null> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const rows = await db
    .select({ at: loginAttempts.attemptedAt })
    .from(loginAttempts)
    .where(and(where, gt(loginAttempts.attemptedAt, since)))
    .orderBy(desc(loginAttempts.attemptedAt))
    .limit(MAX_FAILED_LOGINS);
  if (rows.length < MAX_FAILED_LOGINS) return null;
  return new Date(rows[MAX_FAILED_LOGINS - 1]!.at.getTime() + LOGIN_WINDOW_MS);
}

/**
 * Whether a sign-in for this account from this IP must be refused before the password is even
 * checked: after MAX_FAILED_LOGINS failures of this (account, address) pair, or of this address over
 * any accounts. Not of the account from everywhere: then a stranger could lock the owner out by
 * failing on purpose (issue 12, decision 0023); guessing one account from many addresses is met by the
 * refused common passwords and the second factor. `ownAttempt` is the caller's reservation (see
 * beginLoginAttempt), which does not count against itself.
 */
export async function checkLoginLimit(db: Reader, email: string, ip: string, now = new Date(), ownAttempt?: number): Promise<LoginLimit> {
  const others = ownAttempt === undefined ? undefined : ne(loginAttempts.id, ownAttempt);
  const [byEmail, byIp] = await Promise.all([
    blockedUntil(db, and(eq(loginAttempts.email, email), eq(loginAttempts.ip, ip), others), now),
    blockedUntil(db, and(eq(loginAttempts.ip, ip), others), now),
  ]);
  const until = [byEmail, byIp].filter((d): d is Date => d !== null).sort((a, b) => b.getTime() - a.getTime())[0];
  if (!until) return { limited: false };
  const retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return { limited: true, retryAfterSeconds, message: tooManyAttemptsMessage(retryAfterSeconds) };
}

/**
 * Failures of one account, from any addresses, inside the window after which each further attempt
 * waits (issue 28, item 1): guessing spread over many addresses is slowed to a trickle, while the
 * owner's known devices (known-devices.server.ts) are not slowed, so a stranger cannot lock them out.
 */
export const ACCOUNT_SLOWDOWN_AFTER = 10;
/** The longest wait between two attempts of a slowed account. */
export const ACCOUNT_SLOWDOWN_MAX_SECONDS = 15 * 60;

/** The wait after an account's newest failure, by how many it has in the window: 30 s at the 10th, doubling, at most 15 minutes. */
export function accountSlowdownSeconds(failures: number): number {
  if (failures < ACCOUNT_SLOWDOWN_AFTER) return 0;
  return Math.min(30 * 2 ** (failures - ACCOUNT_SLOWDOWN_AFTER), ACCOUNT_SLOWDOWN_MAX_SECONDS);
}

export function accountSlowedMessage(retryAfterSeconds: number): string {
  const wait = retryAfterSeconds < 60 ? `Try again in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? "second" : "seconds"}.` : tryAgainIn(retryAfterSeconds);
  return `Too many failed sign-ins for this account. ${wait} A device you signed in with before is not slowed, and "Forgot your password?" sends a link.`;
}

/** An account's failures inside the window, from any address: how many, from how many addresses, and the newest one's time. */
export async function accountFailures(db: Reader, email: string, now = new Date(), ownAttempt?: number): Promise<{ failures: number; addresses: number; newest: Date | null }> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const [row] = await db
    .select({ failures: count(), addresses: countDistinct(loginAttempts.ip), newest: max(loginAttempts.attemptedAt) })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.email, email), gt(loginAttempts.attemptedAt, since), ownAttempt === undefined ? undefined : ne(loginAttempts.id, ownAttempt)));
  return { failures: row?.failures ?? 0, addresses: row?.addresses ?? 0, newest: row?.newest ?? null };
}

/** Whether an attempt for the account must wait (not for a known device: see ACCOUNT_SLOWDOWN_AFTER). */
export async function checkAccountSlowdown(db: Reader, email: string, now = new Date(), ownAttempt?: number): Promise<LoginLimit> {
  const { failures, newest } = await accountFailures(db, email, now, ownAttempt);
  const wait = accountSlowdownSeconds(failures);
  if (wait === 0 || !newest) return { limited: false };
  const allowedAt = newest.getTime() + wait * 1000;
  if (now.getTime() >= allowedAt) return { limited: false };
  const retryAfterSeconds = Math.max(1, Math.ceil((allowedAt - now.getTime()) / 1000));
  return { limited: true, retryAfterSeconds, message: accountSlowedMessage(retryAfterSeconds) };
}

/**
 * Starts a sign-in attempt: records it as a failure before the password is checked, then checks the
 * limit. Attempts racing each other each see the others' rows, so a burst of parallel guesses gets
 * no more than MAX_FAILED_LOGINS past the check (checking first and recording after let every
 * request of a burst through). A refused attempt takes its row back; the caller ends an allowed one
 * with endLoginAttempt.
 */
export async function beginLoginAttempt(
  db: Db,
  email: string,
  ip: string,
  now = new Date(),
  options: { knownDevice?: boolean } = {},
): Promise<{ id: number; limit: LoginLimit; slowed?: boolean }> {
  // Record-and-check runs one at a time per account and per address (a lock held for these few
  // statements, never across the password check), so the first MAX_FAILED_LOGINS of a burst pass.
  // The account's lock is always taken first, so two attempts never wait on each other in a circle.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCK_CLASS.signInAccount}, hashtext(${email}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCK_CLASS.signInAddress}, hashtext(${ip}))`);
    const [row] = await tx.insert(loginAttempts).values({ email, ip, attemptedAt: now }).returning({ id: loginAttempts.id });
    const pair = await checkLoginLimit(tx, email, ip, now, row!.id);
    const account = pair.limited || options.knownDevice ? { limited: false as const } : await checkAccountSlowdown(tx, email, now, row!.id);
    const limit = pair.limited ? pair : account;
    // A refused attempt is not a failure: it leaves no row.
    if (limit.limited) await tx.delete(loginAttempts).where(eq(loginAttempts.id, row!.id));
    return { id: row!.id, limit, slowed: account.limited };
  });
}

/**
 * Ends an attempt begun with beginLoginAttempt: a refused password keeps its row (old rows are pruned
 * on the way); a success clears the account's failures from this IP; anything else (a malformed
 * request) takes the row back.
 */
export async function endLoginAttempt(db: Db, attempt: { id: number; email: string; ip: string }, outcome: "failed" | "signed-in" | "other", now = new Date()) {
  if (outcome === "failed") return pruneLoginAttempts(db, attempt.email, attempt.ip, now);
  await db.delete(loginAttempts).where(eq(loginAttempts.id, attempt.id));
  if (outcome === "signed-in") await clearAccountFailures(db, attempt.email, attempt.ip);
}

async function pruneLoginAttempts(db: Db, email: string, ip: string, now: Date) {
  const expired = new Date(now.getTime() - 2 * LOGIN_WINDOW_MS);
  await db.delete(loginAttempts).where(and(or(eq(loginAttempts.email, email), eq(loginAttempts.ip, ip)), lt(loginAttempts.attemptedAt, expired)));
}

/**
 * A successful sign-in clears the account's own failures (the owner got in). Failures counted for
 * the IP stay, so signing into one's own account cannot reset the counter of an IP guessing others.
 */
async function clearAccountFailures(db: Db, email: string, ip: string): Promise<void> {
  // Only this IP's rows for the account are removed: rows from other IPs still count against those IPs.
  await db.delete(loginAttempts).where(and(eq(loginAttempts.email, email), eq(loginAttempts.ip, ip)));
}
