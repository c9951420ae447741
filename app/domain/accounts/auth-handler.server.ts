import type { Db } from "~/db/client.server";
import { CLIENT_IP_HEADER, clientIpOf } from "~/lib/client-address.server";
import type { Auth } from "./auth.server";
import type { Logger } from "~/lib/logger.server";
import { NUL_REFUSED } from "~/lib/forms";
import { normalizePath } from "~/lib/path-classes";
import { takeAllowance, type LimitRule } from "~/lib/rate-limit.server";
import { accountEmailSchema } from "./accounts.schema";
import { accountFailures, ACCOUNT_SLOWDOWN_AFTER, beginLoginAttempt, endLoginAttempt } from "./login-limit.server";
import type { KnownDevices } from "./known-devices.server";
import { eq } from "drizzle-orm";
import { user } from "~/db/schema";
import { recordActivity } from "~/domain/activity/activity.server";
import { actorOf } from "./actor";

export const SIGN_IN_PATH = "/api/auth/sign-in/email";
export const SIGN_UP_PATH = "/api/auth/sign-up/email";
/** The second step of a sign-in for an account with two-factor authentication on. */
export const VERIFY_TOTP_PATH = "/api/auth/two-factor/verify-totp";
export const VERIFY_BACKUP_CODE_PATH = "/api/auth/two-factor/verify-backup-code";
export const REQUEST_PASSWORD_RESET_PATH = "/api/auth/request-password-reset";
export const RESET_PASSWORD_PATH = "/api/auth/reset-password";
/** The link of a sign-up's confirmation e-mail. */
export const VERIFY_EMAIL_PATH = "/api/auth/verify-email";
/** The link of a password-reset e-mail: Better Auth checks the token and sends the browser on to the form. */
const RESET_LINK_PREFIX = "/api/auth/reset-password/";

/** "Forgot your password?" sends mail: at most this many requests an hour per address, and per e-mail address. */
export const PASSWORD_RESET_LIMIT: LimitRule = {
  bucket: "password-reset",
  max: 5,
  windowMs: 60 * 60 * 1000,
  refusal: "Too many password reset requests.",
};
/** A second factor is checked by Better Auth, which locks it after 10 wrong codes; each address may also try this often. */
export const SECOND_FACTOR_LIMIT: LimitRule = {
  bucket: "second-factor",
  max: 20,
  windowMs: 15 * 60 * 1000,
  refusal: "Too many authentication codes were tried.",
};

/** Each sign-up sends a confirmation mail: an address may create this many accounts an hour. */
export const SIGN_UP_LIMIT: LimitRule = {
  bucket: "sign-up",
  max: 5,
  windowMs: 60 * 60 * 1000,
  refusal: "Too many accounts were created from your address.",
};

/**
 * The Better Auth endpoints this site offers, by method. The others (verify-password, resending
 * verification mail, account deletion, session lists, turning a second factor on or off, …) have no
 * screen here or are called by the profile screen on the server, and several would check passwords or
 * send mail without the limits below: they answer 404.
 */
const OFFERED_ENDPOINTS: Record<string, readonly string[]> = {
  POST: [SIGN_IN_PATH, SIGN_UP_PATH, "/api/auth/sign-out", VERIFY_TOTP_PATH, VERIFY_BACKUP_CODE_PATH, REQUEST_PASSWORD_RESET_PATH, RESET_PASSWORD_PATH],
  GET: ["/api/auth/get-session", VERIFY_EMAIL_PATH, "/api/auth/ok"],
};

/**
 * Whether a verification link asks to change an account's e-mail (Better Auth's `updateTo` claim).
 * This site has no screen for that, and such a link needs no session: one forged with a leaked
 * secret would move any account to another address (decision 0036). Only the sign-up confirmation is
 * served; the claim is read before any signature check, since either way the link is refused.
 */
function changesEmail(token: string | null): boolean {
  const payload = token?.split(".")[1];
  if (!payload) return false;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return typeof claims === "object" && claims !== null && "updateTo" in claims;
  } catch {
    return false;
  }
}

function isOffered(method: string, path: string): boolean {
  const verb = method === "HEAD" ? "GET" : method;
  if (verb === "GET" && path.startsWith(RESET_LINK_PREFIX) && /^[A-Za-z0-9_-]{10,200}$/.test(path.slice(RESET_LINK_PREFIX.length))) return true;
  return OFFERED_ENDPOINTS[verb]?.includes(path) ?? false;
}

/** A JSON body (of an answer or a request), read from a copy (the message itself goes on untouched); null when it is not JSON. */
async function jsonOf(response: Response | Request): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await response.clone().json();
    return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
const NO_STORE = "no-store";

function withNoStore(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", NO_STORE);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": NO_STORE, ...headers },
  });
}

/** Any JSON media type (application/json, application/vnd.x+json), as Better Auth's body parser reads them. */
const JSON_TYPE = /^application\/([\w!#$&^.-]+\+)?json$/;
const FORM_TYPE = "application/x-www-form-urlencoded";

type SignInBody = { ok: true; fields: Record<string, unknown>; email: string } | { ok: false; status: 400 | 415; message: string };

/**
 * Reads a sign-in body once, JSON or a URL-encoded form, into the fields Better Auth will see. The
 * e-mail the limit counts must be the one whose password is checked, so only bodies read here go on,
 * with one e-mail (a repeated field is refused: parsers disagree on which copy wins), normalised.
 */
async function readSignInBody(request: Request): Promise<SignInBody> {
  // Media types are case-insensitive ("Application/JSON"), and may carry parameters.
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const text = await request.text();
  let fields: Record<string, unknown>;
  if (JSON_TYPE.test(type)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, status: 400, message: "The sign-in body is not valid JSON." };
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return { ok: false, status: 400, message: "Send the sign-in as a JSON object with email and password." };
    }
    fields = parsed as Record<string, unknown>;
  } else if (type === FORM_TYPE) {
    const form = new URLSearchParams(text);
    const keys = [...form.keys()];
    if (new Set(keys).size !== keys.length) return { ok: false, status: 400, message: "Each sign-in field may be sent once." };
    fields = Object.fromEntries(form);
  } else {
    return { ok: false, status: 415, message: "Send the sign-in as JSON or as a URL-encoded form." };
  }
  const email = typeof fields.email === "string" ? accountEmailSchema.safeParse(fields.email) : null;
  if (!email?.success) return { ok: false, status: 400, message: "Please enter a valid email address." };
  return { ok: true, fields: { ...fields, email: email.data }, email: email.data };
}

/**
 * The request with its path spelled as checked here (normalizePath: decoded, no trailing slash), so
 * Better Auth routes on the very endpoint name the allow-list and the limits saw.
 */
function withPath(request: Request, path: string): Request {
  const url = new URL(request.url);
  if (url.pathname === path) return request;
  url.pathname = path;
  const init: RequestInit & { duplex?: "half" } = { method: request.method, headers: request.headers, body: request.body, signal: request.signal };
  if (request.body) init.duplex = "half";
  return new Request(url, init);
}

/**
 * The answer of a completed sign-in, marking the browser as a known device of the account (its
 * cookie beside Better Auth's session cookie, Secure when that one is).
 */
function withKnownDevice(response: Response, request: Request, email: string, knownDevices: KnownDevices | undefined): Response {
  if (!knownDevices) return response;
  const secure = response.headers.getSetCookie().some((cookie) => /;\s*secure\b/i.test(cookie));
  const headers = new Headers(response.headers);
  headers.append("Set-Cookie", knownDevices.cookieFor(email, request.headers.get("cookie"), secure));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function recordSignIn(db: Db, email: string, ip: string, succeeded: boolean) {
  const [account] = await db.select({ id: user.id, email: user.email, name: user.name }).from(user).where(eq(user.email, email)).limit(1);
  const actor = succeeded && account ? actorOf(account) : { id: account?.id ?? null, name: email };
  await recordActivity(db, actor, {
    kind: succeeded ? "sign_in.success" : "sign_in.failure",
    objectType: "account",
    objectId: account?.id ?? null,
    objectLabel: email,
    ip,
  });
}

/**
 * Better Auth's /api/auth/* endpoints, with the sign-in attempt limit around e-mail sign-in: after
 * MAX_FAILED_LOGINS failures for the account or the IP inside the window, attempts are answered 429
 * before the password is looked at; a refused password is recorded; a success clears the account.
 */
export async function handleAuthRequest(received: Request, services: { auth: Auth; db: Db; log: Logger; knownDevices?: KnownDevices }): Promise<Response> {
  const { auth, db, log, knownDevices } = services;
  // The path normalised as every URL rule of the site is (app/lib/path-classes.ts), but matched
  // exactly: Better Auth's endpoint names are case-sensitive.
  const path = normalizePath(new URL(received.url).pathname);
  if (!isOffered(received.method, path)) {
    return json({ code: "NOT_FOUND", message: "Not found" }, 404);
  }
  const request = withPath(received, path);
  if (path === VERIFY_EMAIL_PATH && changesEmail(new URL(request.url).searchParams.get("token"))) {
    log.warn({ ip: clientIpOf(request) }, "e-mail change link refused: this site offers no e-mail change");
    return json({ code: "EMAIL_CHANGE_NOT_OFFERED", message: "Changing an account's e-mail address is not offered on this site." }, 400);
  }
  // A NUL anywhere in the body (raw, JSON-escaped or form-escaped): no account field may hold one.
  if (received.method === "POST" && /\0|\\u0000|%00/i.test(await request.clone().text())) return json({ code: "INVALID_REQUEST", message: NUL_REFUSED }, 400);
  const ip = clientIpOf(request);
  if (path === SIGN_UP_PATH) {
    const limit = await takeAllowance(db, SIGN_UP_LIMIT, ip);
    if (limit.limited) {
      log.warn({ ip }, "sign-up refused: too many from this address");
      return json({ code: "TOO_MANY_SIGN_UPS", message: limit.message }, 429, { "Retry-After": String(limit.retryAfterSeconds) });
    }
  }
  if (path === REQUEST_PASSWORD_RESET_PATH) {
    // Limited per address and per e-mail address; known and unknown addresses get the same answer (Better Auth's).
    const body = await jsonOf(request);
    const email = typeof body?.email === "string" ? body.email.trim().toLowerCase() : "";
    for (const key of [`address ${ip}`, `email ${email}`]) {
      const limit = await takeAllowance(db, PASSWORD_RESET_LIMIT, key);
      if (limit.limited) {
        log.warn({ ip }, "password reset refused: too many requests");
        return json({ code: "TOO_MANY_REQUESTS", message: limit.message }, 429, { "Retry-After": String(limit.retryAfterSeconds) });
      }
    }
    log.info({ ip }, "password reset requested");
  }
  if (path === VERIFY_TOTP_PATH || path === VERIFY_BACKUP_CODE_PATH) {
    const limit = await takeAllowance(db, SECOND_FACTOR_LIMIT, ip);
    if (limit.limited) return json({ code: "TOO_MANY_ATTEMPTS", message: limit.message }, 429, { "Retry-After": String(limit.retryAfterSeconds) });
    const response = await auth.handler(request);
    const signedIn = response.ok ? ((await jsonOf(response))?.user as { email?: string } | undefined) : undefined;
    if (signedIn?.email) {
      log.info({ email: signedIn.email, ip, factor: path === VERIFY_TOTP_PATH ? "totp" : "backup code" }, "signed in");
      await recordSignIn(db, signedIn.email, ip, true);
      return withNoStore(withKnownDevice(response, request, signedIn.email, knownDevices));
    }
    if (!response.ok) log.info({ ip }, "second factor refused");
    return withNoStore(response);
  }
  if (path === RESET_PASSWORD_PATH) {
    const response = await auth.handler(request);
    if (response.ok) log.info({ ip }, "password reset with an e-mailed link");
    return withNoStore(response);
  }
  if (path !== SIGN_IN_PATH) return withNoStore(await auth.handler(request));

  const body = await readSignInBody(request);
  if (!body.ok) return json({ code: body.status === 415 ? "UNSUPPORTED_MEDIA_TYPE" : "INVALID_REQUEST", message: body.message }, body.status);
  const { email } = body;
  // Better Auth gets the very fields read here, as JSON: it cannot read another e-mail than the one counted.
  const headers = new Headers(request.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  const forward = new Request(request.url, { method: "POST", headers, body: JSON.stringify(body.fields), signal: request.signal });

  const knownDevice = knownDevices?.isKnown(request.headers.get("cookie"), email) ?? false;
  const { id, limit, slowed } = await beginLoginAttempt(db, email, ip, new Date(), { knownDevice });
  if (limit.limited) {
    log.warn({ email, ip, accountSlowed: slowed === true }, slowed ? "sign-in refused: the account is slowed after many failures" : "sign-in refused: too many failed attempts");
    return json({ code: slowed ? "ACCOUNT_SLOWED" : "TOO_MANY_ATTEMPTS", message: limit.message }, 429, { "Retry-After": String(limit.retryAfterSeconds) });
  }

  const attempt = { id, email, ip };
  let response: Response;
  try {
    response = await auth.handler(forward);
  } catch (error) {
    await endLoginAttempt(db, attempt, "failed"); // an attempt that threw stays counted
    throw error;
  }
  const outcome = response.status === 401 ? "failed" : response.ok ? "signed-in" : "other";
  // The right password of an account with a second factor: no session yet, the code is asked next.
  const secondFactorAsked = response.ok && (await jsonOf(response))?.twoFactorRedirect === true;
  await endLoginAttempt(db, attempt, outcome);
  if (outcome === "failed") log.info({ email, ip }, "sign-in failed");
  if (secondFactorAsked) log.info({ email, ip }, "password accepted; second factor asked");
  else if (outcome === "signed-in") log.info({ email, ip }, "signed in");
  // The audit trail (decision 0017): who signed in, and every refused password (named by the e-mail tried).
  if (outcome === "failed" || (outcome === "signed-in" && !secondFactorAsked)) await recordSignIn(db, email, ip, outcome === "signed-in");
  if (outcome === "failed") await noteAccountSlowed(db, log, email, ip);
  if (outcome === "signed-in" && !secondFactorAsked) return withNoStore(withKnownDevice(response, request, email, knownDevices));
  return withNoStore(response);
}

/**
 * The failure that slows an account (its ACCOUNT_SLOWDOWN_AFTER-th in the window, from any addresses)
 * is logged and put on the activity screen once, with how many addresses took part.
 */
async function noteAccountSlowed(db: Db, log: Logger, email: string, ip: string) {
  const { failures, addresses } = await accountFailures(db, email);
  if (failures !== ACCOUNT_SLOWDOWN_AFTER) return;
  log.warn({ email, ip, failures, addresses }, "sign-in slowed for an account: many failures from any addresses");
  const [account] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
  await recordActivity(db, { id: account?.id ?? null, name: email }, {
    kind: "sign_in.slowed",
    objectType: "account",
    objectId: account?.id ?? null,
    objectLabel: email,
    details: { failures, addresses },
    ip,
  });
}

/**
 * Sends an e-mail sign-in (or sign-up) for a page's own form through handleAuthRequest, with the
 * browser's headers that matter (cookies, origin, client address): the same limits, the same answers.
 */
export function postToAuth(
  request: Request,
  services: { auth: Auth; db: Db; log: Logger },
  path: typeof SIGN_IN_PATH | typeof SIGN_UP_PATH | typeof VERIFY_TOTP_PATH | typeof VERIFY_BACKUP_CODE_PATH | typeof REQUEST_PASSWORD_RESET_PATH,
  body: Record<string, string>,
): Promise<Response> {
  const headers = new Headers({ "content-type": "application/json" });
  for (const name of ["cookie", "origin", "referer", "user-agent", CLIENT_IP_HEADER]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  return handleAuthRequest(new Request(new URL(path, request.url), { method: "POST", headers, body: JSON.stringify(body) }), services);
}
