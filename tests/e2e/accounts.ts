import { expect, request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import type { Role } from "../../app/domain/accounts/roles";
import { withDb } from "./db";

// Accounts for the e2e tests that act as someone other than the demo admin: sign up through Better
// Auth's endpoint (as the login page does), give a role straight in user_roles, sign in over HTTP.

/** A 1×1 PNG, real enough for the upload routes' type-from-bytes check. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

export const uniqueEmail = (what: string) => `${what}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;

/**
 * A fresh HTTP client of the e2e server (its own cookies). It names the site in Origin, as a browser
 * does: a signed-in state change naming no origin is refused (issue 28).
 */
export function newContext(baseURL: string | undefined): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: baseURL ? { Origin: new URL(baseURL).origin } : {} });
}

export async function signIn(context: APIRequestContext, email: string, password: string) {
  const response = await context.post("/api/auth/sign-in/email", { data: { email, password } });
  expect(response.status(), `sign-in of ${email}: ${await response.text()}`).toBe(200);
}

/** Signs up an ordinary account through Better Auth's endpoint (as the login page does), then signs in. */
export async function signUpAndSignIn(context: APIRequestContext, email: string, password: string) {
  const response = await context.post("/api/auth/sign-up/email", {
    data: { email, password, name: email.split("@")[0], callbackURL: "/" },
    // Sign-ups are limited per client address; the e2e server trusts X-Forwarded-For from loopback.
    headers: { "X-Forwarded-For": `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
  });
  expect(response.status(), `sign-up of ${email}: ${await response.text()}`).toBe(200);
  await signIn(context, email, password);
  const session = await (await context.get("/api/auth/get-session")).json();
  expect(session?.user?.email).toBe(email);
}

/** Gives the account `role` (or none) in the e2e server's database, replacing the one it had. */
export async function setRoleInDb(email: string, role: Role | null) {
  await withDb(async (db) => {
    const { rows } = await db.query<{ id: string }>(`select id from "user" where lower(email) = lower($1)`, [email]);
    expect(rows[0], `the account ${email}`).toBeDefined();
    await db.query(`delete from user_roles where user_id = $1`, [rows[0].id]);
    if (role) await db.query(`insert into user_roles (user_id, role) values ($1, $2)`, [rows[0].id, role]);
  });
}

/** A signed-in HTTP client of a new account holding `role` (null: a reader). */
export async function accountWithRole(baseURL: string | undefined, what: string, role: Role | null) {
  const context = await newContext(baseURL);
  const email = uniqueEmail(what);
  const password = `${what}-password-1`;
  await signUpAndSignIn(context, email, password);
  await setRoleInDb(email, role);
  return { context, email, password };
}
