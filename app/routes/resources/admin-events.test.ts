import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChangeEvent } from "~/lib/change-feed.server";

// The guard's own behaviour is tested with the accounts; here it only decides who gets through.
const guard = vi.hoisted(() => ({ allow: true }));
vi.mock("~/domain/accounts/guard.server", () => ({
  requireCapabilityApi: async () => {
    if (!guard.allow) throw new Response(JSON.stringify({ error: "Sign in required" }), { status: 401 });
    return { id: "u1", email: "admin@example.com", role: "admin" };
  },
}));

const { loader, action, SSE_PING_INTERVAL_MS } = await import("./admin-events");

function setup() {
  const changes = new EventEmitter<{ change: [ChangeEvent] }>();
  const log = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const controller = new AbortController();
  const request = new Request("http://localhost/api/admin/events", { signal: controller.signal });
  const context = { changes, log } as never;
  return { changes, controller, request, context };
}

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, needle: string) {
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

afterEach(() => {
  guard.allow = true;
  vi.useRealTimers();
});

describe("GET /api/admin/events", () => {
  it("answers an admin with an uncached, unbuffered event stream", async () => {
    const { request, context, controller } = setup();
    const response = await loader({ request, context, params: {} } as never);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("Cache-Control")).toContain("no-store");
    expect(response.headers.get("Cache-Control")).toContain("no-transform");
    expect(response.headers.get("X-Accel-Buffering")).toBe("no");
    controller.abort();
  });

  it("forwards every change of the feed as one message", async () => {
    const { request, context, changes, controller } = setup();
    const response = await loader({ request, context, params: {} } as never);
    const reader = response.body!.getReader();
    expect(await readUntil(reader, "connected")).toContain("retry: ");
    changes.emit("change", { table: "articles", op: "INSERT" });
    changes.emit("change", { table: "comments", op: "DELETE" });
    const text = await readUntil(reader, "DELETE");
    expect(text).toContain(`data: {"table":"articles","op":"INSERT"}\n\n`);
    expect(text).toContain(`data: {"table":"comments","op":"DELETE"}\n\n`);
    controller.abort();
  });

  it("sends a comment ping every 25 seconds so idle connections stay open", async () => {
    vi.useFakeTimers();
    const { request, context, controller } = setup();
    const response = await loader({ request, context, params: {} } as never);
    const reader = response.body!.getReader();
    await readUntil(reader, "connected");
    expect(SSE_PING_INTERVAL_MS).toBe(25_000);
    vi.advanceTimersByTime(SSE_PING_INTERVAL_MS);
    expect(await readUntil(reader, ": ping")).toContain(": ping\n\n");
    controller.abort();
  });

  it("stops listening and ends the stream when the browser goes away", async () => {
    const { request, context, changes, controller } = setup();
    const response = await loader({ request, context, params: {} } as never);
    const reader = response.body!.getReader();
    await readUntil(reader, "connected");
    expect(changes.listenerCount("change")).toBe(1);
    controller.abort();
    expect(changes.listenerCount("change")).toBe(0);
    expect((await reader.read()).done).toBe(true);
    // A change after the disconnect must not throw on the closed stream.
    changes.emit("change", { table: "articles", op: "UPDATE" });
  });

  it("a cancelled reader also removes the listener", async () => {
    const { request, context, changes } = setup();
    const response = await loader({ request, context, params: {} } as never);
    await response.body!.cancel();
    expect(changes.listenerCount("change")).toBe(0);
  });

  it("refuses a request that is not an admin's, without subscribing", async () => {
    guard.allow = false;
    const { request, context, changes } = setup();
    const refused = await loader({ request, context, params: {} } as never).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(401);
    expect(changes.listenerCount("change")).toBe(0);
  });

  it("other methods get the guard's answer first, then 405", async () => {
    guard.allow = false;
    const { context } = setup();
    const post = new Request("http://localhost/api/admin/events", { method: "POST" });
    const anonymous = await action({ request: post, context, params: {} } as never).catch((e: unknown) => e);
    expect((anonymous as Response).status).toBe(401);
    guard.allow = true;
    const admin = await action({ request: post, context, params: {} } as never).catch((e: unknown) => e);
    expect((admin as { init?: { status?: number } }).init?.status).toBe(405);
  });
});
