import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/** The cookie a browser keeps once it has signed in to an account (issue 28, decision 0038). */
export const KNOWN_DEVICE_COOKIE = "fp_known_device";
/** How long a browser stays known after its last successful sign-in. */
export const KNOWN_DEVICE_DAYS = 180;
const DAY_S = 24 * 60 * 60;

/**
 * Known devices: a browser that signed in to an account before carries a signed cookie naming that
 * account (by a hash of its e-mail, never the address itself), so the account-wide sign-in slowdown
 * (login-limit.server.ts) does not slow its owner while strangers guess from elsewhere. The cookie
 * grants nothing by itself: the password (and the second factor) are still checked. Nothing is
 * stored: any app process with the same secret reads it. The key is derived from the session secret
 * for this one purpose.
 */
export interface KnownDevices {
  /** The Set-Cookie header value that marks this browser as known for `email` (added to the one it has). */
  cookieFor(email: string, current: string | null, secure: boolean): string;
  /** Whether the request's cookie header names `email` as an account this browser signed in to. */
  isKnown(cookieHeader: string | null, email: string): boolean;
}

/** The most accounts one browser is remembered for (a shared desk computer); the oldest go first. */
const MAX_ACCOUNTS = 5;

const accountKey = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("base64url").slice(0, 22);

function cookieValue(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === KNOWN_DEVICE_COOKIE) return rest.join("=");
  }
  return null;
}

export function createKnownDevices(secret: string): KnownDevices {
  const key = createHmac("sha256", secret).update("frontpage known devices v1").digest();
  const sign = (payload: string) => createHmac("sha256", key).update(payload).digest("base64url");

  /** The accounts a cookie value names, when its signature holds (else none). */
  function accountsOf(value: string | null): string[] {
    if (!value) return [];
    const dot = value.lastIndexOf(".");
    if (dot <= 0) return [];
    const payload = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(sign(payload));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return [];
    return payload.split("~").filter((account) => /^[A-Za-z0-9_-]{22}$/.test(account));
  }

  return {
    cookieFor(email, current, secure) {
      const account = accountKey(email);
      const accounts = [...accountsOf(cookieValue(current)).filter((a) => a !== account), account].slice(-MAX_ACCOUNTS);
      const payload = accounts.join("~");
      const attributes = [`Max-Age=${KNOWN_DEVICE_DAYS * DAY_S}`, "Path=/", "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])];
      return `${KNOWN_DEVICE_COOKIE}=${payload}.${sign(payload)}; ${attributes.join("; ")}`;
    },
    isKnown(cookieHeader, email) {
      return accountsOf(cookieValue(cookieHeader)).includes(accountKey(email));
    },
  };
}
