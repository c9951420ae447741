import pino from "pino";
import type { AppLoadContext } from "react-router";
import type { Db } from "~/db/client.server";
import { createAuth } from "~/domain/accounts/auth.server";
import { CLIENT_IP_HEADER } from "~/lib/client-address.server";
import type { MailMessage } from "~/lib/mail.server";
import { handleAuthRequest } from "./auth-handler.server";
import { createKnownDevices } from "./known-devices.server";

// Test helpers for the accounts area: a real Better Auth on a test database, requests as a browser
// (or curl) would send them, and the mail it would have sent.

export const ORIGIN = "http://localhost:3000";
/** The test auth's secret (a test may sign a cookie the way Better Auth would). */
export const TEST_SECRET = "test-secret-test-secret-test-secret-0123456789";

/** A real Better Auth on `db`; `secret` as a site's session secret (a restored site's, for one). */
export function createTestAuth(db: Db, secret = TEST_SECRET) {
  const log = pino({ level: "silent" });
  const mails: MailMessage[] = [];
  const auth = createAuth({
    db,
    baseURL: ORIGIN,
    secret,
    mailer: { send: async (message) => void mails.push(message) },
    log,
  });
  const knownDevices = createKnownDevices(secret);
  const context = { db, auth, log, knownDevices } as unknown as AppLoadContext;
  return { auth, log, mails, context, knownDevices };
}

export type TestAuth = ReturnType<typeof createTestAuth>;

export function authRequest(path: string, body: unknown, options: { ip?: string; cookie?: string } = {}) {
  const headers = new Headers({ "content-type": "application/json", [CLIENT_IP_HEADER]: options.ip ?? "203.0.113.1" });
  if (options.cookie) {
    headers.set("cookie", options.cookie);
    headers.set("origin", ORIGIN);
  }
  return new Request(`${ORIGIN}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

/** Signs in through the /api/auth route (limit included); returns the response and the session cookie. */
export async function signIn(t: TestAuth, email: string, password: string, ip?: string) {
  const response = await handleAuthRequest(authRequest("/api/auth/sign-in/email", { email, password }, { ip }), {
    auth: t.auth,
    db: (t.context as { db: Db }).db,
    log: t.log,
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    // An empty value clears the cookie (a sign-in that asks for a second factor first): no session.
    .find((c) => c.startsWith("better-auth.session_token=") && c.length > "better-auth.session_token=".length);
  return { response, cookie: cookie ?? null };
}

let signUpAddress = 0;

/** Signs up through the /api/auth route, each time from another address unless one is given (sign-ups are limited per address). */
export async function signUp(t: TestAuth, email: string, password: string, ip = `198.18.${Math.floor(++signUpAddress / 250)}.${signUpAddress % 250}`) {
  return handleAuthRequest(authRequest("/api/auth/sign-up/email", { email, password, name: email.split("@")[0], callbackURL: "/" }, { ip }), {
    auth: t.auth,
    db: (t.context as { db: Db }).db,
    log: t.log,
  });
}

/** A page or API request to the back office carrying (or not) a session cookie. */
export function adminRequest(method: string, cookie: string | null, path = "/admin") {
  const headers = new Headers();
  if (cookie) headers.set("cookie", cookie);
  return new Request(`${ORIGIN}${path}`, { method, headers });
}

/** What a guard threw: a redirect Response, or React Router's data() with a status. */
export function describeThrown(thrown: unknown): { status: number; location?: string | null } {
  if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("location") };
  const init = (thrown as { init?: { status?: number } })?.init;
  if (init?.status) return { status: init.status };
  throw thrown;
}

/** What an admin guard answers a request with this session cookie: the admin's e-mail, or what it threw. */
export async function guardOutcome(
  t: ReturnType<typeof createTestAuth>,
  guard: (request: Request, context: ReturnType<typeof createTestAuth>["context"]) => Promise<{ email: string }>,
  method: string,
  cookie: string | null,
) {
  try {
    const u = await guard(adminRequest(method, cookie), t.context);
    return { status: 200, email: u.email };
  } catch (thrown) {
    return describeThrown(thrown);
  }
}
