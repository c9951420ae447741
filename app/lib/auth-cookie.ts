/** Better Auth's session cookie (with the __Secure- prefix on https). */
export const SESSION_COOKIE_NAME = "better-auth.session_token";

/** True when the Cookie header carries a session cookie: such requests are personal and never cached. */
export function isSessionCookiePresent(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((part) => {
    const name = part.split("=")[0]!.trim();
    return name === SESSION_COOKIE_NAME || name === `__Secure-${SESSION_COOKIE_NAME}`;
  });
}

/** The Set-Cookie headers of a Better Auth answer, to pass on in the route's own answer (a redirect, data). */
export function setCookiesOf(headers: Headers): Headers {
  const out = new Headers();
  for (const cookie of headers.getSetCookie()) out.append("Set-Cookie", cookie);
  return out;
}
