import { and, desc, eq, gt, lt, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { loginAttempts } from "~/db/schema";

/** Failures allowed per account and per IP inside the window; the next attempt is refused. */
export const MAX_FAILED_LOGINS = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export type LoginLimit = { limited: false } | { limited: true; retryAfterSeconds: number; message: string };

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many sign-in attempts. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}

/**
 * When the newest MAX_FAILED_LOGINS failures matching `where` all fall inside the window, the limit
 * lifts once the oldest of them leaves it. Returns that moment, or null when not limited.
 */
async function blockedUntil(db: Db, where: ReturnType<typeof eq>, now: Date): Promise<Date | null> {
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

/** Whether a sign-in for this account from this IP must be refused before the password is even checked. */
export async function checkLoginLimit(db: Db, email: string, ip: string, now = new Date()): Promise<LoginLimit> {
  const [byEmail, byIp] = await Promise.all([
    blockedUntil(db, eq(loginAttempts.email, email), now),
    blockedUntil(db, eq(loginAttempts.ip, ip), now),
  ]);
  const until = [byEmail, byIp].filter((d): d is Date => d !== null).sort((a, b) => b.getTime() - a.getTime())[0];
  if (!until) return { limited: false };
  const retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return { limited: true, retryAfterSeconds, message: tooManyAttemptsMessage(retryAfterSeconds) };
}

/** Records a failed sign-in; old rows (outside any window) are pruned on the way. */
export async function recordFailedLogin(db: Db, email: string, ip: string, now = new Date()): Promise<void> {
  await db.insert(loginAttempts).values({ email, ip, attemptedAt: now });
  const expired = new Date(now.getTime() - 2 * LOGIN_WINDOW_MS);
  await db.delete(loginAttempts).where(and(or(eq(loginAttempts.email, email), eq(loginAttempts.ip, ip)), lt(loginAttempts.attemptedAt, expired)));
}

/**
 * A successful sign-in clears the account's own failures (the owner got in). Failures counted for
 * the IP stay, so signing into one's own account cannot reset the counter of an IP guessing others.
 */
export async function clearAccountFailures(db: Db, email: string, ip: string): Promise<void> {
  // Only this IP's rows for the account are removed: rows from other IPs still count against those IPs.
  await db.delete(loginAttempts).where(and(eq(loginAttempts.email, email), eq(loginAttempts.ip, ip)));
}
