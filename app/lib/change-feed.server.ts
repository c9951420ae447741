import { EventEmitter } from "node:events";
import pg from "pg";
import type { Logger } from "./logger.server";

export const CHANGE_CHANNEL = "frontpage_changes";

export interface ChangeEvent {
  table: string;
  op: string;
  /** For comments: the slugs of the articles whose comments changed (absent: any page may have changed). */
  articles?: string[];
}

/**
 * Listens on PostgreSQL's change channel (fed by triggers on the content tables) and re-emits each
 * change in this process: the page cache and the admin dashboard stream subscribe here.
 */
export class ChangeFeed extends EventEmitter<{ change: [ChangeEvent] }> {
  private client: pg.Client | null = null;
  private closed = false;

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
        this.emit("change", JSON.parse(message.payload ?? "{}") as ChangeEvent);
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

  async stop() {
    this.closed = true;
    await this.client?.end().catch(() => {});
  }
}
