/**
 * The cookies of readers' access (issue 40, decision 0054). Two are HttpOnly and signed by the server
 * (server/reader-access.ts writes and reads them); two are plain hints for the page's own script, which
 * never decide anything.
 */

/** Signed, HttpOnly, minutes long: a signed-in member's class (member id, paid tiers, free stories read). */
export const ACCESS_COOKIE = "frontpage-access";
/** Signed, HttpOnly, 30 days: an anonymous reader's meter (its period's start and the stories read whole). */
export const METER_COOKIE = "frontpage-meter";
/** A hint for the header (readable by script): "member" while a member is signed in. */
export const READER_HINT_COOKIE = "frontpage-reader";
/** A hint for a metered read (readable by script, two minutes): `<articleId>.<left>.<allowed>`. */
export const METER_NOTE_COOKIE = "frontpage-meter-note";

/** The value of cookie `name` in a Cookie header, or null. */
export function cookieValue(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at === -1) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/** A metered read's note, as the page's script reads it from METER_NOTE_COOKIE. */
export function parseMeterNote(value: string | null): { articleId: string; left: number; allowed: number } | null {
  const match = value ? /^([0-9a-f-]{36})\.(\d+)\.(\d+)$/.exec(decodeURIComponent(value)) : null;
  return match ? { articleId: match[1]!, left: Number(match[2]), allowed: Number(match[3]) } : null;
}

/**
 * The Set-Cookie value of READER_HINT_COOKIE: "member" for `maxAgeSeconds` (a member's session's
 * lifetime), or cleared (maxAgeSeconds 0). Readable by script on purpose (the header swaps "Sign in" for
 * "Account"), SameSite=Lax, Secure on https. It decides nothing: the session and access cookies do.
 */
export function readerHintSetCookie(options: { secure: boolean; maxAgeSeconds: number }): string {
  const { secure, maxAgeSeconds } = options;
  const value = maxAgeSeconds > 0 ? "member" : "";
  const expires = maxAgeSeconds > 0 ? "" : "; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
  return `${READER_HINT_COOKIE}=${value}; Path=/; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${expires}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Whether the browser's cookies (document.cookie) say a member is signed in: a hint for the header only. */
export function hasReaderHint(cookies: string): boolean {
  return cookieValue(cookies, READER_HINT_COOKIE) === "member";
}
