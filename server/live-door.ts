import type http from "node:http";
import { and, eq } from "drizzle-orm";
import { publiclyVisible } from "../app/db/article-visibility";
import type { Db } from "../app/db/client.server";
import { articles } from "../app/db/schema";
import { liveChangesSince, latestLiveVersion, type LiveChange } from "../app/domain/live/live-read.server";
import { isLive, type LiveStreamEvent } from "../app/domain/live/live-updates";
import { PUBLIC_STORY, type StoryAccess } from "../app/domain/members/access";
import type { ChangeEvent, ChangeFeed } from "../app/lib/change-feed.server";
import { isUuid } from "../app/lib/ids";
import type { Logger } from "../app/lib/logger.server";
import type { SecurityHeaderWriter } from "./middleware/security-headers";

/** Where the reader streams are asked for (app/domain/live/live-updates.ts liveStreamPath). */
const PREFIX = "/api/live/";
/** How many missed changes a reconnecting reader is sent at most (the oldest first; it keeps up from there). */
export const LIVE_CATCH_UP_LIMIT = 200;
/** Open streams a process holds at most; past it a reader hears 503 and its browser tries again (another process, or later). */
export const LIVE_STREAM_LIMIT = 10_000;
/**
 * Open streams one client address may hold in a process: a page holds one, so this is room for an
 * office or a carrier's shared address, while one machine cannot take the whole LIVE_STREAM_LIMIT.
 */
export const LIVE_STREAMS_PER_ADDRESS = 200;
const TOO_MANY_HERE = JSON.stringify({ error: "Too many live streams are open from your address; close some pages and try again." });
/** A proxy or a phone's carrier drops a connection silent for a minute or so: a comment line every 25 s keeps it. */
export const LIVE_PING_MS = 25_000;
/** How long a sent version counts as recent: a write slower than this from its version to its commit is not looked for again. */
export const LIVE_SETTLE_MS = 5_000;
/** A reader this far behind (bytes waiting to be sent to it) is cut off: it reconnects with its Last-Event-ID and catches up from the database. */
export const LIVE_MAX_BUFFERED_BYTES = 1024 * 1024;

const RETRY = Buffer.from("retry: 2000\n\n");
const PING = Buffer.from(": ping\n\n");
const NOT_FOUND = JSON.stringify({ error: "There is no live coverage here." });
const TOO_MANY = JSON.stringify({
  error: "Too many readers are connected to this server; try again in a moment.",
});
const UNAVAILABLE = JSON.stringify({
  error: "The live updates cannot be read right now; try again in a moment.",
});
const NOT_ALLOWED = JSON.stringify({ error: "Only GET is allowed here." });
/** A gated story's stream asked for by a reader without access (issue 40): its updates are part of the gated content. */
export const GATED_FOR_MEMBERS = JSON.stringify({ error: "The live updates of this story are for members: sign in to follow them." });
export const GATED_FOR_SUBSCRIBERS = JSON.stringify({ error: "The live updates of this story are for paying subscribers." });

/** What a story's streams share in this process: its live state as last read, and the newest version sent to them. */
interface Story {
  id: string;
  /** The open responses: only the Set holds them (no closure, timer or buffer per reader). */
  readers: Set<http.ServerResponse>;
  /** The newest update version this process has sent the story's readers. */
  version: number;
  /**
   * The versions sent in the last LIVE_SETTLE_MS (version → when), and the newest version sent before
   * them: a write takes its version when it starts and is seen when it commits, so one that took a
   * smaller number can commit just after a larger one was sent. Each read starts below the recent
   * ones (at `settled`) and skips what was sent, so such a late change still reaches the readers.
   */
  recent: Map<number, number>;
  settled: number;
  startedAt: Date | null;
  endedAt: Date | null;
  /** Who may read it whole (issue 40): a gated story's streams open only for readers with access. */
  access: StoryAccess;
  /** The story's reads, one after the other: two notices never race, and versions only grow. */
  chain: Promise<unknown>;
  /** Readers being opened (their catch-up not sent yet): the entry stays while there are some. */
  joining: number;
}

/** Which story an open response reads: a property on the response (no per-connection closure or WeakMap entry). */
const STORY = Symbol("live story");
/** The client address a stream counts under (LIVE_STREAMS_PER_ADDRESS). */
const ADDRESS = Symbol("live reader address");
type StreamResponse = http.ServerResponse & { [STORY]?: Story; [ADDRESS]?: string };

export interface LiveDoor {
  /** Answers a request for /api/live/… (true), or leaves it to the next door (false). */
  (req: http.IncomingMessage, res: http.ServerResponse): boolean;
  /** Ends every open stream and its connection (shutdown: browsers reconnect to another process). */
  endAll(): void;
  /** Open streams in this process (of one story when named). */
  openStreams(storyId?: string): number;
  /** Stops hearing change notices and ends the streams (tests; shutdown ends streams through endAll). */
  close(): void;
}

/**
 * The reader event stream of live stories (issue 31): `GET /api/live/{articleId}`, answered where the
 * request arrives, before Express (like the redirects' and the page cache's doors), with raw writes,
 * so an idle reader costs this process little more than its socket.
 *
 * One hub per process holds each story's open responses. It reacts to the change feed only (no timer
 * reads the database): on a `live_updates` notice naming a story with readers, the changes since the
 * version last sent are read ONCE, framed once as server-sent events, and the same bytes are written
 * to every reader of the story. A change to the story itself (its live state, its visibility) is read
 * again on the articles notice naming it; after the feed reconnected, everything is read again.
 *
 * Wire protocol: app/domain/live/live-updates.ts (LiveStreamEvent) and notes of issue 31: `retry:`,
 * then the changes missed since `Last-Event-ID` (or `?after=`), then `id: {version}` + `data: {json}`
 * per change, `data: {"type":"state",…}` when the coverage ends or restarts, `: ping` every 25 s.
 */
export function liveDoor(options: {
  db: Db;
  changes: ChangeFeed;
  writeSecurityHeaders: SecurityHeaderWriter;
  log: Logger;
  maxStreams?: number;
  maxPerAddress?: number;
  /** The client's address as the app derives it (behind a trusted proxy, from X-Forwarded-For); default the socket's. */
  addressOf?: (req: http.IncomingMessage) => string;
  pingMs?: number;
  maxBufferedBytes?: number;
  /**
   * Whether the asking reader may read a gated story whole (issue 40): their staff or member session,
   * checked in the database (server/index.ts: requestMayRead). Absent: nobody may (a gated story's
   * stream is then refused to all).
   */
  mayReadWhole?: (req: http.IncomingMessage, access: StoryAccess) => Promise<boolean>;
}): LiveDoor {
  const { db, log } = options;
  const maxStreams = options.maxStreams ?? LIVE_STREAM_LIMIT;
  const maxPerAddress = options.maxPerAddress ?? LIVE_STREAMS_PER_ADDRESS;
  const addressOf = options.addressOf ?? ((req: http.IncomingMessage) => req.socket.remoteAddress ?? "unknown");
  /** Open streams by client address. */
  const byAddress = new Map<string, number>();
  const pingMs = options.pingMs ?? LIVE_PING_MS;
  const maxBuffered = options.maxBufferedBytes ?? LIVE_MAX_BUFFERED_BYTES;
  const stories = new Map<string, Story>();
  /** Stories being looked up for a first reader: later readers of the same story wait for the same read. */
  const opening = new Map<string, Promise<Story | null>>();
  let open = 0;
  let pinger: NodeJS.Timeout | null = null;

  /**
   * Writes to one reader. One still holding more than the bound unsent when the next event comes (it
   * stopped reading, or reads slower than the story changes) is cut off: it reconnects with its
   * Last-Event-ID and catches up from the database instead of from this process's memory.
   */
  const send = (res: http.ServerResponse, bytes: Buffer) => {
    if (res.destroyed || res.writableEnded) return;
    if (res.writableLength > maxBuffered) res.destroy();
    else res.write(bytes);
  };
  const broadcast = (story: Story, bytes: Buffer) => {
    for (const res of story.readers) send(res, bytes);
  };

  // One timer for every stream of the process, running only while there are some.
  const ping = () => {
    for (const story of stories.values()) broadcast(story, PING);
  };
  const startPinging = () => {
    if (pinger) return;
    pinger = setInterval(ping, pingMs);
    pinger.unref();
  };
  const stopPingingIfIdle = () => {
    if (open > 0 || !pinger) return;
    clearInterval(pinger);
    pinger = null;
  };

  /** A story nobody reads or is opening any more leaves the hub (a later reader reads it afresh). */
  const forgetIfIdle = (story: Story) => {
    if (story.readers.size === 0 && story.joining === 0 && stories.get(story.id) === story) stories.delete(story.id);
  };

  // One function for every response's 'close' (no closure per reader): the response says its story.
  function onClose(this: StreamResponse) {
    const story = this[STORY];
    if (!story || !story.readers.delete(this)) return;
    open--;
    this[STORY] = undefined;
    const address = this[ADDRESS];
    if (address !== undefined) {
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    }
    forgetIfIdle(story);
    stopPingingIfIdle();
  }

  /** Runs `step` after the story's earlier reads (a failure is logged, and the chain goes on). */
  const serially = (story: Story, step: () => Promise<void>) => {
    const next = story.chain.then(step).catch((error: unknown) => log.warn({ err: error, articleId: story.id }, "could not read a live story's changes"));
    story.chain = next;
    return next;
  };

  /** The story's row as readers may see it, or null when it is not public (or does not exist). */
  const readStory = async (id: string) => {
    const [row] = await db
      .select({
        startedAt: articles.liveStartedAt,
        endedAt: articles.liveEndedAt,
        access: articles.access,
        accessTierId: articles.accessTierId,
      })
      .from(articles)
      .where(and(eq(articles.id, id), publiclyVisible()))
      .limit(1);
    if (!row) return null;
    const access: StoryAccess = row.access === "public" ? PUBLIC_STORY : { level: row.access, tierId: row.access === "paid" ? row.accessTierId : null };
    return { startedAt: row.startedAt, endedAt: row.endedAt, access };
  };

  /** Sends the story's readers every change after the version last sent, read once for all of them. */
  const pushChanges = (story: Story) =>
    serially(story, async () => {
      if (story.readers.size === 0) return;
      const now = Date.now();
      for (const [version, at] of story.recent) {
        if (now - at <= LIVE_SETTLE_MS) continue;
        story.recent.delete(version);
        story.settled = Math.max(story.settled, version);
      }
      const from = story.recent.size > 0 ? story.settled : story.version;
      const read = await liveChangesSince(db, story.id, from, LIVE_CATCH_UP_LIMIT);
      const changes = read.filter((change) => !story.recent.has(versionOf(change)) && (story.recent.size > 0 || versionOf(change) > story.version));
      if (changes.length > 0) {
        for (const change of changes) {
          const version = versionOf(change);
          story.recent.set(version, now);
          story.version = Math.max(story.version, version);
        }
        broadcast(story, frameChanges(changes));
      }
      // More than one read's worth (a burst, or a long disconnection of the feed): the rest now.
      if (read.length === LIVE_CATCH_UP_LIMIT && changes.length > 0) void pushChanges(story);
    });

  /** Reads the story's live state again: ended or restarted, its readers hear it; no longer public, their streams end. */
  const refreshState = (story: Story) =>
    serially(story, async () => {
      if (story.readers.size === 0) return;
      const row = await readStory(story.id);
      if (!row || row.startedAt === null) {
        // Unpublished (or no longer a live story): its readers' browsers hear 404 when they reconnect, and stop.
        for (const res of story.readers) res.end();
        return;
      }
      const wasLive = isLive(story);
      story.startedAt = row.startedAt;
      story.endedAt = row.endedAt;
      if (!sameAccess(story.access, row.access)) {
        story.access = row.access;
        // Now gated (or gated otherwise): every stream ends, and each browser that reconnects is checked again.
        if (row.access.level !== "public") {
          for (const res of story.readers) res.end();
          return;
        }
      }
      if (wasLive !== isLive(story)) broadcast(story, frameState(story));
    });

  const onChange = (event: ChangeEvent) => {
    if (stories.size === 0) return;
    if (event.table === "*") {
      // The feed reconnected: a notice may have been missed while it was down.
      for (const story of stories.values()) {
        void refreshState(story);
        void pushChanges(story);
      }
      return;
    }
    if (event.table === "live_updates") {
      if (!event.live) for (const story of stories.values()) void pushChanges(story);
      else
        for (const { id, version } of event.live) {
          const story = stories.get(id);
          // Not only a newer version: a write that took a smaller one may commit after (Story.recent).
          if (story && (version > story.version || !story.recent.has(version))) void pushChanges(story);
        }
      return;
    }
    if (event.public) {
      for (const id of event.public.ids) {
        const story = stories.get(id);
        if (story) void refreshState(story);
      }
    } else if (event.table === "articles") {
      for (const story of stories.values()) void refreshState(story);
    }
  };
  options.changes.on("change", onChange);

  /** The story's hub entry, read for its first reader (null: not public, or never live). */
  const storyOf = (id: string): Promise<Story | null> => {
    const known = stories.get(id);
    if (known) return Promise.resolve(known);
    let pending = opening.get(id);
    if (!pending) {
      pending = (async () => {
        // The version first: a change committed between the two reads is then sent by its notice.
        const version = await latestLiveVersion(db, id);
        const row = await readStory(id);
        if (!row || row.startedAt === null) return null;
        const story: Story = {
          id,
          readers: new Set(),
          version,
          recent: new Map(),
          settled: version,
          startedAt: row.startedAt,
          endedAt: row.endedAt,
          access: row.access,
          chain: Promise.resolve(),
          joining: 0,
        };
        stories.set(id, story);
        return story;
      })().finally(() => opening.delete(id));
      opening.set(id, pending);
    }
    return pending;
  };

  const refuse = (res: http.ServerResponse, status: number, body: string, extra: string[] = []) => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, [
      ...options.writeSecurityHeaders.flat(null),
      "Content-Type",
      "application/json; charset=utf-8",
      "Cache-Control",
      "no-store",
      "Content-Length",
      String(Buffer.byteLength(body)),
      ...extra,
    ]);
    res.end(body);
  };

  const start = async (req: http.IncomingMessage, res: StreamResponse, id: string, after: number | null) => {
    let story: Story | null;
    try {
      story = await storyOf(id);
    } catch (error) {
      log.warn({ err: error, articleId: id }, "could not open a live stream");
      return refuse(res, 503, UNAVAILABLE, ["Retry-After", "5"]);
    }
    if (!story) return refuse(res, 404, NOT_FOUND);
    story.joining++;
    try {
      // A gated story: only a reader with access hears its updates (no text, no notice to others: 403,
      // and the browser's EventSource gives up). Checked at each opening; a change of the story's
      // access ends its streams (refreshState), so every reader is checked again.
      if (story.access.level !== "public") {
        const access = story.access;
        const allowed = options.mayReadWhole ? await options.mayReadWhole(req, access).catch((error: unknown) => {
          log.warn({ err: error, articleId: story!.id }, "could not check a reader of a gated live story");
          return false;
        }) : false;
        if (!allowed) return refuse(res, 403, access.level === "members" ? GATED_FOR_MEMBERS : GATED_FOR_SUBSCRIBERS);
      }
      await openStream(req, res, story, after);
    } finally {
      story.joining--;
      forgetIfIdle(story);
    }
  };

  const openStream = async (req: http.IncomingMessage, res: StreamResponse, story: Story, after: number | null) => {
    if (res.destroyed || req.destroyed) return;
    if (open >= maxStreams) return refuse(res, 503, TOO_MANY, ["Retry-After", "10"]);
    const address = addressOf(req);
    if ((byAddress.get(address) ?? 0) >= maxPerAddress) return refuse(res, 429, TOO_MANY_HERE, ["Retry-After", "30"]);
    res.writeHead(200, [
      ...options.writeSecurityHeaders.flat(null),
      "Content-Type",
      "text/event-stream; charset=utf-8",
      "Cache-Control",
      "no-store, no-transform",
      "X-Accel-Buffering",
      "no",
    ]);
    res.write(RETRY);
    const join = (joined: Story) => {
      if (res.destroyed || res.writableEnded) return;
      res[STORY] = joined;
      res[ADDRESS] = address;
      byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
      joined.readers.add(res);
      open++;
      res.on("close", onClose);
      startPinging();
      // It opened on an ended story (a page rendered before the end): it hears so at once.
      if (!isLive(joined)) send(res, frameState(joined));
    };
    // Nothing missed, or nothing the hub has not sent yet: it joins at once and hears what comes next.
    if (after === null || after >= story.version) return join(story);
    // A catch-up, read in the story's chain: what it misses is exactly what was sent before it joins.
    const joining = story;
    await serially(joining, async () => {
      if (res.destroyed) return;
      const missed = (await liveChangesSince(db, joining.id, after, LIVE_CATCH_UP_LIMIT)).filter((change) => versionOf(change) <= joining.version);
      if (missed.length > 0) send(res, frameChanges(missed));
      // The story's last reader may have left while this read ran: it then has a new hub entry (or none).
      const current = stories.get(joining.id);
      if (current === joining) join(joining);
      else if (!res.destroyed) res.end();
    });
    // The catch-up could not be read: the reader's browser reconnects (with its position) and tries again.
    if (res[STORY] === undefined && !res.destroyed && !res.writableEnded) res.end();
  };

  const door = ((req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = req.url ?? "/";
    if (!url.startsWith(PREFIX)) return false;
    const queryAt = url.indexOf("?");
    let id = url.slice(PREFIX.length, queryAt === -1 ? url.length : queryAt);
    while (id.endsWith("/")) id = id.slice(0, -1);
    // Only the stream itself: deeper paths (/api/live/x/y) are anyone's 404 page.
    if (id.includes("/")) return false;
    if (req.method !== "GET") {
      refuse(res, 405, NOT_ALLOWED, ["Allow", "GET"]);
      return true;
    }
    if (!isUuid(id)) {
      refuse(res, 404, NOT_FOUND);
      return true;
    }
    const after = positionOf(req.headers["last-event-id"], queryAt === -1 ? "" : url.slice(queryAt + 1));
    start(req, res, id.toLowerCase(), after).catch((error: unknown) => {
      log.warn({ err: error }, "live stream failed");
      if (!res.headersSent) refuse(res, 503, UNAVAILABLE);
      else res.destroy();
    });
    return true;
  }) as LiveDoor;

  door.endAll = () => {
    for (const story of stories.values()) {
      for (const res of story.readers) {
        res.end();
        // The connection too, once the end is written: a kept-alive one would otherwise hold the
        // server's close until the browser drops it (it reconnects to another process at once).
        res.socket?.end();
      }
    }
  };
  door.openStreams = (storyId?: string) => (storyId === undefined ? open : (stories.get(storyId)?.readers.size ?? 0));
  door.close = () => {
    options.changes.off("change", onChange);
    door.endAll();
    if (pinger) clearInterval(pinger);
    pinger = null;
  };
  return door;
}

/** The reader's position: its browser's Last-Event-ID, else `?after=` (the newest version its page showed); null: none given or unreadable. */
function positionOf(lastEventId: string | string[] | undefined, query: string): number | null {
  const header = Array.isArray(lastEventId) ? lastEventId[0] : lastEventId;
  const raw = header ?? new URLSearchParams(query).get("after");
  if (raw === null || !/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

const sameAccess = (a: StoryAccess, b: StoryAccess) => a.level === b.level && a.tierId === b.tierId;

const versionOf = (change: LiveChange) => (change.deleted ? change.version : change.update.version);

/** Changes as server-sent events, each with its version as the event id, framed once for every reader. */
function frameChanges(changes: LiveChange[]): Buffer {
  let text = "";
  for (const change of changes) {
    const event: LiveStreamEvent = change.deleted ? { type: "delete", id: change.id, version: change.version } : { type: "update", update: change.update };
    // JSON has no raw line breaks (they are escaped), so one data line carries it.
    text += `id: ${versionOf(change)}\ndata: ${JSON.stringify(event)}\n\n`;
  }
  return Buffer.from(text);
}

function frameState(story: { startedAt: Date | null; endedAt: Date | null }): Buffer {
  const event: LiveStreamEvent = {
    type: "state",
    live: isLive(story),
    endedAt: story.endedAt?.toISOString() ?? null,
  };
  return Buffer.from(`data: ${JSON.stringify(event)}\n\n`);
}
