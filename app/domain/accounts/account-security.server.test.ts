import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { session, user } from "~/db/schema";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { totp } from "../../../tests/setup/totp";
import { ensureAdminAccount } from "./accounts.server";
import { handleAuthRequest } from "./auth-handler.server";
import { getSessionUser } from "./guard.server";
import { COMMON_PASSWORD } from "~/lib/common-passwords.server";
import { backOfficeSessionState } from "./session-policy";
import { adminRequest, authRequest, createTestAuth, signIn, signUp } from "./test-auth.server";

const { db } = await createTestDatabase();
const t = createTestAuth(db);
const call = (request: Request) => handleAuthRequest(request, { auth: t.auth, db, log: t.log });

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");

describe("two-factor sign-in", () => {
  test("an admin with TOTP on cannot sign in with the password alone; the code from the app completes it; a wrong code does not", async () => {
    await ensureAdminAccount(t.auth, db, "totp-admin@example.com", "a-long-admin-password-1");
    const first = await signIn(t, "totp-admin@example.com", "a-long-admin-password-1", "192.0.2.60");
    expect(first.cookie).not.toBeNull();
    // Turn it on: the password, then the first code.
    const enabled = await t.auth.api.enableTwoFactor({ body: { password: "a-long-admin-password-1" }, headers: new Headers({ cookie: first.cookie! }) });
    if (enabled.method !== "totp") throw new Error("expected TOTP");
    const secret = new URL(enabled.totpURI).searchParams.get("secret")!;
    expect(enabled.backupCodes).toHaveLength(10);
    await t.auth.api.verifyTOTP({ body: { code: totp(secret) }, headers: new Headers({ cookie: first.cookie! }) });
    const [row] = await db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.email, "totp-admin@example.com"));
    expect(row?.on).toBe(true);

    // The password alone: 200 with twoFactorRedirect, and no session cookie.
    const password = await signIn(t, "totp-admin@example.com", "a-long-admin-password-1", "192.0.2.61");
    expect(password.response.status).toBe(200);
    expect(await password.response.json()).toMatchObject({ twoFactorRedirect: true });
    expect(password.cookie).toBeNull();
    const pending = cookiesOf(password.response);
    expect(pending).toContain("two_factor");

    const wrong = await call(authRequest("/api/auth/two-factor/verify-totp", { code: totp(secret, Date.now() - 10 * 60_000) }, { ip: "192.0.2.61", cookie: pending }));
    expect(wrong.status).toBe(401);
    expect(cookiesOf(wrong)).not.toContain("session_token=");

    const right = await call(authRequest("/api/auth/two-factor/verify-totp", { code: totp(secret) }, { ip: "192.0.2.61", cookie: pending }));
    expect(right.status).toBe(200);
    const sessionCookie = right.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => c.startsWith("better-auth.session_token="));
    expect(sessionCookie).toBeDefined();
    expect((await getSessionUser(adminRequest("GET", sessionCookie!), t.context))?.email).toBe("totp-admin@example.com");

    // A backup code works once in place of the app's code.
    const again = await signIn(t, "totp-admin@example.com", "a-long-admin-password-1", "192.0.2.62");
    const backup = enabled.backupCodes[0]!;
    const withBackup = await call(authRequest("/api/auth/two-factor/verify-backup-code", { code: backup }, { ip: "192.0.2.62", cookie: cookiesOf(again.response) }));
    expect(withBackup.status).toBe(200);
    const reused = await signIn(t, "totp-admin@example.com", "a-long-admin-password-1", "192.0.2.63");
    expect((await call(authRequest("/api/auth/two-factor/verify-backup-code", { code: backup }, { ip: "192.0.2.63", cookie: cookiesOf(reused.response) }))).status).toBe(401);
  });
});

describe("common passwords", () => {
  test("`password` and `12345678` are refused as new passwords with a clear message; an uncommon one is taken", async () => {
    for (const password of ["password", "12345678", "Password1", "qwertyuiop"]) {
      const response = await signUp(t, `common-${password.length}-${Math.random().toString(36).slice(2, 6)}@example.com`, password);
      expect(response.status, password).toBe(400);
      expect((await response.json()).message, password).toBe(COMMON_PASSWORD);
    }
    expect((await signUp(t, "uncommon@example.com", "velvet-harbour-lantern-9")).status).toBe(200);
  });

  test("changing to a common password is refused too", async () => {
    await ensureAdminAccount(t.auth, db, "changer@example.com", "a-long-admin-password-2");
    const { cookie } = await signIn(t, "changer@example.com", "a-long-admin-password-2", "192.0.2.70");
    await expect(
      t.auth.api.changePassword({ body: { currentPassword: "a-long-admin-password-2", newPassword: "password" }, headers: new Headers({ cookie: cookie! }) }),
    ).rejects.toMatchObject({ body: { message: COMMON_PASSWORD } });
  });
});

describe("back-office sessions", () => {
  test("the rule: idle after 30 minutes without a request, over 12 hours after sign-in", () => {
    const signedIn = new Date("2026-11-24T08:00:00Z");
    const at = (minutes: number) => new Date(signedIn.getTime() + minutes * 60_000);
    expect(backOfficeSessionState({ createdAt: signedIn, lastActiveAt: signedIn }, at(29))).toBe("active");
    expect(backOfficeSessionState({ createdAt: signedIn, lastActiveAt: signedIn }, at(30))).toBe("idle");
    expect(backOfficeSessionState({ createdAt: signedIn, lastActiveAt: at(11 * 60 + 50) }, at(11 * 60 + 59))).toBe("active");
    expect(backOfficeSessionState({ createdAt: signedIn, lastActiveAt: at(11 * 60 + 59) }, at(12 * 60))).toBe("expired");
  });

  test("a back-office session unused for 30 minutes is refused and ended; a reader's is not", async () => {
    await ensureAdminAccount(t.auth, db, "idle-admin@example.com", "a-long-admin-password-3");
    const { cookie } = await signIn(t, "idle-admin@example.com", "a-long-admin-password-3", "192.0.2.80");
    const token = decodeURIComponent(cookie!.split("=")[1]!).split(".")[0]!;
    expect((await getSessionUser(adminRequest("GET", cookie), t.context))?.email).toBe("idle-admin@example.com");
    // The clock moves on 31 minutes for this session (its stored activity is set back).
    await db.update(session).set({ lastActiveAt: sql`now() - interval '31 minutes'` }).where(eq(session.token, token));
    expect(await getSessionUser(adminRequest("GET", cookie), t.context)).toBeNull();
    expect(await db.select().from(session).where(eq(session.token, token))).toHaveLength(0);

    // 29 minutes is still fine, and a request moves the activity on.
    const second = await signIn(t, "idle-admin@example.com", "a-long-admin-password-3", "192.0.2.80");
    const token2 = decodeURIComponent(second.cookie!.split("=")[1]!).split(".")[0]!;
    await db.update(session).set({ lastActiveAt: sql`now() - interval '29 minutes'` }).where(eq(session.token, token2));
    expect((await getSessionUser(adminRequest("GET", second.cookie), t.context))?.email).toBe("idle-admin@example.com");
    const [after] = await db.select({ at: session.lastActiveAt }).from(session).where(eq(session.token, token2));
    expect(Date.now() - after!.at.getTime()).toBeLessThan(60_000);

    // 12 hours after sign-in, even in use.
    await db.update(session).set({ createdAt: sql`now() - interval '12 hours 1 minute'` }).where(eq(session.token, token2));
    expect(await getSessionUser(adminRequest("GET", second.cookie), t.context)).toBeNull();

    // A reader (no back-office role) keeps Better Auth's own lifetime.
    await signUp(t, "idle-reader@example.com", "velvet-harbour-lantern-7");
    const reader = await signIn(t, "idle-reader@example.com", "velvet-harbour-lantern-7", "192.0.2.81");
    const readerToken = decodeURIComponent(reader.cookie!.split("=")[1]!).split(".")[0]!;
    await db.update(session).set({ lastActiveAt: sql`now() - interval '2 hours'` }).where(eq(session.token, readerToken));
    expect((await getSessionUser(adminRequest("GET", reader.cookie), t.context))?.email).toBe("idle-reader@example.com");
  });
});
