import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { BatchedWriter } from "~/lib/batched-writer.server";
import type { Logger } from "~/lib/logger.server";
import type { AdPlacement } from "./ad-token.server";

// What the ads got (issue 43, decision 0061), written in batches as views are: impressions counted
// in memory as the door answers, viewable impressions and clicks as their requests arrive, all written
// once a second (or sooner when many are waiting) into ad_days, incremented in place. A click and a
// viewable impression are counted once: a mark (the day, the kind and a hash of the token and who) is
// inserted with them, `on conflict do nothing`, and only the marks that went in count.

/** Counts waiting to be written, at most (during a database outage the newest are kept). */
export const MAX_PENDING_AD_COUNTS = 50_000;
export const MAX_PENDING_AD_MARKS = 50_000;

/** A placement on a day, as the counts' key: `day|campaign|creative|slot`. */
export function placementKey(day: string, placement: AdPlacement): string {
  return `${day}|${placement.campaignId}|${placement.creativeId}|${placement.slot}`;
}

interface PendingMark {
  day: string;
  kind: "click" | "view";
  key: Buffer;
  placement: AdPlacement;
}

/** What one flush takes from the buffers. */
interface AdBatch {
  impressions: Map<string, number>;
  marks: PendingMark[];
}

export class AdRecorder extends BatchedWriter<AdBatch> {
  /** Impressions by placementKey. */
  private impressions = new Map<string, number>();
  private marks: PendingMark[] = [];

  constructor(
    private readonly db: Db,
    log: Logger,
    private readonly flushAt = 5000,
  ) {
    super(log, "ad counts");
  }

  /** One impression of a placement on `day` (the site's), by its key (placementKey). */
  recordImpression(key: string) {
    const n = this.impressions.get(key);
    if (n !== undefined) this.impressions.set(key, n + 1);
    else if (this.impressions.size < MAX_PENDING_AD_COUNTS) this.impressions.set(key, 1);
    if (this.impressions.size >= this.flushAt) void this.flush();
  }

  /** A viewable impression of `placement`, reported for the answer `impressionId` (counted once per token and answer). */
  recordView(day: string, placement: AdPlacement, impressionId: string) {
    this.addMark(day, "view", placement, impressionId);
  }

  /** A click on `placement` by the reader `visitor` (their visitor hash today): counted once per token, reader and day. */
  recordClick(day: string, placement: AdPlacement, visitor: Buffer | string) {
    this.addMark(day, "click", placement, visitor);
  }

  private addMark(day: string, kind: "click" | "view", placement: AdPlacement, who: Buffer | string) {
    if (this.marks.length >= MAX_PENDING_AD_MARKS) return;
    const key = createHash("sha256").update(`${placement.campaignId}\n${placement.creativeId}\n${placement.slot}\n`).update(who).digest();
    this.marks.push({ day, kind, key, placement });
    if (this.marks.length >= this.flushAt) void this.flush();
  }

  /** Impressions not yet written (tests, the bench). */
  pendingImpressions(): number {
    let n = 0;
    for (const count of this.impressions.values()) n += count;
    return n;
  }

  protected take(): AdBatch | null {
    if (this.impressions.size === 0 && this.marks.length === 0) return null;
    const batch = { impressions: this.impressions, marks: this.marks };
    this.impressions = new Map();
    this.marks = [];
    return batch;
  }

  protected putBack({ impressions, marks }: AdBatch) {
    for (const [key, n] of impressions) {
      const pending = this.impressions.get(key);
      if (pending !== undefined) this.impressions.set(key, pending + n);
      else if (this.impressions.size < MAX_PENDING_AD_COUNTS) this.impressions.set(key, n);
    }
    this.marks = marks.concat(this.marks).slice(-MAX_PENDING_AD_MARKS);
  }

  protected async write({ impressions, marks }: AdBatch) {
    await this.db.transaction(async (tx) => {
      const counts = new Map<string, { impressions: number; viewable: number; clicks: number }>();
      const countOf = (key: string) => {
        let row = counts.get(key);
        if (!row) counts.set(key, (row = { impressions: 0, viewable: 0, clicks: 0 }));
        return row;
      };
      for (const [key, n] of impressions) countOf(key).impressions += n;
      if (marks.length > 0) {
        // Only the marks that went in count: a second click or report of the same one finds its mark there.
        const inserted = await tx.execute<{ day: string; kind: string; key: string }>(sql`
          insert into ad_marks (day, kind, key)
          select * from unnest(${sql.param(marks.map((m) => m.day))}::date[], ${sql.param(marks.map((m) => m.kind))}::text[], ${sql.param(marks.map((m) => m.key))}::bytea[])
          on conflict do nothing
          returning to_char(day, 'YYYY-MM-DD') as day, kind, encode(key, 'hex') as key`);
        const went = new Set(inserted.rows.map((row) => `${row.day}|${row.kind}|${row.key}`));
        for (const mark of marks) {
          const id = `${mark.day}|${mark.kind}|${mark.key.toString("hex")}`;
          if (!went.delete(id)) continue;
          const row = countOf(placementKey(mark.day, mark.placement));
          if (mark.kind === "click") row.clicks++;
          else row.viewable++;
        }
      }
      if (counts.size === 0) return;
      const keys = [...counts.keys()];
      const parts = keys.map((key) => key.split("|"));
      const rows = keys.map((key) => counts.get(key)!);
      // A placement whose campaign or creative was deleted meanwhile is left out (not an error for the rest).
      await tx.execute(sql`
        insert into ad_days (day, campaign_id, creative_id, slot, impressions, viewable, clicks)
        select v.day, v.campaign_id, v.creative_id, v.slot, v.impressions, v.viewable, v.clicks
        from unnest(${sql.param(parts.map((p) => p[0]!))}::date[], ${sql.param(parts.map((p) => p[1]!))}::uuid[], ${sql.param(parts.map((p) => p[2]!))}::uuid[],
                    ${sql.param(parts.map((p) => p[3]!))}::text[], ${sql.param(rows.map((r) => r.impressions))}::bigint[], ${sql.param(rows.map((r) => r.viewable))}::bigint[],
                    ${sql.param(rows.map((r) => r.clicks))}::bigint[]) as v(day, campaign_id, creative_id, slot, impressions, viewable, clicks)
        where exists (select 1 from ad_creatives c where c.id = v.creative_id and c.campaign_id = v.campaign_id)
        on conflict (day, campaign_id, creative_id, slot) do update set
          impressions = ad_days.impressions + excluded.impressions,
          viewable = ad_days.viewable + excluded.viewable,
          clicks = ad_days.clicks + excluded.clicks`);
    });
  }
}
