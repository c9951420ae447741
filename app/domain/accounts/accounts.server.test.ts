import type { AppLoadContext } from "react-router";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { user } from "~/db/schema";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { ensureAdminAccount, grantAdmin, isAdmin, revokeAdmin } from "./accounts.server";
import { getSessionUser, requireCapability, requireCapabilityApi } from "./guard.server";

// The admin's own screens (settings): what an admin, and only an admin, may open.
const requireAdmin = (request: Request, context: AppLoadContext) => requireCapability(request, context, "settings.manage");
const requireAdminApi = (request: Request, context: AppLoadContext) => requireCapabilityApi(request, context, "settings.manage");
import { adminRequest, createTestAuth, guardOutcome, signIn, signUp } from "./test-auth.server";

const { db } = await createTestDatabase();
const t = createTestAuth(db);


describe("the admin guard", () => {
  test("an anonymous page request is redirected to /admin/login, any other method gets 401", async () => {
    expect(await guardOutcome(t, requireAdmin, "GET", null)).toEqual({ status: 302, location: "/admin/login" });
    expect(await guardOutcome(t, requireAdmin, "HEAD", null)).toEqual({ status: 302, location: "/admin/login" });
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) expect(await guardOutcome(t, requireAdmin, method, null)).toEqual({ status: 401 });
    expect(await guardOutcome(t, requireAdminApi, "GET", null)).toEqual({ status: 401 });
  });

  test("a forged or unknown session cookie counts as anonymous", async () => {
    expect(await guardOutcome(t, requireAdmin, "POST", "better-auth.session_token=forged.value")).toEqual({ status: 401 });
  });

  test("a signed-up ordinary user is redirected from pages and refused 403 elsewhere", async () => {
    const response = await signUp(t, "reader@example.com", "reader-password-1");
    expect(response.status).toBe(200);
    const { response: signedIn, cookie } = await signIn(t, "reader@example.com", "reader-password-1");
    expect(signedIn.status).toBe(200);
    expect(cookie).toBeTruthy();
    expect(await getSessionUser(adminRequest("GET", cookie), t.context)).toMatchObject({ email: "reader@example.com", role: null });
    expect(await guardOutcome(t, requireAdmin, "GET", cookie)).toEqual({ status: 302, location: "/admin/login" });
    expect(await guardOutcome(t, requireAdmin, "POST", cookie)).toEqual({ status: 403 });
    expect(await guardOutcome(t, requireAdminApi, "GET", cookie)).toEqual({ status: 403 });
  });

  test("sign-up makes an ordinary account and mails a confirmation link that returns to the site root", async () => {
    await signUp(t, "newcomer@example.com", "newcomer-password");
    const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, "newcomer@example.com"));
    expect(row).toBeDefined();
    expect(await isAdmin(db, row!.id)).toBe(false);
    const mail = t.mails.find((m) => m.to === "newcomer@example.com");
    expect(mail?.link).toMatch(/\/api\/auth\/verify-email\?token=[^&]+&callbackURL=%2F$/);
  });

  test("grant takes effect on the user's next request and revoke takes it away again", async () => {
    await signUp(t, "editor@example.com", "editor-password-1");
    const { cookie } = await signIn(t, "editor@example.com", "editor-password-1");
    expect(await guardOutcome(t, requireAdmin, "POST", cookie)).toEqual({ status: 403 });

    expect(await grantAdmin(db, "editor@example.com")).toBe(true);
    expect(await guardOutcome(t, requireAdmin, "POST", cookie)).toEqual({ status: 200, email: "editor@example.com" });
    expect(await guardOutcome(t, requireAdminApi, "DELETE", cookie)).toEqual({ status: 200, email: "editor@example.com" });

    // Another admin exists, so this one's role may go (the last admin's may not: see below).
    await ensureAdminAccount(t.auth, db, "keeper@example.com", "keeper-password-1");
    expect(await revokeAdmin(db, "editor@example.com")).toBe(true);
    expect(await guardOutcome(t, requireAdmin, "GET", cookie)).toEqual({ status: 302, location: "/admin/login" });
    expect(await revokeAdmin(db, "editor@example.com")).toBe(false);
  });

  test("after sign-out, replaying the old session cookie gets no admin access", async () => {
    await ensureAdminAccount(t.auth, db, "boss@example.com", "boss-password-1");
    const { cookie } = await signIn(t, "boss@example.com", "boss-password-1");
    expect(await guardOutcome(t, requireAdmin, "GET", cookie)).toEqual({ status: 200, email: "boss@example.com" });

    await t.auth.api.signOut({ headers: new Headers({ cookie: cookie! }) });

    expect(await getSessionUser(adminRequest("GET", cookie), t.context)).toBeNull();
    expect(await guardOutcome(t, requireAdmin, "GET", cookie)).toEqual({ status: 302, location: "/admin/login" });
    expect(await guardOutcome(t, requireAdmin, "POST", cookie)).toEqual({ status: 401 });
  });
});

describe("ADMIN_EMAIL at start", () => {
  test("creates the account with that password and makes it an admin, once", async () => {
    expect(await ensureAdminAccount(t.auth, db, "Chief@Example.com", "chief-password-1")).toEqual({ created: true, granted: true, refused: false });
    expect(await ensureAdminAccount(t.auth, db, "chief@example.com", "chief-password-1")).toEqual({ created: false, granted: false, refused: false });
    // The existing account kept its first password.
    expect((await signIn(t, "chief@example.com", "chief-password-1")).response.status).toBe(200);
    expect((await signIn(t, "chief@example.com", "another-password", "198.51.100.7")).response.status).toBe(401);
  });

  test("an account someone signed up with that address is not made admin unless its password is ADMIN_PASSWORD", async () => {
    await signUp(t, "promoted@example.com", "promoted-password");
    expect(await ensureAdminAccount(t.auth, db, "promoted@example.com", "someone-elses-password")).toEqual({ created: false, granted: false, refused: true });
    const { cookie } = await signIn(t, "promoted@example.com", "promoted-password");
    expect(await guardOutcome(t, requireAdminApi, "GET", cookie)).toEqual({ status: 403 });

    expect(await ensureAdminAccount(t.auth, db, "promoted@example.com", "promoted-password")).toEqual({ created: false, granted: true, refused: false });
    expect(await guardOutcome(t, requireAdmin, "GET", cookie)).toEqual({ status: 200, email: "promoted@example.com" });
  });
});
