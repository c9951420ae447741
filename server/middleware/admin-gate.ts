import type express from "express";
import { can, type Role } from "../../app/domain/accounts/roles";
import type { Logger } from "../../app/lib/logger.server";
import { pathClassOf } from "../request-path-class";

/** Who holds the session a request carries: null when nobody is signed in. */
export type SessionLookup = (request: Request) => Promise<{ id?: string; email?: string; role: Role | null } | null>;

/**
 * Defence in depth at the door of the back office, by the path's `adminGate` (app/lib/path-classes.ts):
 * a state change to an admin page, and any request to the admin API, from someone without a back-office role
 * right now is answered 401 (not signed in) or 403 before routing, so even a screen without an action
 * never answers 405 to an anonymous caller. Every loader, action and resource route still calls the
 * guard itself. Each back-office change that succeeds is logged with its actor (issue 12): who, what
 * path, what answer.
 */
export function adminGate(options: { publicOrigin: string; userOf: SessionLookup; log?: Logger }): express.RequestHandler {
  return async (req, res, next) => {
    const gate = pathClassOf(req).rules.adminGate;
    const read = req.method === "GET" || req.method === "HEAD";
    if (gate === "none" || (gate === "state-changes" && read)) return next();
    try {
      const headers = new Headers();
      if (req.headers.cookie) headers.set("cookie", req.headers.cookie);
      const user = await options.userOf(new Request(`${options.publicOrigin}${req.originalUrl}`, { headers }));
      if (can(user?.role, "backOffice")) {
        if (!read && options.log) {
          const log = options.log;
          res.on("finish", () => {
            if (res.statusCode >= 400) return;
            const actor = { id: user!.id, email: user!.email, role: user!.role };
            log.info({ actor, method: req.method, path: req.path, status: res.statusCode }, "back-office change");
          });
        }
        return next();
      }
      res.status(user ? 403 : 401).json({ error: user ? "Admin access required" : "Sign in required" });
    } catch (error) {
      next(error);
    }
  };
}
