import { createHash, createHmac } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { user, verification } from "~/db/schema";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { totp } from "../../../tests/setup/totp";
import { ensureAdminAccount } from "./accounts.server";
import { handleAuthRequest, REQUEST_PASSWORD_RESET_PATH, RESET_PASSWORD_PATH, SIGN_IN_PATH, VERIFY_BACKUP_CODE_PATH, VERIFY_TOTP_PATH } from "./auth-handler.server";
import { TRUST_DEVICE_OFF } from "./auth.server";
import { getSessionUser } from "./guard.server";
import { changePassword } from "./profile.server";
import { adminRequest, authRequest, createTestAuth, ORIGIN, signIn, TEST_SECRET } from "./test-auth.server";

// Issue 28, items 2 and 3 (decision 0037): a password-reset link works once and only until the
// account's password changes, the database never holds a usable link, and no browser is trusted to
// skip the second factor.

const { db } = await createTestDatabase();
const t = createTestAuth(db);
const call = (request: Request) => handleAuthRequest(request, { auth: t.auth, db, log: t.log });
const cookiesOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");

/** Asks for a reset link by e-mail, as "Forgot your password?" does; returns the token of the mailed link. */
async function mailedResetToken(email: string, ip: string): Promise<string> {
  const sent = t.mails.length;
  const response = await call(authRequest(REQUEST_PASSWORD_RESET_PATH, { email, redirectTo: "/admin/reset-password" }, { ip }));
  expect(response.status).toBe(200);
  const mail = t.mails.slice(sent).find((m) => m.to === email);
  const link = new URL(mail!.link!);
  expect(link.pathname).toMatch(/^\/api\/auth\/reset-password\/[A-Za-z0-9_-]+$/);
  return link.pathname.split("/").pop()!;
}

/** Opens a reset link: Better Auth sends the browser on to the form with ?token=… or with ?error=INVALID_TOKEN. */
async function openResetLink(token: string): Promise<string> {
  const response = await call(new Request(`${ORIGIN}/api/auth/reset-password/${token}?callbackURL=/admin/reset-password`));
  return response.headers.get("location") ?? `answered ${response.status}`;
}

/** An admin account with this password; its id. */
async function admin(email: string, password: string): Promise<string> {
  await ensureAdminAccount(t.auth, db, email, password);
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  return row!.id;
}

const resetWith = (token: string, newPassword: string, ip: string) => call(authRequest(RESET_PASSWORD_PATH, { token, newPassword }, { ip }));

describe("password-reset links", () => {
  test("a reset with the newer of two links ends the older one", async () => {
    await ensureAdminAccount(t.auth, db, "two-links@example.com", "a-long-admin-password-1");
    const first = await mailedResetToken("two-links@example.com", "192.0.2.1");
    const second = await mailedResetToken("two-links@example.com", "192.0.2.1");
    expect((await resetWith(second, "velvet-harbour-lantern-1", "192.0.2.1")).status).toBe(200);

    expect(await openResetLink(first)).toContain("error=INVALID_TOKEN");
    const late = await resetWith(first, "velvet-harbour-lantern-2", "192.0.2.1");
    expect(late.status).toBe(400);
    expect((await late.json()).code).toBe("INVALID_TOKEN");
    // The password is the one set with the newer link.
    expect((await signIn(t, "two-links@example.com", "velvet-harbour-lantern-1", "192.0.2.2")).cookie).not.toBeNull();
  });

  test("asking for a new reset link ends the older ones at once; the newest opens and works, once (issue 39)", async () => {
    await ensureAdminAccount(t.auth, db, "asks-again@example.com", "a-long-admin-password-8");
    const first = await mailedResetToken("asks-again@example.com", "192.0.2.7");
    const second = await mailedResetToken("asks-again@example.com", "192.0.2.7");
    const newest = await mailedResetToken("asks-again@example.com", "192.0.2.7");

    for (const older of [first, second]) {
      expect(await openResetLink(older)).toContain("error=INVALID_TOKEN");
      const refused = await resetWith(older, "velvet-harbour-lantern-8", "192.0.2.7");
      expect(refused.status).toBe(400);
      expect((await refused.json()).code).toBe("INVALID_TOKEN");
    }
    expect(await openResetLink(newest)).toContain(`token=${newest}`);
    expect((await resetWith(newest, "velvet-harbour-lantern-9", "192.0.2.7")).status).toBe(200);
    expect((await resetWith(newest, "velvet-harbour-lantern-10", "192.0.2.7")).status).toBe(400);
    expect((await signIn(t, "asks-again@example.com", "velvet-harbour-lantern-9", "192.0.2.8")).cookie).not.toBeNull();
  });

  test("a new reset link ends only that account's older links", async () => {
    await ensureAdminAccount(t.auth, db, "one-account@example.com", "a-long-admin-password-9");
    await ensureAdminAccount(t.auth, db, "other-account@example.com", "a-long-admin-password-10");
    const others = await mailedResetToken("other-account@example.com", "192.0.2.9");
    await mailedResetToken("one-account@example.com", "192.0.2.9");
    expect(await openResetLink(others)).toContain(`token=${others}`);
  });

  test("a password change ends every reset link still outstanding", async () => {
    await ensureAdminAccount(t.auth, db, "changes@example.com", "a-long-admin-password-2");
    const outstanding = await mailedResetToken("changes@example.com", "192.0.2.3");
    const { cookie } = await signIn(t, "changes@example.com", "a-long-admin-password-2", "192.0.2.3");
    const request = adminRequest("POST", cookie, "/admin/profile");
    const me = (await getSessionUser(request, t.context))!;
    await changePassword(request, t.context, me, {
      currentPassword: "a-long-admin-password-2",
      newPassword: "velvet-harbour-lantern-3",
      confirmPassword: "velvet-harbour-lantern-3",
    });

    expect(await openResetLink(outstanding)).toContain("error=INVALID_TOKEN");
    expect((await resetWith(outstanding, "velvet-harbour-lantern-4", "192.0.2.3")).status).toBe(400);
    expect((await signIn(t, "changes@example.com", "velvet-harbour-lantern-3", "192.0.2.4")).cookie).not.toBeNull();
  });

  test("the verification table holds no reset token in clear: a row read from it neither opens nor uses a link", async () => {
    const id = await admin("stolen-backup@example.com", "a-long-admin-password-3");
    const token = await mailedResetToken("stolen-backup@example.com", "192.0.2.5");
    const rows = await db.select().from(verification).where(eq(verification.value, id));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);

    // Whatever someone reading the table (or a backup) tries as the link's token is refused.
    const identifier = rows[0]!.identifier;
    for (const guess of new Set([identifier, identifier.replace(/^reset-password:/, ""), identifier.replace(/^[^:]*:/, "")])) {
      expect(await openResetLink(guess), guess).not.toContain(`token=${guess}`);
      expect((await resetWith(guess, "velvet-harbour-lantern-5", "192.0.2.5")).status, guess).toBe(400);
    }
    // The mailed link itself still works, once.
    expect(await openResetLink(token)).toContain(`token=${token}`);
    expect((await resetWith(token, "velvet-harbour-lantern-5", "192.0.2.5")).status).toBe(200);
    expect((await resetWith(token, "velvet-harbour-lantern-6", "192.0.2.5")).status).toBe(400);
  });

  test("the migration hashes the links and sign-ins waiting for a code that were stored in clear before, and forgets trusted devices", async () => {
    const id = await admin("before-upgrade@example.com", "a-long-admin-password-4");
    const inAnHour = new Date(Date.now() + 3600_000);
    const token = "OldPlainResetToken123456";
    await db.insert(verification).values([
      { id: "old-reset", identifier: `reset-password:${token}`, value: id, expiresAt: inAnHour },
      { id: "old-sign-in", identifier: "2fa-OldPlainSignIn12345", value: id, expiresAt: inAnHour },
      { id: "old-trust", identifier: "trust-device-OldPlainTrust1234567890123456789012", value: id, expiresAt: inAnHour },
    ]);
    const migrations = path.resolve(import.meta.dirname, "../../../drizzle");
    const file = readdirSync(migrations).find((name) => name.endsWith("_hashed_verification_tokens.sql"));
    expect(file).toBeDefined();
    for (const statement of readFileSync(path.join(migrations, file!), "utf8").split("--> statement-breakpoint")) {
      await db.execute(sql.raw(statement));
    }

    const rows = await db.select().from(verification).where(eq(verification.value, id));
    expect(rows.map((r) => r.id).sort()).toEqual(["old-reset", "old-sign-in"]);
    expect(JSON.stringify(rows)).not.toMatch(/reset-password:|2fa-|OldPlain/);
    // Hashed as Better Auth hashes: a sign-in waiting for its code still finds its row. A reset link
    // hashed so (at most 30 minutes old when this ran) no longer works since reset links are stored
    // after their prefix (issue 39): refused, as a link is once a newer one is asked for.
    expect(rows.find((r) => r.id === "old-sign-in")!.identifier).toBe(createHash("sha256").update("2fa-OldPlainSignIn12345").digest("base64url"));
    expect((await resetWith(token, "velvet-harbour-lantern-7", "192.0.2.6")).status).toBe(400);
  });
});

/** An admin with TOTP on, and the secret of its authenticator app. */
async function adminWithTotp(email: string, password: string, ip: string) {
  const id = await admin(email, password);
  const { cookie } = await signIn(t, email, password, ip);
  const headers = new Headers({ cookie: cookie! });
  const enabled = await t.auth.api.enableTwoFactor({ body: { password }, headers });
  if (enabled.method !== "totp") throw new Error("expected TOTP");
  const secret = new URL(enabled.totpURI).searchParams.get("secret")!;
  await t.auth.api.verifyTOTP({ body: { code: totp(secret) }, headers });
  const [row] = await db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.id, id));
  expect(row?.on).toBe(true);
  return { id, secret, backupCodes: enabled.backupCodes };
}

/** Signs in with the password (and any cookies the browser holds); the answer and the cookies it sets. */
async function passwordStep(email: string, password: string, ip: string, cookie?: string) {
  const response = await call(authRequest(SIGN_IN_PATH, { email, password }, { ip, cookie }));
  expect(response.status).toBe(200);
  return { body: (await response.json()) as { twoFactorRedirect?: boolean }, cookies: cookiesOf(response) };
}

describe("a reset link asked for during a sign-in", () => {
  test("does not end the sign-in waiting for its second factor (only reset links are ended)", async () => {
    const email = "signing-in-while-asking@example.com";
    const { secret } = await adminWithTotp(email, "a-long-admin-password-11", "192.0.2.40");
    const waiting = await passwordStep(email, "a-long-admin-password-11", "192.0.2.41");
    expect(waiting.body.twoFactorRedirect).toBe(true);
    await mailedResetToken(email, "192.0.2.42");
    const verified = await call(authRequest(VERIFY_TOTP_PATH, { code: totp(secret) }, { ip: "192.0.2.41", cookie: waiting.cookies }));
    expect(verified.status).toBe(200);
    expect(cookiesOf(verified)).toMatch(/better-auth\.session_token=[^;]/);
  });
});

describe("trusted devices", () => {
  test.each([
    ["verify-totp", VERIFY_TOTP_PATH],
    ["verify-backup-code", VERIFY_BACKUP_CODE_PATH],
  ])("%s with trustDevice is refused, sets no trust cookie, and the next sign-in asks for the code again", async (name, path) => {
    const email = `trusting-${name}@example.com`;
    const { secret, backupCodes } = await adminWithTotp(email, "a-long-admin-password-5", "192.0.2.20");
    const code = () => (path === VERIFY_TOTP_PATH ? totp(secret) : backupCodes[0]!);

    const first = await passwordStep(email, "a-long-admin-password-5", "192.0.2.21");
    expect(first.body.twoFactorRedirect).toBe(true);
    const trusting = await call(authRequest(path, { code: code(), trustDevice: true }, { ip: "192.0.2.21", cookie: first.cookies }));
    expect(trusting.status).toBe(400);
    expect(await trusting.json()).toMatchObject({ code: "TRUST_DEVICE_OFF", message: TRUST_DEVICE_OFF });
    expect(trusting.headers.getSetCookie().join("\n")).not.toContain("trust_device");

    // The same code without it signs in as usual…
    const plain = await call(authRequest(path, { code: code() }, { ip: "192.0.2.21", cookie: first.cookies }));
    expect(plain.status).toBe(200);
    expect(cookiesOf(plain)).not.toContain("trust_device");

    // …and the browser, with every cookie it was given, is asked for the second factor next time.
    const next = await passwordStep(email, "a-long-admin-password-5", "192.0.2.21", [first.cookies, cookiesOf(trusting), cookiesOf(plain)].filter(Boolean).join("; "));
    expect(next.body.twoFactorRedirect).toBe(true);
  });

  test("a trust cookie Better Auth made before this change is not honoured: the sign-in still asks for the code", async () => {
    const email = "trusted-before@example.com";
    const { id } = await adminWithTotp(email, "a-long-admin-password-6", "192.0.2.30");
    // What verify-totp with trustDevice left behind: a record of the device, and a signed cookie naming it.
    const trustIdentifier = "trust-device-MadeBeforeTheChange012345678901234";
    const context = await t.auth.$context;
    await context.internalAdapter.createVerificationValue({ value: id, identifier: trustIdentifier, expiresAt: new Date(Date.now() + 86_400_000) });
    const token = createHmac("sha256", TEST_SECRET).update(`${id}!${trustIdentifier}`).digest("base64url");
    const value = `${token}!${trustIdentifier}`;
    const signature = createHmac("sha256", TEST_SECRET).update(value).digest("base64");
    const trustCookie = `better-auth.trust_device=${encodeURIComponent(`${value}.${signature}`)}`;

    const signedIn = await passwordStep(email, "a-long-admin-password-6", "192.0.2.31", trustCookie);
    expect(signedIn.body.twoFactorRedirect).toBe(true);
    expect(signedIn.cookies).not.toMatch(/better-auth\.session_token=[^;]/);
  });
});
