import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { articles, liveUpdates, memberSubscriptions, memberTiers, subscribers, userRoles } from "../app/db/schema";
import { createAuth } from "../app/domain/accounts/auth.server";
import { createMemberAuth, MEMBER_SESSION_COOKIE } from "../app/domain/members/member-auth.server";
import { requestMayRead, sessionRequestOf } from "../app/domain/members/request-reader.server";
import { ChangeFeed } from "../app/lib/change-feed.server";
import { createLogger } from "../app/lib/logger.server";
import { createMailer } from "../app/lib/mail.server";
import { createTestDatabase } from "../tests/setup/test-database";
import { GATED_FOR_MEMBERS, GATED_FOR_SUBSCRIBERS, liveDoor, type LiveDoor } from "./live-door";
import { securityHeaderWriter } from "./middleware/security-headers";

// Issue 40: a gated live story's updates are part of its gated content. Its stream opens only for a
// reader with access, checked from their real sessions (staff: Better Auth's staff instance and
// user_roles; member: the members' instance and their paid tiers); anyone else hears 403 and no text.

const PUBLIC_URL = "http://localhost:3000";
const SECRET = "a-test-secret-that-is-long-enough-0123456789";
const { db, url } = await createTestDatabase();
const log = createLogger("silent");
const changes = new ChangeFeed(url, log);
const links: { email: string; token: string }[] = [];
const auth = createAuth({ db, baseURL: PUBLIC_URL, secret: SECRET, mailer: createMailer({ from: "desk@example.org", log, outboxDir: path.join(os.tmpdir(), "live-door-gated-outbox") }), log });
const memberAuth = createMemberAuth({ db, baseURL: PUBLIC_URL, secret: SECRET, log, sendSignInLink: async (email, token) => void links.push({ email, token }), sendEmailChangeLink: async () => {} });
const context = { db, auth, memberAuth, log } as unknown as AppLoadContext;

let door: LiveDoor;
let server: http.Server;
let origin: string;
let tierId: string;

beforeAll(async () => {
  await changes.start();
  door = liveDoor({
    db,
    changes,
    writeSecurityHeaders: securityHeaderWriter({ closing: () => false }),
    log,
    // As server/index.ts wires it.
    mayReadWhole: (req, access) => requestMayRead(sessionRequestOf(req, PUBLIC_URL), context, access),
  });
  server = http.createServer((req, res) => {
    if (!door(req, res)) res.writeHead(299).end("app");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const [tier] = await db.insert(memberTiers).values({ name: "Supporter", slug: "supporter", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" }).returning();
  tierId = tier!.id;
});
afterAll(async () => {
  door.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await changes.stop();
});

/** A member's session cookie, by the e-mailed link as a reader signs in; `paid`: with an active subscription. */
async function memberCookie(email: string, paid: boolean): Promise<string> {
  const headers = new Headers({ origin: PUBLIC_URL });
  await memberAuth.api.signInMagicLink({ body: { email }, headers });
  const response = await memberAuth.api.magicLinkVerify({ query: { token: links.at(-1)!.token }, headers, asResponse: true });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${MEMBER_SESSION_COOKIE}=`))!;
  if (paid) {
    const [member] = await db.select({ id: subscribers.id }).from(subscribers).where(eq(subscribers.email, email));
    await db.insert(memberSubscriptions).values({
      memberId: member!.id,
      stripeSubscriptionId: `sub_${email}`,
      stripeCustomerId: `cus_${email}`,
      tierId,
      status: "active",
      cadence: "month",
      amount: 500,
      currency: "usd",
      startedAt: new Date(),
    });
  }
  return cookie.split(";")[0]!;
}

/** A staff account's session cookie (an editor), signed in with its password. */
async function staffCookie(email: string): Promise<string> {
  const password = "a long enough password 123";
  const made = await auth.api.signUpEmail({ body: { email, password, name: "Ed Itor" } });
  await db.insert(userRoles).values({ userId: made.user.id, role: "editor" });
  const response = await auth.api.signInEmail({ body: { email, password }, headers: new Headers({ origin: PUBLIC_URL }), asResponse: true });
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

let counter = 0;
async function liveStory(access: "public" | "members" | "paid") {
  counter++;
  const [row] = await db
    .insert(articles)
    .values({
      title: `Gated live ${counter}`,
      slug: `gated-live-${counter}`,
      content: "What we know",
      status: "published",
      publishedAt: new Date(Date.now() - 86_400_000),
      liveStartedAt: new Date(Date.now() - 3_600_000),
      access,
    })
    .returning({ id: articles.id });
  return row!.id;
}
const doc = (text: string) => ({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });
const post = (articleId: string, text: string) => db.insert(liveUpdates).values({ articleId, content: text, contentDoc: doc(text) });

/** A stream opened with these cookies: its status, and its text after `ms` (or until it ends). */
function stream(articleId: string, cookie: string | null, query = "?after=0") {
  let text = "";
  let status = 0;
  let ended = false;
  const request = http.get(`${origin}/api/live/${articleId}${query}`, { headers: { Accept: "text/event-stream", ...(cookie ? { Cookie: cookie } : {}) } });
  const opened = new Promise<void>((resolve, reject) => {
    request.on("error", (error) => (ended ? resolve() : reject(error)));
    request.on("response", (response) => {
      status = response.statusCode ?? 0;
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("close", () => (ended = true));
      resolve();
    });
  });
  return {
    opened,
    get status() {
      return status;
    },
    get text() {
      return text;
    },
    get ended() {
      return ended;
    },
    async until(check: () => boolean, what: string) {
      for (let i = 0; i < 150; i++) {
        if (check()) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`never ${what}: ${JSON.stringify(text.slice(0, 500))}`);
    },
    close: () => request.destroy(),
  };
}

describe("the live stream of a Paid story", () => {
  test("is refused (403, no update text) to an anonymous reader and a free member, and opens for a paying member and for staff", async () => {
    const id = await liveStory("paid");
    await post(id, "Gated update one secret-alpha");
    const free = await memberCookie("free-live@example.org", false);
    const paid = await memberCookie("paid-live@example.org", true);
    const staff = await staffCookie("editor-live@example.org");

    for (const cookie of [null, free, "frontpage-member.session_token=forged.value"]) {
      const refused = stream(id, cookie);
      await refused.opened;
      await refused.until(() => refused.ended, "ended");
      expect(refused.status).toBe(403);
      expect(refused.text).toBe(GATED_FOR_SUBSCRIBERS);
      expect(refused.text).not.toContain("secret-alpha");
    }
    expect(door.openStreams(id)).toBe(0);

    const reader = stream(id, paid);
    const editor = stream(id, staff);
    await Promise.all([reader.opened, editor.opened]);
    expect([reader.status, editor.status]).toEqual([200, 200]);
    // What they missed (?after=0), then what comes.
    await reader.until(() => reader.text.includes("secret-alpha"), "the missed update");
    await editor.until(() => editor.text.includes("secret-alpha"), "the missed update");
    await post(id, "Gated update two secret-beta");
    await reader.until(() => reader.text.includes("secret-beta"), "the new update");
    await editor.until(() => editor.text.includes("secret-beta"), "the new update");
    reader.close();
    editor.close();
  });

  test("a story made Paid while readers follow it ends their streams; reconnecting, only readers with access get in", async () => {
    const id = await liveStory("public");
    const paid = await memberCookie("paid-later@example.org", true);
    const anonymous = stream(id, null, "");
    const member = stream(id, paid, "");
    await Promise.all([anonymous.opened, member.opened]);
    expect([anonymous.status, member.status]).toEqual([200, 200]);
    for (let i = 0; i < 150 && door.openStreams(id) !== 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await db.update(articles).set({ access: "paid" }).where(eq(articles.id, id));
    await anonymous.until(() => anonymous.ended, "the anonymous stream's end");
    await member.until(() => member.ended, "the member's stream's end");
    await post(id, "After the change secret-gamma");
    const again = stream(id, null, "?after=0");
    await again.opened;
    await again.until(() => again.ended, "ended");
    expect(again.status).toBe(403);
    expect(anonymous.text + again.text).not.toContain("secret-gamma");
    const back = stream(id, paid, "?after=0");
    await back.opened;
    expect(back.status).toBe(200);
    await back.until(() => back.text.includes("secret-gamma"), "the update");
    back.close();
  });
});

describe("the live stream of a Members story", () => {
  test("opens for any signed-in member, free ones too, and is refused to an anonymous reader", async () => {
    const id = await liveStory("members");
    await post(id, "For members secret-delta");
    const refused = stream(id, null);
    await refused.opened;
    await refused.until(() => refused.ended, "ended");
    expect(refused.status).toBe(403);
    expect(refused.text).toBe(GATED_FOR_MEMBERS);
    const free = stream(id, await memberCookie("free-members@example.org", false));
    await free.opened;
    expect(free.status).toBe(200);
    await free.until(() => free.text.includes("secret-delta"), "the update");
    free.close();
  });
});
