import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { articles, liveUpdates } from "../app/db/schema";
import type { LiveStreamEvent } from "../app/domain/live/live-updates";
import { ChangeFeed } from "../app/lib/change-feed.server";
import { createLogger } from "../app/lib/logger.server";
import { createTestDatabase } from "../tests/setup/test-database";
import { liveDoor, type LiveDoor } from "./live-door";
import { securityHeaderWriter } from "./middleware/security-headers";

const { db, url } = await createTestDatabase();
const log = createLogger("silent");
const changes = new ChangeFeed(url, log);
const writeSecurityHeaders = securityHeaderWriter({ closing: () => false });

/** A server as server/index.ts chains its doors: the live door, then the app (here a marker). */
async function serve(door: LiveDoor) {
  const server = http.createServer((req, res) => {
    if (!door(req, res)) res.writeHead(299).end("app");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let main: { server: http.Server; origin: string; door: LiveDoor };
let tight: { server: http.Server; origin: string; door: LiveDoor };
const readers: Reader[] = [];

beforeAll(async () => {
  await changes.start();
  const door = liveDoor({ db, changes, writeSecurityHeaders, log });
  main = { ...(await serve(door)), door };
  // A second process's worth of settings: two streams at most, a ping every 100 ms, a reader cut 16 KB behind.
  const small = liveDoor({ db, changes, writeSecurityHeaders, log, maxStreams: 2, pingMs: 100, maxBufferedBytes: 16 * 1024 });
  tight = { ...(await serve(small)), door: small };
});
afterAll(async () => {
  for (const reader of readers) reader.close();
  for (const { server, door } of [main, tight]) {
    door.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await changes.stop();
});

let counter = 0;
/** A published story (live unless told otherwise), dated back a day. */
async function story(values: Partial<typeof articles.$inferInsert> = {}) {
  counter++;
  const [row] = await db
    .insert(articles)
    .values({
      title: `Live story ${counter}`,
      slug: `live-door-story-${counter}`,
      content: "What we know",
      status: "published",
      publishedAt: new Date(Date.now() - 86_400_000),
      liveStartedAt: new Date(Date.now() - 3_600_000),
      ...values,
    })
    .returning({ id: articles.id });
  return row!.id;
}

const doc = (text: string) => ({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });
async function post(articleId: string, text: string, values: Partial<typeof liveUpdates.$inferInsert> = {}) {
  const [row] = await db
    .insert(liveUpdates)
    .values({ articleId, content: text, contentDoc: doc(text), ...values })
    .returning({ id: liveUpdates.id, version: liveUpdates.version });
  return row!;
}
/** An edit as the back office makes one: a new version in the same UPDATE. */
async function edit(id: string, text: string) {
  const [row] = await db
    .update(liveUpdates)
    .set({ content: text, contentDoc: doc(text), editedAt: new Date(), version: sql`nextval('live_update_versions')` })
    .where(eq(liveUpdates.id, id))
    .returning({ version: liveUpdates.version });
  return row!.version;
}
async function remove(id: string) {
  const [row] = await db
    .update(liveUpdates)
    .set({ deletedAt: new Date(), version: sql`nextval('live_update_versions')` })
    .where(eq(liveUpdates.id, id))
    .returning({ version: liveUpdates.version });
  return row!.version;
}

interface Received {
  id: string | null;
  event: LiveStreamEvent;
}

/** A reader's stream read as its bytes come: the raw text, and each `data:` event with its `id:`. */
class Reader {
  text = "";
  events: Received[] = [];
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  ended = false;
  private request: http.ClientRequest;
  private response: http.IncomingMessage | null = null;
  readonly opened: Promise<void>;

  constructor(address: string, headers: Record<string, string> = {}) {
    readers.push(this);
    this.request = http.get(address, { headers: { Accept: "text/event-stream", ...headers } });
    this.opened = new Promise((resolve, reject) => {
      this.request.on("error", (error) => (this.ended ? resolve() : reject(error)));
      this.request.on("response", (response) => {
        this.response = response;
        this.status = response.statusCode ?? 0;
        this.headers = response.headers;
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => this.take(chunk));
        response.on("end", () => (this.ended = true));
        response.on("close", () => (this.ended = true));
        resolve();
      });
    });
  }

  private pending = "";
  private take(chunk: string) {
    this.text += chunk;
    this.pending += chunk;
    let end: number;
    while ((end = this.pending.indexOf("\n\n")) !== -1) {
      const block = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 2);
      let id: string | null = null;
      let data: string | null = null;
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) id = line.slice(4);
        else if (line.startsWith("data: ")) data = line.slice(6);
      }
      if (data !== null) this.events.push({ id, event: JSON.parse(data) as LiveStreamEvent });
    }
  }

  async until(check: (reader: Reader) => boolean, what: string) {
    for (let i = 0; i < 150; i++) {
      if (check(this)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`the stream never showed ${what}: ${JSON.stringify(this.text.slice(0, 2000))}`);
  }

  close() {
    this.ended = true;
    this.request.destroy();
    this.response?.destroy();
  }
}

async function open(origin: string, articleId: string, headers: Record<string, string> = {}, query = "") {
  const reader = new Reader(`${origin}/api/live/${articleId}${query}`, headers);
  await reader.opened;
  return reader;
}
/** Until the door's hub holds `count` streams of the story (a stream joins once its catch-up is sent). */
async function untilOpen(door: LiveDoor, articleId: string, count: number) {
  for (let i = 0; i < 150 && door.openStreams(articleId) !== count; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(door.openStreams(articleId)).toBe(count);
}

describe("a live story's reader stream", () => {
  test("opens as server-sent events: the headers, the security headers, retry first, and nothing missed without a position", async () => {
    const id = await story();
    await post(id, "Before the reader came");
    const reader = await open(main.origin, id);
    expect(reader.status).toBe(200);
    expect(reader.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(reader.headers["cache-control"]).toBe("no-store, no-transform");
    expect(reader.headers["x-accel-buffering"]).toBe("no");
    expect(reader.headers["x-content-type-options"]).toBe("nosniff");
    await reader.until((r) => r.text.length > 0, "its first bytes");
    await untilOpen(main.door, id, 1);
    expect(reader.text).toBe("retry: 2000\n\n");
    reader.close();
  });

  test("a reader coming back hears what it missed, in version order: from Last-Event-ID, else from ?after=", async () => {
    const id = await story();
    const first = await post(id, "One");
    const second = await post(id, "Two");
    const third = await post(id, "Three");
    const byHeader = await open(main.origin, id, { "Last-Event-ID": String(first.version) });
    await byHeader.until((r) => r.events.length === 2, "two missed updates");
    expect(byHeader.events.map((e) => e.id)).toEqual([String(second.version), String(third.version)]);
    expect(byHeader.events.map((e) => (e.event.type === "update" ? e.event.update.text : null))).toEqual(["Two", "Three"]);
    expect(byHeader.text.startsWith("retry: 2000\n\nid: ")).toBe(true);
    const byQuery = await open(main.origin, id, {}, `?after=${second.version}`);
    await byQuery.until((r) => r.events.length === 1, "one missed update");
    expect(byQuery.events[0]).toMatchObject({ id: String(third.version), event: { type: "update", update: { id: third.id, version: third.version, text: "Three" } } });
    // The header wins over the query (the browser's own reconnect knows best).
    const both = await open(main.origin, id, { "Last-Event-ID": String(third.version) }, `?after=${first.version}`);
    await untilOpen(main.door, id, 3);
    const fourth = await post(id, "Four");
    await both.until((r) => r.events.length === 1, "the new update");
    expect(both.events[0]!.id).toBe(String(fourth.version));
    for (const reader of [byHeader, byQuery, both]) reader.close();
  });

  test("a new update, an edit and a delete reach every open stream, each with its new version; the same bytes to all", async () => {
    const id = await story();
    const a = await open(main.origin, id);
    const b = await open(main.origin, id);
    await untilOpen(main.door, id, 2);
    const posted = await post(id, "Polls have closed", { headline: "Polls close", keyEvent: true });
    await a.until((r) => r.events.length === 1, "the posted update");
    expect(a.events[0]).toMatchObject({
      id: String(posted.version),
      event: { type: "update", update: { id: posted.id, version: posted.version, headline: "Polls close", keyEvent: true, editedAt: null } },
    });
    expect((a.events[0]!.event as { update: { bodyHtml: string } }).update.bodyHtml).toContain("Polls have closed");
    const edited = await edit(posted.id, "Polls have closed in the east");
    expect(edited).toBeGreaterThan(posted.version);
    await a.until((r) => r.events.length === 2, "the edit");
    expect(a.events[1]).toMatchObject({ id: String(edited), event: { type: "update", update: { id: posted.id, version: edited, text: "Polls have closed in the east" } } });
    expect((a.events[1]!.event as { update: { editedAt: string | null } }).update.editedAt).not.toBeNull();
    const deleted = await remove(posted.id);
    await a.until((r) => r.events.length === 3, "the delete");
    expect(a.events[2]).toEqual({ id: String(deleted), event: { type: "delete", id: posted.id, version: deleted } });
    await b.until((r) => r.events.length === 3, "the same three events");
    expect(b.text).toBe(a.text);
    // Another story's update is not this stream's.
    await post(await story(), "Elsewhere");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(a.events).toHaveLength(3);
    a.close();
    b.close();
  });

  test("a write that took a smaller version but committed after a larger one was sent still reaches the readers", async () => {
    const id = await story();
    const reader = await open(main.origin, id);
    await untilOpen(main.door, id, 1);
    // The slow writer takes its version first and holds its transaction open; a quick one commits after it.
    const slow = await import("pg").then(({ default: pg }) => new pg.Client({ connectionString: url }));
    await slow.connect();
    try {
      await slow.query("begin");
      const { rows } = await slow.query<{ id: string; version: string }>(
        "insert into live_updates (article_id, content, content_doc) values ($1, 'Slow', $2) returning id, version",
        [id, JSON.stringify(doc("Slow"))],
      );
      const quick = await post(id, "Quick");
      expect(quick.version).toBeGreaterThan(Number(rows[0]!.version));
      await reader.until((r) => r.events.length === 1, "the quick update");
      await slow.query("commit");
      await reader.until((r) => r.events.length === 2, "the slow update, after the quick one");
      expect(reader.events.map((e) => e.id)).toEqual([String(quick.version), rows[0]!.version]);
      // Nothing is sent twice by the next change's read.
      const third = await post(id, "Third");
      await reader.until((r) => r.events.length === 3, "the third update");
      expect(reader.events[2]!.id).toBe(String(third.version));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(reader.events).toHaveLength(3);
    } finally {
      await slow.end();
      reader.close();
    }
  });

  test("ending the coverage sends a state event (no id); a restart another", async () => {
    const id = await story();
    const reader = await open(main.origin, id);
    await untilOpen(main.door, id, 1);
    const endedAt = new Date("2026-11-03T05:00:00.000Z");
    await db.update(articles).set({ liveEndedAt: endedAt }).where(eq(articles.id, id));
    await reader.until((r) => r.events.length === 1, "the state event");
    expect(reader.events[0]).toEqual({ id: null, event: { type: "state", live: false, endedAt: endedAt.toISOString() } });
    expect(reader.text).toContain(`\n\ndata: {"type":"state","live":false,"endedAt":"${endedAt.toISOString()}"}\n\n`);
    await db.update(articles).set({ liveEndedAt: null }).where(eq(articles.id, id));
    await reader.until((r) => r.events.length === 2, "the restart");
    expect(reader.events[1]!.event).toEqual({ type: "state", live: true, endedAt: null });
    // A reader opening an ended story hears at once that it ended.
    await db.update(articles).set({ liveEndedAt: endedAt }).where(eq(articles.id, id));
    await reader.until((r) => r.events.length === 3, "the second end");
    const late = await open(main.origin, id);
    await late.until((r) => r.events.length === 1, "the ended state");
    expect(late.events[0]!.event).toEqual({ type: "state", live: false, endedAt: endedAt.toISOString() });
    reader.close();
    late.close();
  });

  test("one read of the database per notice, however many readers: the same framed bytes go to all", async () => {
    // A door whose database counts the reads it is asked for.
    let reads = 0;
    const counted = new Proxy(db, { get: (target, name, receiver) => (name === "select" && reads++, Reflect.get(target, name, receiver) as unknown) });
    const counting = liveDoor({ db: counted, changes, writeSecurityHeaders, log });
    const { server, origin } = await serve(counting);
    try {
      const id = await story();
      const many = await Promise.all(Array.from({ length: 20 }, () => open(origin, id)));
      await untilOpen(counting, id, 20);
      const before = reads;
      const posted = await post(id, "Twenty readers, one read");
      for (const reader of many) await reader.until((r) => r.events.length === 1, "the update");
      expect(reads - before).toBe(1);
      expect(new Set(many.map((reader) => reader.text)).size).toBe(1);
      expect(many[0]!.events[0]!.id).toBe(String(posted.version));
      for (const reader of many) reader.close();
    } finally {
      counting.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("a story unpublished while read: its streams end (the browser's reconnect hears 404)", async () => {
    const id = await story();
    const reader = await open(main.origin, id);
    await untilOpen(main.door, id, 1);
    await db.update(articles).set({ status: "draft" }).where(eq(articles.id, id));
    await reader.until((r) => r.ended, "its end");
    await untilOpen(main.door, id, 0);
    expect((await fetch(`${main.origin}/api/live/${id}`)).status).toBe(404);
  });

  test("404 for what is not a public live story: a draft, a scheduled story, one never live, an unknown id, a malformed one", async () => {
    const draft = await story({ status: "draft" });
    const scheduled = await story({ status: "scheduled", publishedAt: new Date(Date.now() + 86_400_000) });
    const neverLive = await story({ liveStartedAt: null });
    for (const id of [draft, scheduled, neverLive, "00000000-0000-4000-8000-000000000000", "not-a-uuid", "1%27%20or%201=1"]) {
      const answer = await fetch(`${main.origin}/api/live/${id}`);
      expect(answer.status, id).toBe(404);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      await answer.body?.cancel();
    }
    expect(main.door.openStreams()).toBe(0);
  });

  test("other methods hear 405 with Allow: GET; other paths go on to the app", async () => {
    const id = await story();
    for (const method of ["HEAD", "POST", "PUT", "DELETE", "OPTIONS"]) {
      const answer = await fetch(`${main.origin}/api/live/${id}`, { method });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get("allow")).toBe("GET");
      await answer.body?.cancel();
    }
    expect((await fetch(`${main.origin}/api/livex`)).status).toBe(299);
    expect((await fetch(`${main.origin}/api/live/${id}/more`)).status).toBe(299);
    expect((await fetch(`${main.origin}/article/x`)).status).toBe(299);
  });

  test("a reader that leaves is removed from the hub; shutdown ends every stream", async () => {
    const id = await story();
    const leaving = await open(main.origin, id);
    const staying = await open(main.origin, id);
    await untilOpen(main.door, id, 2);
    leaving.close();
    await untilOpen(main.door, id, 1);
    main.door.endAll();
    await staying.until((r) => r.ended, "its end at shutdown");
    await untilOpen(main.door, id, 0);
  });
});

describe("the hub's limits", () => {
  test("a keep-alive comment every ping interval, from one timer for all streams", async () => {
    const id = await story();
    const a = await open(tight.origin, id);
    const b = await open(tight.origin, id);
    await a.until((r) => r.text.split(": ping\n\n").length > 3, "three pings");
    await b.until((r) => r.text.split(": ping\n\n").length > 3, "three pings");
    expect(a.text.startsWith("retry: 2000\n\n: ping\n\n")).toBe(true);
    a.close();
    b.close();
    await untilOpen(tight.door, id, 0);
  });

  test("past the limit of open streams a reader hears 503; a place freed is taken again", async () => {
    const id = await story();
    const a = await open(tight.origin, id);
    const b = await open(tight.origin, id);
    await untilOpen(tight.door, id, 2);
    const refused = await fetch(`${tight.origin}/api/live/${id}`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("10");
    await refused.body?.cancel();
    a.close();
    await untilOpen(tight.door, id, 1);
    const c = await open(tight.origin, id);
    expect(c.status).toBe(200);
    b.close();
    c.close();
    await untilOpen(tight.door, id, 0);
  });

  test("one client address holds at most its share of streams (429 past it); another address, or a place freed, is let in", async () => {
    // The address as the app derives it: here a header stands for X-Forwarded-For behind a trusted proxy.
    const door = liveDoor({ db, changes, writeSecurityHeaders, log, maxPerAddress: 2, addressOf: (req) => String(req.headers["x-test-address"]) });
    const site = await serve(door);
    const id = await story();
    try {
      const a = await open(site.origin, id, { "X-Test-Address": "203.0.113.1" });
      const b = await open(site.origin, id, { "X-Test-Address": "203.0.113.1" });
      await untilOpen(door, id, 2);
      const refused = await fetch(`${site.origin}/api/live/${id}`, { headers: { "X-Test-Address": "203.0.113.1" } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("30");
      await refused.body?.cancel();
      const other = await open(site.origin, id, { "X-Test-Address": "203.0.113.2" });
      expect(other.status).toBe(200);
      a.close();
      await untilOpen(door, id, 2);
      const again = await open(site.origin, id, { "X-Test-Address": "203.0.113.1" });
      expect(again.status).toBe(200);
      for (const reader of [b, other, again]) reader.close();
      await untilOpen(door, id, 0);
    } finally {
      door.close();
      site.server.closeAllConnections();
      await new Promise((resolve) => site.server.close(resolve));
    }
  });

  test("a reader that stops reading is cut off once too much waits for it; the others keep getting every update", async () => {
    const id = await story();
    // A client that sends its request and then reads nothing at all.
    const slow = net.connect((tight.server.address() as AddressInfo).port, "127.0.0.1");
    await new Promise((resolve) => slow.once("connect", resolve));
    slow.write(`GET /api/live/${id} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n`);
    slow.pause();
    let slowClosed = false;
    slow.on("close", () => (slowClosed = true));
    slow.on("error", () => {});
    const reader = await open(tight.origin, id);
    await untilOpen(tight.door, id, 2);
    const big = "Long dispatch. ".repeat(4_000);
    const posted: number[] = [];
    for (let i = 0; i < 200 && tight.door.openStreams(id) === 2; i++) {
      posted.push((await post(id, `${i} ${big}`)).version);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // It took more than the loopback's socket buffers hold (several MB), and the bound is 16 KB.
    expect(posted.length).toBeGreaterThan(1);
    await untilOpen(tight.door, id, 1);
    await reader.until((r) => r.events.length === posted.length, "every update");
    expect(reader.events.map((e) => Number(e.id))).toEqual(posted);
    // Its connection was closed by the server: once it reads again, it reaches the end.
    slow.resume();
    for (let i = 0; i < 100 && !slowClosed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(slowClosed).toBe(true);
    reader.close();
  });
});
