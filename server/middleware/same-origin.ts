import type express from "express";
import { isSessionCookiePresent } from "../../app/lib/auth-cookie";
import type { Logger } from "../../app/lib/logger.server";
import { hasMemberSessionCookie } from "../../app/domain/members/member-session.server";
import { pathClassOf } from "../request-path-class";

/**
 * A state change must come from this site: a cross-site form post (or fetch) is refused with 403.
 * Requests with neither Origin nor Referer pass when anonymous (curl, server-to-server); browsers send
 * one of them with every POST, so a signed-in one (a staff or a member's session cookie) that names neither is a program
 * holding someone's cookie, refused with 403 too where the path's class says so
 * (`signedInChangesNameTheSite` in app/lib/path-classes.ts; issue 28). This site is the origin the
 * request was sent to, or PUBLIC_URL's.
 */
export function sameOriginStateChanges(options: { publicOrigin: string; log: Logger }): express.RequestHandler {
  const refuse = (res: express.Response, text: string) => {
    res.status(403).setHeader("Cache-Control", "no-store");
    res.type("text/plain").send(text);
  };
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const source = req.get("origin") ?? req.get("referer");
    if (!source) {
      const signedIn = isSessionCookiePresent(req.headers.cookie) || hasMemberSessionCookie(req.headers.cookie);
      if (!signedIn || !pathClassOf(req).rules.signedInChangesNameTheSite) return next();
      options.log.warn({ method: req.method, path: req.path }, "signed-in request naming no origin refused");
      return refuse(res, "Forbidden: a signed-in request must come from this site (send Origin)");
    }
    const origin = source !== "null" && URL.canParse(source) ? new URL(source).origin : null;
    const ownOrigin = `${req.protocol}://${req.get("host")}`;
    if (origin && (origin === ownOrigin || origin === options.publicOrigin)) return next();
    options.log.warn({ method: req.method, path: req.path, origin: source }, "cross-site request refused");
    refuse(res, "Forbidden: cross-site request refused");
  };
}
