import type { Db } from "~/db/client.server";
import { CLIENT_IP_HEADER, type Auth } from "~/lib/auth.server";
import type { Logger } from "~/lib/logger.server";
import { accountEmailSchema } from "./accounts.schema";
import { checkLoginLimit, clearAccountFailures, recordFailedLogin } from "./login-limit.server";

const SIGN_IN_PATH = "/api/auth/sign-in/email";
const NO_STORE = "no-store";

/** The client address server/index.ts put on the request ("unknown" outside that server, e.g. in tests). */
export function clientIpOf(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER)?.trim() || "unknown";
}

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

/** Reads the sign-in body once (JSON or a form), keeping the text to hand on to Better Auth. */
async function readSignInBody(request: Request): Promise<{ text: string; email: string | null }> {
  const text = await request.text();
  // Media types are case-insensitive, and Better Auth reads "Application/JSON" too: so must the limit.
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  let raw: unknown = null;
  try {
    if (type.includes("application/json")) raw = (JSON.parse(text) as { email?: unknown })?.email;
    else if (type.includes("application/x-www-form-urlencoded")) raw = new URLSearchParams(text).get("email");
  } catch {
    raw = null;
  }
  const parsed = typeof raw === "string" ? accountEmailSchema.safeParse(raw) : null;
  return { text, email: parsed?.success ? parsed.data : null };
}

/**
 * Better Auth's /api/auth/* endpoints, with the sign-in attempt limit around e-mail sign-in: after
 * MAX_FAILED_LOGINS failures for the account or the IP inside the window, attempts are answered 429
 * before the password is looked at; a refused password is recorded; a success clears the account.
 */
export async function handleAuthRequest(request: Request, services: { auth: Auth; db: Db; log: Logger }): Promise<Response> {
  const { auth, db, log } = services;
  const url = new URL(request.url);
  if (request.method !== "POST" || url.pathname.replace(/\/+$/, "") !== SIGN_IN_PATH) {
    return withNoStore(await auth.handler(request));
  }

  const ip = clientIpOf(request);
  const { text, email } = await readSignInBody(request);
  const forward = new Request(request.url, { method: "POST", headers: request.headers, body: text, signal: request.signal });
  if (!email) return withNoStore(await auth.handler(forward));

  const limit = await checkLoginLimit(db, email, ip);
  if (limit.limited) {
    log.warn({ email, ip }, "sign-in refused: too many failed attempts");
    return json({ code: "TOO_MANY_ATTEMPTS", message: limit.message }, 429, { "Retry-After": String(limit.retryAfterSeconds) });
  }

  const response = await auth.handler(forward);
  if (response.status === 401) {
    await recordFailedLogin(db, email, ip);
    log.info({ email, ip }, "sign-in failed");
  } else if (response.ok) {
    await clearAccountFailures(db, email, ip);
  }
  return withNoStore(response);
}
