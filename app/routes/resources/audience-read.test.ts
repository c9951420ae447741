import { sql } from "drizzle-orm";
import pino from "pino";
import type { AppLoadContext } from "react-router";
import { describe, expect, test } from "vitest";
import { AudienceRecorder } from "~/domain/audience/audience-recorder.server";
import { articles, categories } from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/client-address.server";
import { envSchema } from "~/lib/env.server";
import { classifyPath } from "~/lib/path-classes";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { action, loader, READ_REPORTS_PER_MINUTE } from "./audience-read";

const { db } = await createTestDatabase();
const log = pino({ level: "silent" });
const audience = new AudienceRecorder({ db, log, timeZone: "UTC", siteOrigin: "https://news.example" });
const env = envSchema.parse({});
const context = (recording = true) => ({ db, log, env: { ...env, AUDIENCE_RECORDING: recording }, audience }) as unknown as AppLoadContext;

const [category] = await db.insert(categories).values({ name: "News", slug: "news" }).returning();
await db.insert(articles).values({ title: "Floods", slug: "floods", content: "Body", categoryId: category!.id, status: "published", publishedAt: new Date(Date.now() - 60_000) });

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const LOAD = "6f1c1d52-1e0a-4a4a-9b7e-1a2b3c4d5e6f";
const good = { path: "/article/floods", loadId: LOAD, engagedMs: 12_000, depth: 75 };

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/audience/read", { method: "POST", body, headers: { "content-type": "text/plain;charset=UTF-8", "user-agent": CHROME, [CLIENT_IP_HEADER]: "203.0.113.5", ...headers } });

async function answer(request: Request, recording = true) {
  try {
    const result = (await action({ request, context: context(recording), params: {} } as never)) as Response | { init?: ResponseInit | null; data: unknown };
    if (result instanceof Response) return { status: result.status, body: null };
    return { status: result.init?.status ?? 200, body: result.data as { error?: string } };
  } catch (thrown) {
    return { status: (thrown as { init?: ResponseInit }).init?.status ?? 500, body: null };
  }
}

const storedReads = async () => (await db.execute<{ engaged_ms: number; depth: number; load_id: string }>(sql`select engaged_ms, depth, load_id from audience_reads`)).rows;

describe("POST /api/audience/read", () => {
  test("is a view beacon: text/plain JSON from sendBeacon passes the door, never cached", () => {
    const { pathClass, rules } = classifyPath("/api/audience/read");
    expect(pathClass).toBe("view beacon");
    expect(rules).toMatchObject({ formsOnly: false, cacheable: false, signedInChangesNameTheSite: false });
  });

  test.each([
    ["not json", "Send JSON: { path, loadId, engagedMs, depth }"],
    [JSON.stringify({ ...good, path: "article/floods" }), "path must start with / and hold printable ASCII only"],
    [JSON.stringify({ ...good, loadId: "123" }), "loadId must be a UUID"],
    [JSON.stringify({ ...good, engagedMs: -1 }), "engagedMs must be at least 0"],
    [JSON.stringify({ ...good, engagedMs: 4 * 3600_000 + 1 }), "engagedMs must be at most 14400000 (4 hours)"],
    [JSON.stringify({ ...good, engagedMs: 1.5 }), "engagedMs must be a whole number of milliseconds"],
    [JSON.stringify({ ...good, depth: 30 }), "depth must be 0, 25, 50, 75 or 100"],
    [JSON.stringify({ path: "/article/floods" }), "loadId must be a UUID"],
    [JSON.stringify({ ...good, path: `/${"a".repeat(3000)}` }), "Send at most 2048 bytes"],
  ])("a bad body %j is 400: %s", async (body, message) => {
    const got = await answer(post(body));
    expect(got.status).toBe(400);
    expect(got.body?.error).toBe(message);
  });

  test("a good report is 204 and stored with the story; an unknown story, a bot, or recording off: 204 and nothing", async () => {
    expect((await answer(post(JSON.stringify(good)))).status).toBe(204);
    expect((await answer(post(JSON.stringify({ ...good, path: "/article/no-such-story" })))).status).toBe(204);
    expect((await answer(post(JSON.stringify(good), { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" }))).status).toBe(204);
    expect((await answer(post(JSON.stringify({ ...good, depth: 100 })), false)).status).toBe(204);
    // fetch's application/json is read the same way.
    expect((await answer(post(JSON.stringify({ ...good, engagedMs: 13_000 }), { "content-type": "application/json" }))).status).toBe(204);
    await audience.flush();
    expect(await storedReads()).toEqual([
      { engaged_ms: 12_000, depth: 75, load_id: LOAD },
      { engaged_ms: 13_000, depth: 75, load_id: LOAD },
    ]);
  });

  test("a GET is 405", async () => {
    await expect(Promise.resolve().then(() => loader())).rejects.toMatchObject({ init: { status: 405 } });
  });

  test(`past ${READ_REPORTS_PER_MINUTE} reports a minute from one address: 429`, async () => {
    const from = { [CLIENT_IP_HEADER]: "203.0.113.200" };
    for (let n = 0; n < READ_REPORTS_PER_MINUTE; n++) expect((await answer(post(JSON.stringify({ ...good, path: "/" }), from))).status).toBe(204);
    const refused = await answer(post(JSON.stringify({ ...good, path: "/" }), from));
    expect(refused.status).toBe(429);
    expect(refused.body?.error).toMatch(/Too many reading reports/);
    // Another address is not held back.
    expect((await answer(post(JSON.stringify({ ...good, path: "/" }), { [CLIENT_IP_HEADER]: "203.0.113.201" }))).status).toBe(204);
  });
});
