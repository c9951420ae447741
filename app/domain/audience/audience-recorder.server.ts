import { sql } from "drizzle-orm";
import { publiclyVisibleSql } from "~/db/article-visibility";
import type { Db } from "~/db/client.server";
import { pgErrorCode } from "~/db/pg-errors";
import { NO_STORY, type AudienceDevice } from "~/db/schema";
import { BatchedWriter } from "~/lib/batched-writer.server";
import { CHANGE_CHANNEL } from "~/lib/change-feed.server";
import type { Logger } from "~/lib/logger.server";
import { articleSlugFromPath } from "~/lib/view-recorder.server";
import { deviceOf, sourceOf, type LoadSource } from "./audience-source";
import { visitorHash, VisitorSalts } from "./visitor-hash.server";

// The audience recorder (issue 42, decision 0058): every counted load (the view recorder's rule, the
// same call at the door) and every reading report of a story page's script, buffered in memory and
// written in batches, as app/lib/view-recorder.server.ts writes page views. What waits in memory is
// the visitor's hash, never the address or the user agent, except for the few loads that arrive before
// this process has read a new day's salt (hashed at the flush, then forgotten).

/** Loads and reading reports that wait in memory at most (reached only while the database is away): the oldest go first. */
export const MAX_PENDING_AUDIENCE = 100_000;
/** Clients whose hash today is kept in memory at once (the hot path's cache); emptied when full. */
export const MAX_KNOWN_CLIENTS = 50_000;
/** Distinct (referrer, query) pairs whose source is kept in memory at once. */
const MAX_KNOWN_SOURCES = 10_000;
/** At most one change notice ("audience_events", for the admin's Right now) per process this often. */
export const AUDIENCE_NOTICE_MS = 2000;
/** The notice the admin's live views refresh on (the page cache ignores it: server/page-cache.ts). */
export const AUDIENCE_NOTICE = JSON.stringify({ table: "audience_events", op: "insert" });

/** A counted load, as the door sees it. */
export interface AudienceLoad {
  /** The page's path (its query is dropped; `.data` of a client navigation already taken off). */
  path: string;
  /** The article the path shows, if the caller has found it (default: from the path). */
  articleSlug?: string | null;
  /** Epoch milliseconds (default: now). */
  at?: number;
  address: string;
  userAgent: string;
  /** The Referer header ('' or absent: none). */
  referrer?: string | null;
  /** The page's query (with or without its "?"), where utm tags and `ref` are read. */
  query?: string | URLSearchParams;
}

/** A story page's reading report (POST /api/audience/read). */
export interface AudienceReadReport {
  path: string;
  loadId: string;
  engagedMs: number;
  depth: 0 | 25 | 50 | 75 | 100;
  at?: number;
  address: string;
  userAgent: string;
}

/** Loads waiting for the database, a column per field (no object per load on the hot path). */
interface LoadColumns {
  at: number[];
  path: string[];
  slug: (string | null)[];
  day: string[];
  /** The visitor hash, hex; null while the day's salt was not in memory (see `client`). */
  visitor: (string | null)[];
  /** "address\nuser agent" of a load not hashed yet, else null: in memory until the flush hashes it. */
  client: (string | null)[];
  source: LoadSource[];
  device: AudienceDevice[];
}

interface PendingRead {
  at: number;
  slug: string;
  day: string;
  visitor: string | null;
  client: string | null;
  loadId: string;
  engagedMs: number;
  depth: number;
}

/** What one flush takes from the buffers. */
interface AudienceBatch {
  loads: LoadColumns;
  reads: PendingRead[];
}

const emptyLoads = (): LoadColumns => ({ at: [], path: [], slug: [], day: [], visitor: [], client: [], source: [], device: [] });

/** The newest `max` loads of `loads` (the oldest dropped). */
function newestLoads(loads: LoadColumns, max: number): LoadColumns {
  const from = Math.max(0, loads.at.length - max);
  if (from === 0) return loads;
  return {
    at: loads.at.slice(from),
    path: loads.path.slice(from),
    slug: loads.slug.slice(from),
    day: loads.day.slice(from),
    visitor: loads.visitor.slice(from),
    client: loads.client.slice(from),
    source: loads.source.slice(from),
    device: loads.device.slice(from),
  };
}

function concatLoads(a: LoadColumns, b: LoadColumns): LoadColumns {
  return {
    at: a.at.concat(b.at),
    path: a.path.concat(b.path),
    slug: a.slug.concat(b.slug),
    day: a.day.concat(b.day),
    visitor: a.visitor.concat(b.visitor),
    client: a.client.concat(b.client),
    source: a.source.concat(b.source),
    device: a.device.concat(b.device),
  };
}

/** 23514 "no partition of relation … found for row": a raw table has no partition for that day yet. */
export function isMissingPartition(error: unknown): boolean {
  if (pgErrorCode(error) !== "23514") return false;
  for (let e = error as { message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.message === "string" && /no partition of relation/.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

const iso = (ms: number) => new Date(ms).toISOString();
const utcDay = (ms: number) => iso(ms).slice(0, 10);

export interface AudienceRecorderOptions {
  db: Db;
  log: Logger;
  /** The site time zone (TIME_ZONE): the visitor salt's day. */
  timeZone: string;
  /** The site's origin (PUBLIC_URL's): part of the hash, and its host is "internal". */
  siteOrigin: string;
  /** The clock (tests move it). */
  now?: () => number;
  /** A flush starts once this many loads wait (default AUDIENCE_FLUSH_AT). */
  maxBuffered?: number;
}

/**
 * Loads that start a flush before its second is up. At thousands of cached answers a second, a flush at
 * every 500 was ten transactions a second whose fixed costs took the database's share of the two cores
 * from the pages (`npm run bench -- --audience`, b); the buffer stays bounded by the second's loads.
 */
export const AUDIENCE_FLUSH_AT = 5000;

/**
 * Buffers audience loads and reading reports and writes them in one transaction a second (or at
 * `maxBuffered` loads): the stories' ids by slug (public stories only), the day's visitors
 * (`on conflict do nothing`, whose inserted rows are the loads' "new visitor" flags, exact across
 * processes) and the events. A missing partition is made and the batch tried again; on a passing
 * database error the batch goes back to the buffer (capped), as the view recorder does.
 */
export class AudienceRecorder extends BatchedWriter<AudienceBatch> {
  readonly salts: VisitorSalts;
  readonly siteOrigin: string;
  private readonly siteHost: string;
  private readonly now: () => number;
  private loads = emptyLoads();
  private reads: PendingRead[] = [];
  /** Today's hash and device of each client seen, for the day `hashDay` (the hot path's cache). */
  private known = new Map<string, { visitor: string; device: AudienceDevice }>();
  private hashDay = "";
  private sources = new Map<string, LoadSource>();
  private noticeDue = false;
  private lastNoticeAt = -Infinity;

  constructor(private readonly options: AudienceRecorderOptions) {
    super(options.log, "audience events");
    this.now = options.now ?? Date.now;
    this.salts = new VisitorSalts(options.db, options.timeZone, this.now);
    this.siteOrigin = new URL(options.siteOrigin).origin;
    this.siteHost = new URL(options.siteOrigin).hostname;
  }

  /** Records one counted load: hashed, classified and buffered at once; written by the next flush. */
  record(load: AudienceLoad) {
    const at = load.at ?? this.now();
    const client = this.clientOf(at, load.address, load.userAgent);
    const loads = this.loads;
    loads.at.push(at);
    loads.path.push(load.path);
    loads.slug.push(load.articleSlug === undefined ? articleSlugFromPath(load.path) : load.articleSlug);
    loads.day.push(client.day);
    loads.visitor.push(client.visitor);
    loads.client.push(client.client);
    loads.source.push(this.sourceOf(load.referrer ?? "", load.query ?? ""));
    loads.device.push(client.device);
    if (loads.at.length >= (this.options.maxBuffered ?? AUDIENCE_FLUSH_AT)) void this.flush();
  }

  /** Records a story page's reading report (a page that is not a public story's is dropped at the flush). */
  recordRead(report: AudienceReadReport) {
    const slug = articleSlugFromPath(report.path.split("?")[0]!);
    if (!slug) return;
    const at = report.at ?? this.now();
    const client = this.clientOf(at, report.address, report.userAgent);
    if (this.reads.length >= MAX_PENDING_AUDIENCE) this.reads.shift();
    this.reads.push({ at, slug, day: client.day, visitor: client.visitor, client: client.client, loadId: report.loadId, engagedMs: report.engagedMs, depth: report.depth });
  }

  /** Loads not yet written. */
  pendingLoads() {
    return this.loads.at.length;
  }

  /** Reading reports not yet written. */
  pendingReads() {
    return this.reads.length;
  }

  /** The client's hash (hex) today, from memory, or its "address\nagent" until the day's salt is read. */
  private clientOf(at: number, address: string, userAgent: string) {
    const key = `${address}\n${userAgent}`;
    const salt = this.salts.cached(at);
    if (!salt) return { day: this.salts.dayOf(at), visitor: null, client: key, device: deviceOf(userAgent) };
    if (this.hashDay !== salt.day) {
      this.known = new Map();
      this.hashDay = salt.day;
    }
    let known = this.known.get(key);
    if (!known) {
      if (this.known.size >= MAX_KNOWN_CLIENTS) this.known = new Map();
      known = { visitor: visitorHash(salt.salt, this.siteOrigin, address, userAgent).toString("hex"), device: deviceOf(userAgent) };
      this.known.set(key, known);
    }
    return { day: salt.day, visitor: known.visitor, client: null, device: known.device };
  }

  private sourceOf(referrer: string, query: string | URLSearchParams): LoadSource {
    if (typeof query !== "string") return sourceOf({ referrer, query, siteHost: this.siteHost });
    const key = `${referrer}\n${query}`;
    let source = this.sources.get(key);
    if (!source) {
      if (this.sources.size >= MAX_KNOWN_SOURCES) this.sources = new Map();
      source = sourceOf({ referrer, query, siteHost: this.siteHost });
      this.sources.set(key, source);
    }
    return source;
  }

  /** Reads today's salt now, so the first loads are hashed as they arrive. */
  override async start(intervalMs = 1000) {
    await this.salts.salt().catch((error: unknown) => this.options.log.warn({ err: error }, "could not read today's audience salt; will try again"));
    super.start(intervalMs);
  }

  /** Each second: today's salt read ahead of the loads if the day changed, then a flush. */
  protected override async tick() {
    if (!this.salts.cached()) await this.salts.salt().catch(() => {});
    await this.flush();
  }

  /** Writes everything buffered so far; concurrent calls share one write. Then a change notice, if one is due. */
  override async flush(): Promise<void> {
    await super.flush();
    await this.notice();
  }

  protected take(): AudienceBatch | null {
    if (this.loads.at.length === 0 && this.reads.length === 0) return null;
    const batch = { loads: this.loads, reads: this.reads };
    this.loads = emptyLoads();
    this.reads = [];
    return batch;
  }

  protected async write({ loads, reads }: AudienceBatch) {
    const wrote = await this.writeMakingPartitions(loads, reads);
    if (wrote > 0) this.noticeDue = true;
  }

  protected override droppedFields({ loads, reads }: AudienceBatch) {
    return { loads: loads.at.length, reads: reads.length };
  }

  protected putBack({ loads, reads }: AudienceBatch) {
    this.loads = newestLoads(concatLoads(loads, this.loads), MAX_PENDING_AUDIENCE);
    this.reads = reads.concat(this.reads).slice(-MAX_PENDING_AUDIENCE);
  }

  /** At most one notice per AUDIENCE_NOTICE_MS; a due one goes at the first flush after that. */
  private async notice() {
    const now = this.now();
    if (!this.noticeDue || now - this.lastNoticeAt < AUDIENCE_NOTICE_MS) return;
    this.noticeDue = false;
    this.lastNoticeAt = now;
    await this.options.db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, ${AUDIENCE_NOTICE})`).catch((error: unknown) => this.options.log.warn({ err: error }, "could not send the audience change notice"));
  }

  private async writeMakingPartitions(loads: LoadColumns, reads: PendingRead[]): Promise<number> {
    await this.hashPending(loads, reads);
    try {
      return await this.insert(loads, reads);
    } catch (error) {
      if (!isMissingPartition(error)) throw error;
      const first = Math.min(...loads.at.slice(0, 10_000), ...reads.slice(0, 10_000).map((read) => read.at), this.now());
      this.options.log.warn({ from: utcDay(first) }, "making the audience tables' missing partitions");
      await this.options.db.execute(
        sql`select audience_make_partitions(least(${utcDay(first)}::date, (now() at time zone 'UTC')::date - 1), (now() at time zone 'UTC')::date + 7)`,
      );
      return await this.insert(loads, reads);
    }
  }

  /** Hashes the loads and reads that came before their day's salt was in memory (a past day's salt gone: they are dropped). */
  private async hashPending(loads: LoadColumns, reads: PendingRead[]) {
    const salts = new Map<string, Buffer | null>();
    const saltOf = async (at: number, day: string) => {
      if (!salts.has(day)) salts.set(day, (await this.salts.salt(at))?.salt ?? null);
      return salts.get(day)!;
    };
    for (let i = 0; i < loads.at.length; i++) {
      const client = loads.client[i];
      if (client === null || client === undefined) continue;
      const salt = await saltOf(loads.at[i]!, loads.day[i]!);
      const address = client.slice(0, client.indexOf("\n"));
      loads.visitor[i] = salt ? visitorHash(salt, this.siteOrigin, address, client.slice(address.length + 1)).toString("hex") : null;
      loads.client[i] = null;
    }
    for (const read of reads) {
      if (read.client === null) continue;
      const salt = await saltOf(read.at, read.day);
      const address = read.client.slice(0, read.client.indexOf("\n"));
      read.visitor = salt ? visitorHash(salt, this.siteOrigin, address, read.client.slice(address.length + 1)).toString("hex") : null;
      read.client = null;
    }
  }

  // sql.param keeps each array one parameter; a bare array in drizzle's sql`` is expanded into a list.
  private async insert(loads: LoadColumns, pendingReads: PendingRead[]): Promise<number> {
    const reads = pendingReads.filter((read) => read.visitor !== null);
    const slugs = [...new Set([...loads.slug.filter((slug): slug is string => slug !== null), ...reads.map((read) => read.slug)])];
    return this.options.db.transaction(async (tx) => {
      const ids = new Map<string, string>();
      if (slugs.length > 0) {
        const found = await tx.execute<{ id: string; slug: string }>(
          sql`select id, slug from articles where slug = any(${sql.param(slugs)}::text[]) and ${publiclyVisibleSql()}`,
        );
        for (const row of found.rows) ids.set(row.slug, row.id);
      }
      // The day's visitors each load would add: the site's (NO_STORY) and its story's.
      const keyOf = (day: string, visitor: string, article: string) => `${day} ${visitor} ${article}`;
      const wanted = new Map<string, [string, string, string]>();
      const kept: number[] = [];
      for (let i = 0; i < loads.at.length; i++) {
        const visitor = loads.visitor[i];
        if (!visitor) continue;
        kept.push(i);
        const day = loads.day[i]!;
        wanted.set(keyOf(day, visitor, NO_STORY), [day, visitor, NO_STORY]);
        const article = loads.slug[i] ? ids.get(loads.slug[i]!) : undefined;
        if (article) wanted.set(keyOf(day, visitor, article), [day, visitor, article]);
      }
      const fresh = new Set<string>();
      const keys = [...wanted.values()];
      for (let i = 0; i < keys.length; i += 5000) {
        const chunk = keys.slice(i, i + 5000);
        const inserted = await tx.execute<{ day: string; visitor: string; article_id: string }>(sql`
          insert into audience_day_visitors (day, visitor, article_id)
          select v.day, decode(v.visitor, 'hex'), v.article_id
          from unnest(${sql.param(chunk.map((k) => k[0]))}::text[], ${sql.param(chunk.map((k) => k[1]))}::text[], ${sql.param(chunk.map((k) => k[2]))}::uuid[]) as v(day, visitor, article_id)
          on conflict do nothing
          returning day, encode(visitor, 'hex') as visitor, article_id`);
        for (const row of inserted.rows) fresh.add(keyOf(row.day, row.visitor, row.article_id));
      }
      // The first load of a key in this batch takes its "new" flag (delete answers whether it was there).
      for (let c = 0; c < kept.length; c += 1000) {
        const chunk = kept.slice(c, c + 1000);
        const article = chunk.map((i) => (loads.slug[i] ? (ids.get(loads.slug[i]!) ?? null) : null));
        const newVisitor = chunk.map((i) => fresh.delete(keyOf(loads.day[i]!, loads.visitor[i]!, NO_STORY)));
        const newStoryVisitor = chunk.map((i, n) => article[n] !== null && fresh.delete(keyOf(loads.day[i]!, loads.visitor[i]!, article[n]!)));
        const source = chunk.map((i) => loads.source[i]!);
        await tx.execute(sql`
          insert into audience_events (at, path, article_id, visitor, new_visitor, new_story_visitor, source, source_host, utm_source, utm_medium, utm_campaign, ref, device)
          select v.at, v.path, v.article_id, decode(v.visitor, 'hex'), v.new_visitor, v.new_story_visitor, v.source, v.source_host, v.utm_source, v.utm_medium, v.utm_campaign, v.ref, v.device
          from unnest(
            ${sql.param(chunk.map((i) => iso(loads.at[i]!)))}::timestamptz[],
            ${sql.param(chunk.map((i) => loads.path[i]!))}::text[],
            ${sql.param(article)}::uuid[],
            ${sql.param(chunk.map((i) => loads.visitor[i]!))}::text[],
            ${sql.param(newVisitor)}::boolean[],
            ${sql.param(newStoryVisitor)}::boolean[],
            ${sql.param(source.map((s) => s.source))}::text[],
            ${sql.param(source.map((s) => s.sourceHost))}::text[],
            ${sql.param(source.map((s) => s.utmSource))}::text[],
            ${sql.param(source.map((s) => s.utmMedium))}::text[],
            ${sql.param(source.map((s) => s.utmCampaign))}::text[],
            ${sql.param(source.map((s) => s.ref))}::text[],
            ${sql.param(chunk.map((i) => loads.device[i]!))}::text[]
          ) as v(at, path, article_id, visitor, new_visitor, new_story_visitor, source, source_host, utm_source, utm_medium, utm_campaign, ref, device)`);
      }
      const stored = reads.filter((read) => ids.has(read.slug));
      for (let c = 0; c < stored.length; c += 1000) {
        const chunk = stored.slice(c, c + 1000);
        await tx.execute(sql`
          insert into audience_reads (at, article_id, visitor, load_id, engaged_ms, depth)
          select v.at, v.article_id, decode(v.visitor, 'hex'), v.load_id, v.engaged_ms, v.depth
          from unnest(
            ${sql.param(chunk.map((read) => iso(read.at)))}::timestamptz[],
            ${sql.param(chunk.map((read) => ids.get(read.slug)!))}::uuid[],
            ${sql.param(chunk.map((read) => read.visitor!))}::text[],
            ${sql.param(chunk.map((read) => read.loadId))}::uuid[],
            ${sql.param(chunk.map((read) => read.engagedMs))}::int[],
            ${sql.param(chunk.map((read) => read.depth))}::smallint[]
          ) as v(at, article_id, visitor, load_id, engaged_ms, depth)`);
      }
      return kept.length + stored.length;
    });
  }
}
