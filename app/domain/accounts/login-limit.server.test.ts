import { describe, expect, test } from "vitest";
import { loginAttempts } from "~/db/schema";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { ensureAdminAccount } from "./accounts.server";
import { LOGIN_WINDOW_MS, MAX_FAILED_LOGINS, checkLoginLimit, tooManyAttemptsMessage } from "./login-limit.server";
import { createTestAuth, signIn } from "./test-auth.server";

const { db } = await createTestDatabase();
const t = createTestAuth(db);

describe("sign-in attempt limit", () => {
  test("the 6th wrong password within 15 minutes is refused with 429, and so is the right one right after", async () => {
    await ensureAdminAccount(t.auth, db, "target@example.com", "right-password-1");
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      const { response } = await signIn(t, "target@example.com", "wrong-password", "192.0.2.10");
      expect(response.status).toBe(401);
    }
    const sixth = await signIn(t, "target@example.com", "wrong-password", "192.0.2.10");
    expect(sixth.response.status).toBe(429);
    expect(await sixth.response.json()).toMatchObject({ message: "Too many sign-in attempts. Try again in 15 minutes." });
    expect(Number(sixth.response.headers.get("retry-after"))).toBeGreaterThan(14 * 60);

    const right = await signIn(t, "target@example.com", "right-password-1", "192.0.2.10");
    expect(right.response.status).toBe(429);
    expect(right.cookie).toBeNull();
    // Only from that address: a stranger failing on purpose cannot lock the owner out elsewhere.
    expect((await signIn(t, "target@example.com", "right-password-1", "192.0.2.99")).response.status).toBe(200);
  });

  test("the counters live in the database: a new server process still refuses", async () => {
    const restarted = createTestAuth(db);
    expect((await signIn(restarted, "target@example.com", "right-password-1", "192.0.2.10")).response.status).toBe(429);
  });

  test("an IP with 5 failures over different accounts is refused for every account", async () => {
    await ensureAdminAccount(t.auth, db, "other@example.com", "other-password-1");
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      expect((await signIn(t, `nobody${i}@example.com`, "guess-password", "192.0.2.20")).response.status).toBe(401);
    }
    expect((await signIn(t, "other@example.com", "other-password-1", "192.0.2.20")).response.status).toBe(429);
    // The same account from another address is fine.
    expect((await signIn(t, "other@example.com", "other-password-1", "192.0.2.21")).response.status).toBe(200);
  });

  test("failures older than the window no longer count, and the wait shrinks as they age", async () => {
    const now = new Date();
    const rows = Array.from({ length: MAX_FAILED_LOGINS }, (_, i) => ({
      email: "aged@example.com",
      ip: "192.0.2.30",
      attemptedAt: new Date(now.getTime() - LOGIN_WINDOW_MS + (i + 1) * 60_000 * 2),
    }));
    await db.insert(loginAttempts).values(rows);
    const limited = await checkLoginLimit(db, "aged@example.com", "192.0.2.30", now);
    // The oldest of the five leaves the window in 2 minutes.
    expect(limited).toMatchObject({ limited: true, message: "Too many sign-in attempts. Try again in 2 minutes." });
    expect(await checkLoginLimit(db, "aged@example.com", "192.0.2.30", new Date(now.getTime() + 2 * 60_000 + 1000))).toEqual({ limited: false });
  });

  test("a success before the limit clears the account's failures from that address", async () => {
    await ensureAdminAccount(t.auth, db, "forgetful@example.com", "forgetful-password");
    for (let i = 0; i < MAX_FAILED_LOGINS - 1; i++) await signIn(t, "forgetful@example.com", "wrong-password", "192.0.2.40");
    expect((await signIn(t, "forgetful@example.com", "forgetful-password", "192.0.2.40")).response.status).toBe(200);
    expect((await signIn(t, "forgetful@example.com", "wrong-password", "192.0.2.40")).response.status).toBe(401);
    expect((await signIn(t, "forgetful@example.com", "forgetful-password", "192.0.2.40")).response.status).toBe(200);
  });

  test("the message says minute or minutes and never less than one", () => {
    expect(tooManyAttemptsMessage(30)).toBe("Too many sign-in attempts. Try again in 1 minute.");
    expect(tooManyAttemptsMessage(61)).toBe("Too many sign-in attempts. Try again in 2 minutes.");
  });
});
