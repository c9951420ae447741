import type express from "express";
import type { Logger } from "../../app/lib/logger.server";

/** The only methods the site answers: its pages, forms and APIs use nothing else. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;
const ALLOW = [...ALLOWED_METHODS, "OPTIONS"].join(", ");

/** An address holding an escaped NUL: no page, file or search has one, and PostgreSQL cannot take it. */
const NUL_IN_ADDRESS = /%00/i;
export const NUL_ADDRESS_REFUSED = "The address contains a NUL character (%00), which is not allowed.";

/**
 * Answers at the door for any other method (issue 12): OPTIONS with 204 and the methods allowed (no
 * cross-origin access is granted), anything else (TRACE, PUT, PROPFIND, …) with 405; and an address
 * with an escaped NUL with 400. Nothing of such a request reaches routing, so no client can make it
 * write a stack trace; one warning line is logged.
 */
export function allowedMethods(log: Logger): express.RequestHandler {
  return (req, res, next) => {
    if ((ALLOWED_METHODS as readonly string[]).includes(req.method)) {
      if (!NUL_IN_ADDRESS.test(req.url)) return next();
      log.warn({ method: req.method, path: req.path.slice(0, 200) }, "NUL in the address refused");
      return void res.status(400).type("text/plain").send(NUL_ADDRESS_REFUSED);
    }
    res.set("Allow", ALLOW);
    if (req.method === "OPTIONS") return void res.status(204).end();
    log.warn({ method: req.method.slice(0, 20), path: req.path.slice(0, 200) }, "method not allowed");
    res.status(405).type("text/plain").send("Method Not Allowed");
  };
}
