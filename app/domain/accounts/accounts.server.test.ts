import type { AppLoadContext } from "react-router";
import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { user } from "~/db/schema";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { ensureAdminAccount, grantAdmin, isAdmin, LAST_ADMIN, revokeAdmin, roleOf, setRole } from "./accounts.server";
import { refusal } from "../../../tests/setup/refusal";
import { getSessionUser, requireCapability, requireCapabilityApi } from "./guard.server";
import { adminRequest, createTestAuth, guardOutcome, signIn, signUp } from "./test-auth.server";

// The admin's own screens (settings): what an admin, and only an admin, may open.
const requireAdmin = (request: Request, context: AppLoadContext) => requireCapability(request, context, "settings.manage");
const requireAdminApi = (request: Request, context: AppLoadContext) => requireCapabilityApi(request, context, "settings.manage");

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

describe("roles (decision 0017)", () => {
  test("one role per account: setRole replaces it, and the guard reads the new one on the next request", async () => {
    await signUp(t, "writer@example.com", "writer-password-1");
    const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, "writer@example.com"));
    const { cookie } = await signIn(t, "writer@example.com", "writer-password-1");
    const asAuthor = (request: Request, context: AppLoadContext) => requireCapability(request, context, "articles.create");
    const asEditor = (request: Request, context: AppLoadContext) => requireCapability(request, context, "articles.publish");

    expect(await setRole(db, row!.id, "author")).toBeNull();
    expect(await roleOf(db, row!.id)).toBe("author");
    expect(await guardOutcome(t, asAuthor, "POST", cookie)).toEqual({ status: 200, email: "writer@example.com" });
    expect(await guardOutcome(t, asEditor, "POST", cookie)).toEqual({ status: 403 });
    // A back-office user whose role lacks the capability reads a 403 page, not the login page.
    expect(await guardOutcome(t, asEditor, "GET", cookie)).toEqual({ status: 403 });

    expect(await setRole(db, row!.id, "editor")).toBe("author");
    expect(await guardOutcome(t, asEditor, "POST", cookie)).toEqual({ status: 200, email: "writer@example.com" });
    expect(await guardOutcome(t, requireAdmin, "POST", cookie)).toEqual({ status: 403 });

    expect(await setRole(db, row!.id, null)).toBe("editor");
    expect(await roleOf(db, row!.id)).toBeNull();
    expect(await guardOutcome(t, asAuthor, "GET", cookie)).toEqual({ status: 302, location: "/admin/login" });
  });

  test("the last admin keeps the role: neither a demotion nor a removal passes, even two at once", async () => {
    const fresh = await createTestDatabase();
    const auth = createTestAuth(fresh.db);
    await ensureAdminAccount(auth.auth, fresh.db, "only@example.com", "only-password-1");
    await ensureAdminAccount(auth.auth, fresh.db, "second@example.com", "second-password-1");
    const ids = await fresh.db.select({ id: user.id, email: user.email }).from(user);
    const only = ids.find((r) => r.email === "only@example.com")!.id;
    const second = ids.find((r) => r.email === "second@example.com")!.id;

    // Two admins demote each other at the same moment: one passes, the other is refused.
    const results = await Promise.allSettled([setRole(fresh.db, only, "editor"), setRole(fresh.db, second, "editor")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const admins = (await Promise.all([roleOf(fresh.db, only), roleOf(fresh.db, second)])).filter((r) => r === "admin");
    expect(admins).toHaveLength(1);

    const last = (await roleOf(fresh.db, only)) === "admin" ? only : second;
    for (const next of ["editor", "author", null] as const) {
      const error = await refusal(setRole(fresh.db, last, next));
      expect([error.status, error.message]).toEqual([409, LAST_ADMIN]);
    }
    expect(await roleOf(fresh.db, last)).toBe("admin");
  });
});
