import type { Db } from "~/db/client.server";
import type { ChangeFeed } from "~/lib/change-feed.server";
import type { Logger } from "~/lib/logger.server";
import { normalizeRedirectTarget, redirectKeysOf } from "./redirect-paths";
import { isRedirectablePath, loadRedirectEntries } from "./redirects.server";
import type { RedirectStatusCode } from "./redirects.schema";

/** What a request is answered with instead of a page. */
export interface RedirectAnswer {
  id: number;
  statusCode: RedirectStatusCode;
  location: string;
}

interface Entry {
  id: number;
  statusCode: RedirectStatusCode;
  toPath: string;
}

/** How long after a failed load the table tries again (the database was down when the process started). */
const RETRY_MS = 5000;

/**
 * Every redirect, in this process's memory (decision 0040): loaded at start and again whenever a
 * change notice names the `redirects` table (or the change feed reconnected), so a request that is
 * no redirect costs one or two Map lookups, never a query. Each process keeps its own; the notices
 * reach them all (decision 0027).
 */
export class RedirectTable {
  private byFrom = new Map<string, Entry>();
  /** Whether any stored old address has a query (else a request's query is never looked at). */
  private withQueries = false;
  private loading: Promise<void> | null = null;
  private again = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  get size() {
    return this.byFrom.size;
  }

  /**
   * The redirect answering a GET or HEAD of `url` (its path and query as sent), or null: its path and
   * query, then its path alone, a trailing slash never counting. Matched by its path alone, the
   * request's query goes on to a target that has none (campaign tags survive the move).
   */
  answerFor(url: string): RedirectAnswer | null {
    if (this.byFrom.size === 0) return null;
    const keys = redirectKeysOf(url, this.withQueries);
    for (let i = 0; i < keys.length; i++) {
      const entry = this.byFrom.get(keys[i]!);
      if (!entry) continue;
      const queryAt = url.indexOf("?");
      const byPathAlone = !keys[i]!.includes("?");
      const query = queryAt === -1 ? "" : url.slice(queryAt);
      // Only a query of plain visible ASCII goes into the Location header as it was sent.
      const passOn = byPathAlone && query.length > 1 && !/[?#]/.test(entry.toPath) && /^[\x21-\x7e]*$/.test(query) ? query : "";
      return { id: entry.id, statusCode: entry.statusCode, location: entry.toPath + passOn };
    }
    return null;
  }

  /** Reads every redirect again; calls made while a read runs share one more read after it. */
  reload(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.again = false;
        await this.load();
      } while (this.again);
    })().finally(() => (this.loading = null));
    return this.loading;
  }

  private async load() {
    try {
      const byFrom = new Map<string, Entry>();
      let withQueries = false;
      for (const row of await loadRedirectEntries(this.db)) {
        // Rows written around the service (plain SQL) are held to its rules here: never the site's own
        // addresses, never a Location that is no URL.
        if (!isRedirectablePath(row.fromPath) || normalizeRedirectTarget(row.toPath) !== row.toPath) continue;
        byFrom.set(row.fromPath, { id: row.id, statusCode: row.statusCode, toPath: row.toPath });
        if (row.fromPath.includes("?")) withQueries = true;
      }
      this.byFrom = byFrom;
      this.withQueries = withQueries;
    } catch (error) {
      this.log.error({ err: error }, "could not load the redirects; keeping the ones loaded before and trying again");
      if (!this.retry) {
        this.retry = setTimeout(() => {
          this.retry = null;
          void this.reload();
        }, RETRY_MS);
        this.retry.unref();
      }
    }
  }

  /** Reloads whenever a notice names the redirects table, or the feed reconnected (a notice may be lost). */
  watch(changes: ChangeFeed) {
    changes.on("change", (event) => {
      if (event.table === "redirects" || event.table === "*") void this.reload();
    });
  }

  stop() {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }
}
