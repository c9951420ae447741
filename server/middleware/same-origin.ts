import type express from "express";
import type { Logger } from "../../app/lib/logger.server";

/**
 * A state change must come from this site: a cross-site form post (or fetch) is refused with 403.
 * Requests with neither Origin nor Referer (curl, server-to-server) pass; browsers send Origin on
 * every cross-site POST. This site is the origin the request was sent to, or PUBLIC_URL's.
 */
export function sameOriginStateChanges(options: { publicOrigin: string; log: Logger }): express.RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const source = req.get("origin") ?? req.get("referer");
    if (!source) return next();
    const origin = source !== "null" && URL.canParse(source) ? new URL(source).origin : null;
    const ownOrigin = `${req.protocol}://${req.get("host")}`;
    if (origin && (origin === ownOrigin || origin === options.publicOrigin)) return next();
    options.log.warn({ method: req.method, path: req.path, origin: source }, "cross-site request refused");
    res.status(403).setHeader("Cache-Control", "no-store");
    res.type("text/plain").send("Forbidden: cross-site request refused");
  };
}
