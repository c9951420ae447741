/**
 * A per-process count of requests per key (a client address) in fixed windows, held in memory only:
 * for limits where writing the address to the database (app/lib/rate-limit.server.ts) is not wanted,
 * such as audience reports (issue 42: no address is stored). Bounded: past `maxKeys` keys in one
 * window, the counts start afresh.
 */
export class AddressWindow {
  private counts = new Map<string, number>();
  private windowStart = 0;

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request of `key`: false once `max` were counted in this window. */
  take(key: string): boolean {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs || this.counts.size >= this.maxKeys) {
      this.counts = new Map();
      this.windowStart = now;
    }
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n <= this.max;
  }
}
