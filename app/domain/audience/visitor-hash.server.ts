import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { audienceSalts } from "~/db/schema";
import { fromDateTimeLocal, inTimeZone, isoDayOf } from "~/lib/dates";

// The visitor hash (issue 42, decision 0058): SHA-256 of the site day's secret salt, the site, the
// client address and the user agent. The salt lives in audience_salts for its day (the rollup job
// deletes it once the day is over): after that no one can link a hash to an address or to the next
// day's hash.

/** The site's day (YYYY-MM-DD in its time zone) holding the instant `at`. */
export function siteDayOf(at: number | Date, timeZone: string): string {
  return isoDayOf(inTimeZone(new Date(at), timeZone));
}

/** The day after `day` (YYYY-MM-DD). */
function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** A site day's salt and the instants it covers ([from, to), epoch milliseconds). */
export interface DaySalt {
  day: string;
  from: number;
  to: number;
  salt: Buffer;
}

/** The visitor hash of a client on the day of `salt`: sha256(salt ‖ site origin ‖ address ‖ user agent), 32 bytes. */
export function visitorHash(salt: Buffer, siteOrigin: string, address: string, userAgent: string): Buffer {
  return createHash("sha256").update(salt).update(siteOrigin).update("\n").update(address).update("\n").update(userAgent).digest();
}

/**
 * The site days' salts for this process: today's is made once for every process (32 random bytes
 * inserted `on conflict do nothing`, then read, so all agree) and kept in memory until the day ends.
 * `now` is the clock (tests move it).
 */
export class VisitorSalts {
  private current: DaySalt | null = null;
  private loading: Promise<DaySalt | null> | null = null;

  constructor(
    private readonly db: Db,
    readonly timeZone: string,
    readonly now: () => number = Date.now,
  ) {}

  /** The site day of `at`. */
  dayOf(at: number): string {
    const kept = this.current;
    if (kept && at >= kept.from && at < kept.to) return kept.day;
    return siteDayOf(at, this.timeZone);
  }

  /** The salt of the day holding `at` if this process holds it (no query): the hot path's. */
  cached(at: number = this.now()): DaySalt | null {
    const kept = this.current;
    return kept && at >= kept.from && at < kept.to ? kept : null;
  }

  /**
   * The salt of the day holding `at` (default: now): made if it is today's or a later day's and
   * missing. A past day's salt is only read (null once deleted: that day can no longer be counted).
   */
  async salt(at: number = this.now()): Promise<DaySalt | null> {
    const kept = this.cached(at);
    if (kept) return kept;
    const day = siteDayOf(at, this.timeZone);
    const today = siteDayOf(this.now(), this.timeZone);
    if (day !== today) return this.read(day, day > today);
    // One read at a time for today's (a flood of loads at midnight asks once).
    this.loading ??= this.read(day, true).finally(() => (this.loading = null));
    const loaded = await this.loading;
    if (loaded && loaded.day === this.dayOf(this.now())) this.current = loaded;
    return loaded;
  }

  private async read(day: string, make: boolean): Promise<DaySalt | null> {
    if (make) await this.db.insert(audienceSalts).values({ day, salt: randomBytes(32) }).onConflictDoNothing();
    const [row] = await this.db.select({ salt: audienceSalts.salt }).from(audienceSalts).where(eq(audienceSalts.day, day));
    if (!row) return null;
    const from = fromDateTimeLocal(`${day}T00:00`, this.timeZone)!.getTime();
    const to = fromDateTimeLocal(`${nextDay(day)}T00:00`, this.timeZone)!.getTime();
    return { day, from, to, salt: Buffer.from(row.salt) };
  }
}

/** The hash of a client today (null: the day's salt is gone). */
export async function visitorToday(salts: VisitorSalts, siteOrigin: string, address: string, userAgent: string, at = salts.now()): Promise<{ day: string; visitor: Buffer } | null> {
  const salt = await salts.salt(at);
  return salt ? { day: salt.day, visitor: visitorHash(salt.salt, siteOrigin, address, userAgent) } : null;
}
