import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { articles, memberReads, memberSubscriptions, memberTiers, subscribers } from "~/db/schema";
import { ACCESS_COOKIE, METER_COOKIE, METER_NOTE_COOKIE } from "~/domain/members/reader-cookies";
import { createMemberAuth, MEMBER_SESSION_COOKIE } from "~/domain/members/member-auth.server";
import { noteAccessChanged, parseMemberAccessSignal } from "~/domain/members/members.server";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "../tests/setup/test-database";
import { PageCache } from "./page-cache";

// React Router is replaced by a stand-in that renders like the article route does for a gated story
// (issue 40): it notes the story's access in `context.gate` and renders the copy `context.variant` names.
const renders: string[] = [];
const storyAccess: { level: "paid" | "members"; tierId: string | null } = { level: "paid", tierId: null };
let articleId = "";
vi.mock("react-router", () => ({
  createRequestHandler: () => async (request: Request, context: { variant?: string; gate?: { note: unknown } }) => {
    const path = new URL(request.url).pathname;
    renders.push(`${path} ${context.variant ?? "personal"} ${request.headers.get("cookie") ?? ""}`);
    if (!path.startsWith("/article/")) return new Response(`<p>page ${path}</p>`, { headers: { "Content-Type": "text/html" } });
    if (context.gate) context.gate.note = { access: storyAccess, articleId };
    const body = context.variant === "full" || context.variant === undefined ? "<p>free part</p><p>THE GATED PART</p>" : `<p>free part</p><p>call to action: ${context.variant}</p>`;
    return new Response(body, { headers: { "Content-Type": "text/html" } });
  },
}));

const { createAppHandler } = await import("./request-handler");
const { cacheDoor } = await import("./cache-door");
const { securityHeaderWriter } = await import("./middleware/security-headers");
const { ReaderAccess } = await import("./reader-access");

const { db } = await createTestDatabase();
const sent: string[] = [];
const memberAuth = createMemberAuth({
  db,
  baseURL: "http://localhost:3000",
  secret: "a-test-secret-that-is-long-enough-0123456789",
  log: createLogger("silent"),
  sendSignInLink: async (_email, token) => void sent.push(token),
  sendEmailChangeLink: async () => {},
});
const access = new ReaderAccess("another-test-secret", { secure: false });
const cache = new PageCache();
let origin = "";
let server: http.Server;
const doorAnswered: string[] = [];

beforeAll(async () => {
  const [story] = await db.insert(articles).values({ title: "Gated", slug: "gated", content: "x" }).returning();
  articleId = story!.id;
  const app = express();
  app.use(createAppHandler({ build: {} as never, mode: "production", cache, loadContext: (_nonce, shown, page) => ({ shown, ...page }) as never, readers: { access, db, memberAuth } }));
  const door = cacheDoor({ cache, writeSecurityHeaders: securityHeaderWriter({ closing: () => false }), readers: access });
  server = http.createServer((req, res) => {
    if (door(req, res)) doorAnswered.push(req.url ?? "");
    else app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Signs a member in through the members' Better Auth instance: their session cookie. */
async function signedInMember(email: string): Promise<{ cookie: string; id: string }> {
  await memberAuth.api.signInMagicLink({ body: { email }, headers: new Headers({ origin: "http://localhost:3000" }) });
  const response = await memberAuth.api.magicLinkVerify({ query: { token: sent.at(-1)! }, headers: new Headers({ origin: "http://localhost:3000" }), asResponse: true });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${MEMBER_SESSION_COOKIE}=`))!.split(";")[0]!;
  const [member] = await db.select().from(subscribers).where(eq(subscribers.email, email));
  return { cookie, id: member!.id };
}

/** Cookies of an answer's Set-Cookie headers, as the browser would send them back (name=value). */
function cookiesOf(response: Response, jar: Map<string, string>) {
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(";");
    const [name, value] = [pair!.slice(0, pair!.indexOf("=")), pair!.slice(pair!.indexOf("=") + 1)];
    if (attributes.some((a) => a.trim() === "Max-Age=0")) jar.delete(name);
    else jar.set(name, value);
  }
  return jar;
}
const header = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

describe("a gated page served from the page cache, one copy per class of reader", () => {
  test("anonymous readers share the teaser, kept and answered at the door; the gated part is in none of their answers", async () => {
    const first = await fetch(`${origin}/article/gated`);
    expect(await first.text()).toContain("call to action: anonymous");
    expect(first.headers.get("cache-control")).toMatch(/public/);
    for (let i = 0; i < 3; i++) {
      const again = await fetch(`${origin}/article/gated`);
      expect(await again.text()).not.toContain("THE GATED PART");
    }
    expect(doorAnswered.filter((url) => url === "/article/gated").length).toBeGreaterThanOrEqual(3);
    expect(renders.filter((r) => r.startsWith("/article/gated anonymous")).length).toBe(1);
    // Renders for a class never see a reader's cookies.
    expect(renders.every((r) => !r.includes("frontpage-"))).toBe(true);
  });

  test("a paying member gets the whole story, private to them; their pass then lets the door answer without the database", async () => {
    const [tier] = await db.insert(memberTiers).values({ name: "Supporter", slug: "supporter", monthlyPrice: 500, yearlyPrice: 5000, currency: "usd" }).returning();
    const member = await signedInMember("paying@example.com");
    await db.insert(memberSubscriptions).values({ memberId: member.id, stripeSubscriptionId: "sub_1", stripeCustomerId: "cus_1", tierId: tier!.id, status: "active", cadence: "month", amount: 500, currency: "usd", startedAt: new Date() });
    const jar = new Map([[MEMBER_SESSION_COOKIE, member.cookie.split("=").slice(1).join("=")]]);
    const first = await fetch(`${origin}/article/gated`, { headers: { cookie: header(jar) } });
    expect(await first.text()).toContain("THE GATED PART");
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    expect(first.headers.get("cache-tag")).toBeNull();
    cookiesOf(first, jar);
    expect(jar.has(ACCESS_COOKIE)).toBe(true);
    const before = doorAnswered.length;
    const second = await fetch(`${origin}/article/gated`, { headers: { cookie: header(jar) } });
    expect(await second.text()).toContain("THE GATED PART");
    expect(doorAnswered.length).toBe(before + 1);
    expect(renders.filter((r) => r.startsWith("/article/gated full")).length).toBe(1);

    // past_due keeps access (Ghost's rule); canceled ends it, heard through the change notice's signal.
    await db.update(memberSubscriptions).set({ status: "canceled" });
    const now = new Date();
    await noteAccessChanged(db, member.id, now);
    access.noteChanged(member.id, now.getTime());
    const after = await fetch(`${origin}/article/gated`, { headers: { cookie: header(jar) } });
    expect(await after.text()).toContain("call to action: free");
  });

  test("a forged pass is renewed from the session, and without a session the reader is anonymous", async () => {
    const member = await signedInMember("forger@example.com");
    const forged = `${ACCESS_COOKIE}=${Buffer.from(JSON.stringify({ m: member.id, t: ["x"], r: [], i: Date.now() })).toString("base64url")}.AAAA`;
    const response = await fetch(`${origin}/article/gated`, { headers: { cookie: `${member.cookie}; ${forged}` } });
    expect(await response.text()).toContain("call to action: free");
    const noSession = await fetch(`${origin}/article/gated`, { headers: { cookie: forged } });
    expect(await noSession.text()).toContain("call to action: anonymous");
  });

  test("the anonymous meter: N stories whole, rereads stay open, then the teaser; moved by a signed cookie alone", async () => {
    access.settings = { meterAnonymous: 1, meterMembers: 0 };
    try {
      const jar = new Map<string, string>();
      const first = await fetch(`${origin}/article/gated`);
      cookiesOf(first, jar);
      expect(await first.text()).toContain("THE GATED PART");
      expect(first.headers.get("cache-control")).toBe("private, no-store");
      expect(jar.get(METER_NOTE_COOKIE)).toBe(`${articleId}.0.1`);
      const reread = await fetch(`${origin}/article/gated`, { headers: { cookie: header(jar) } });
      expect(await reread.text()).toContain("THE GATED PART");
      // Another gated story is past the meter.
      const other = new Map(jar);
      other.set(METER_COOKIE, access.sign({ p: Date.now(), r: ["00000000-0000-4000-8000-000000000000"] }));
      expect(await (await fetch(`${origin}/article/gated`, { headers: { cookie: header(other) } })).text()).toContain("call to action: anonymous");
      // A tampered meter counts as none: a new period (clearing cookies does the same; the meter is a courtesy, not a lock).
      const tampered = `${METER_COOKIE}=${jar.get(METER_COOKIE)!.slice(0, -2)}xx`;
      expect((await fetch(`${origin}/article/gated`, { headers: { cookie: tampered } })).status).toBe(200);
    } finally {
      access.settings = { meterAnonymous: 0, meterMembers: 0 };
    }
  });

  test("a free member's meter is counted on the server, in member_reads; M=0 gates at once", async () => {
    const member = await signedInMember("free@example.com");
    const gatedAtOnce = await fetch(`${origin}/article/gated`, { headers: { cookie: member.cookie } });
    expect(await gatedAtOnce.text()).toContain("call to action: free");
    access.settings = { meterAnonymous: 0, meterMembers: 1 };
    try {
      const jar = cookiesOf(gatedAtOnce, new Map([[MEMBER_SESSION_COOKIE, member.cookie.split("=").slice(1).join("=")]]));
      const read = await fetch(`${origin}/article/gated`, { headers: { cookie: header(jar) } });
      expect(await read.text()).toContain("THE GATED PART");
      cookiesOf(read, jar);
      expect((await db.select().from(memberReads).where(eq(memberReads.memberId, member.id))).length).toBe(1);
      // Reread: from the pass, at the door.
      const before = doorAnswered.length;
      expect(await (await fetch(`${origin}/article/gated`, { headers: { cookie: header(jar) } })).text()).toContain("THE GATED PART");
      expect(doorAnswered.length).toBe(before + 1);
    } finally {
      access.settings = { meterAnonymous: 0, meterMembers: 0 };
    }
  });

  test("the change notice's signal names the member and the time", () => {
    expect(parseMemberAccessSignal("member-access 6f1c8f0e-8a4b-4c1e-9d51-3f3c1b2a7e10 1700000000000")).toEqual({ memberId: "6f1c8f0e-8a4b-4c1e-9d51-3f3c1b2a7e10", at: 1700000000000 });
    expect(parseMemberAccessSignal("cdn-answered")).toBeNull();
  });
});
