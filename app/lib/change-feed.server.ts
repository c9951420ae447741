import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import pg from "pg";
import type { Logger } from "./logger.server";

export const CHANGE_CHANNEL = "frontpage_changes";

export interface ChangeEvent {
  table: string;
  op: string;
  /** For comments: the slugs of the articles whose comments changed (absent: any page may have changed). */
  articles?: string[];
  /**
   * For articles and their bylines, corrections and old addresses (migration 0016): the public stories
   * the statement changed (published before or after it; none when it changed only drafts or scheduled
   * stories), their addresses and categories before and after, and their authors before and after.
   * Absent: too many to name, and any page may have changed.
   */
  public?: {
    ids: string[];
    slugs: string[];
    categories: string[];
    authors: string[];
    /** The tags on those stories before and after (migration 0027; absent in a notice from before it). */
    tags?: string[];
  };
  /**
   * For story pins (migration 0023): whether a home-page pin (lead or top story) changed, and the
   * slugs of the categories whose page's pin did. Absent: any page may have changed.
   */
  pins?: { home: boolean; categories: string[] };
  /**
   * For the site's settings (migration 0024): true when the statement changed only what the home page
   * alone shows (the welcome banner's switch, Explore Topics).
   */
  homeOnly?: boolean;
  /**
   * For live updates (issue 31, migration 0032): the stories whose updates the statement changed, each
   * with its newest version. Absent: too many to name, and any page may have changed.
   */
  live?: { id: string; slug: string; version: number }[];
}

/**
 * The payload of a signal: a notice between the processes of the site that is not a change (no page
 * is touched), heard as the feed's "signal" event, never as a "change" (issue 39: the CDN answers).
 */
export const signalPayload = (name: string) => JSON.stringify({ signal: name });

/** How long a write waits for its own change notices before it counts them lost (see caughtUp). */
const CAUGHT_UP_TIMEOUT_MS = 2000;

/**
 * Listens on PostgreSQL's change channel (fed by triggers on the content tables) and re-emits each
 * change in this process: the page cache and the admin dashboard stream subscribe here.
 */
export class ChangeFeed extends EventEmitter<{ change: [ChangeEvent]; signal: [string] }> {
  private client: pg.Client | null = null;
  private closed = false;
  /** The marks sent by caughtUp, waiting to come back. */
  private readonly waiting = new Map<string, () => void>();

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {
    super();
    this.setMaxListeners(0);
  }

  async start() {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on("notification", (message) => {
      try {
        const payload = JSON.parse(message.payload ?? "{}") as ChangeEvent | { caughtUp: string } | { signal: string };
        if ("caughtUp" in payload) return void this.waiting.get(payload.caughtUp)?.();
        if ("signal" in payload) return void this.emit("signal", String(payload.signal));
        this.emit("change", payload);
      } catch (error) {
        this.log.warn({ err: error }, "ignoring a malformed change notification");
      }
    });
    client.on("error", (error) => {
      if (this.closed) return;
      this.log.error({ err: error }, "change feed connection lost; reconnecting");
      // A change may have been missed while disconnected: tell listeners to refresh everything.
      setTimeout(() => void this.restart(), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    this.client = client;
  }

  private async restart() {
    if (this.closed) return;
    await this.client?.end().catch(() => {});
    try {
      await this.start();
      this.emit("change", { table: "*", op: "RECONNECT" });
    } catch (error) {
      this.log.error({ err: error }, "change feed could not reconnect");
      setTimeout(() => void this.restart(), 2000).unref();
    }
  }

  /**
   * Whether every change committed before this call has been heard (and handled by the listeners) in
   * this process: it sends a mark on the channel and waits for it to come back, as PostgreSQL delivers
   * notices in the order their transactions committed. A write calls it before answering, so the
   * writer's next page already shows the write (decision 0028). False when the mark is not back within
   * 2 s or the connection is down: the caller must then assume any page changed.
   */
  async caughtUp(): Promise<boolean> {
    const client = this.client;
    if (!client || this.closed) return false;
    const mark = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const back = new Promise<boolean>((resolve) => {
      this.waiting.set(mark, () => resolve(true));
      timer = setTimeout(() => resolve(false), CAUGHT_UP_TIMEOUT_MS);
    });
    try {
      await client.query("select pg_notify($1, $2)", [CHANGE_CHANNEL, JSON.stringify({ caughtUp: mark })]);
      return await back;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(mark);
    }
  }

  async stop() {
    this.closed = true;
    await this.client?.end().catch(() => {});
  }
}
