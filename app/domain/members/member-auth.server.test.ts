import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { memberSession, memberVerification, subscribers } from "~/db/schema";
import { createLogger } from "~/lib/logger.server";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { createMemberAuth, MEMBER_SESSION_COOKIE } from "./member-auth.server";

const { db } = await createTestDatabase();
const sent: { email: string; token: string }[] = [];
const auth = createMemberAuth({
  db,
  baseURL: "http://localhost:3000",
  secret: "a-test-secret-that-is-long-enough-0123456789",
  log: createLogger("silent"),
  sendSignInLink: async (email, token) => void sent.push({ email, token }),
  sendEmailChangeLink: async () => undefined,
});
const headers = () => new Headers({ origin: "http://localhost:3000" });

describe("members' sign-in by e-mail link", () => {
  test("a link makes a member of a new address, once, with a members' cookie and never a staff one", async () => {
    await auth.api.signInMagicLink({ body: { email: "new-reader@example.com" }, headers: headers() });
    const { token } = sent.at(-1)!;
    // The stored value is not the token itself.
    const stored = await db.select().from(memberVerification);
    expect(stored.some((row) => row.identifier.includes(token))).toBe(false);
    const response = await auth.api.magicLinkVerify({ query: { token }, headers: headers(), asResponse: true });
    const cookies = response.headers.getSetCookie().join("\n");
    expect(cookies).toContain(`${MEMBER_SESSION_COOKIE}=`);
    expect(cookies).not.toMatch(/(^|\n)better-auth\.session_token=/);
    const [member] = await db.select().from(subscribers).where(eq(subscribers.email, "new-reader@example.com"));
    expect(member).toMatchObject({ emailVerified: true, status: "pending" });
    expect((await db.select().from(memberSession).where(eq(memberSession.userId, member!.id))).length).toBe(1);
    // A second use of the same link is refused and opens no session.
    const again = await auth.api.magicLinkVerify({ query: { token }, headers: headers(), asResponse: true });
    expect(again.headers.getSetCookie().join("\n")).not.toContain(`${MEMBER_SESSION_COOKIE}=`);
    expect((await db.select().from(memberSession).where(eq(memberSession.userId, member!.id))).length).toBe(1);
  });

  test("an existing newsletter subscriber signs in as the same record", async () => {
    const [existing] = await db.insert(subscribers).values({ email: "reader@example.org", status: "active", tokenKey: "k1", confirmedAt: new Date() }).returning();
    await auth.api.signInMagicLink({ body: { email: "reader@example.org" }, headers: headers() });
    const response = await auth.api.magicLinkVerify({ query: { token: sent.at(-1)!.token }, headers: headers(), asResponse: true });
    expect(response.headers.getSetCookie().join("\n")).toContain(`${MEMBER_SESSION_COOKIE}=`);
    const rows = await db.select().from(subscribers).where(eq(subscribers.id, existing!.id));
    expect(rows).toHaveLength(1);
    expect((await db.select().from(memberSession).where(eq(memberSession.userId, existing!.id))).length).toBe(1);
  });
});
