import { createHash } from "node:crypto";
import { and, asc, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { rateLimitHits } from "~/db/schema";

/**
 * The first key of the two-key advisory locks taken per limit, so the hashed keys of one kind (an
 * account, an address, a bucket) never collide with another's.
 */
export const ADVISORY_LOCK_CLASS = { signInAccount: 1, signInAddress: 2, rateLimit: 3 } as const;

export type Allowance = { limited: false } | { limited: true; retryAfterSeconds: number; message: string };

/** "Try again in N minutes." for a wait in seconds (never less than one minute). */
export function tryAgainIn(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}

export interface LimitRule {
  /** What is counted, e.g. "sign-up". */
  bucket: string;
  /** At most this many requests per key inside the window. */
  max: number;
  windowMs: number;
  /** The sentence before "Try again in N minutes.". */
  refusal: string;
}

/**
 * What a limit stores for what it counts (a client address, an account): its SHA-256, so the table
 * never holds a reader's address (issue 42: no column of the database holds one for counting).
 */
export function rateLimitKey(counted: string): string {
  return createHash("sha256").update(counted).digest("hex");
}

/**
 * Counts one request of `counted` (a client address, an account) against `rule`, or refuses it when `rule.max` were
 * counted inside the window. Check-and-count runs one at a time per bucket and key (a lock held for
 * these few statements), so a burst of parallel requests gets exactly `max` through.
 */
export async function takeAllowance(db: Db, rule: LimitRule, counted: string, now = new Date()): Promise<Allowance> {
  const key = rateLimitKey(counted);
  const since = new Date(now.getTime() - rule.windowMs);
  const where = and(eq(rateLimitHits.bucket, rule.bucket), eq(rateLimitHits.key, key));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCK_CLASS.rateLimit}, hashtext(${`${rule.bucket} ${key}`}))`);
    const hits = await tx
      .select({ at: rateLimitHits.hitAt })
      .from(rateLimitHits)
      .where(and(where, gt(rateLimitHits.hitAt, since)))
      .orderBy(asc(rateLimitHits.hitAt))
      .limit(rule.max);
    if (hits.length >= rule.max) {
      const retryAfterSeconds = Math.max(1, Math.ceil((hits[0]!.at.getTime() + rule.windowMs - now.getTime()) / 1000));
      return { limited: true, retryAfterSeconds, message: `${rule.refusal} ${tryAgainIn(retryAfterSeconds)}` };
    }
    await tx.insert(rateLimitHits).values({ bucket: rule.bucket, key, hitAt: now });
    await tx.delete(rateLimitHits).where(and(where, lt(rateLimitHits.hitAt, since)));
    return { limited: false };
  });
}
