import type express from "express";
import type { Logger } from "../../app/lib/logger.server";

/**
 * The last handler: Express's own refusals (a malformed escape in a route parameter: 400, a missing
 * asset: 404) keep their status with a plain text answer; anything else is logged with its cause and
 * answered 500 without it. An answer already under way is ended.
 */
export function errorHandler(log: Logger): express.ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    // The client went away mid-answer (a closed tab, a cancelled image): nothing to answer, nothing wrong here.
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ECONNABORTED" || code === "ECONNRESET" || code === "EPIPE" || req.destroyed) {
      log.debug({ path: req.originalUrl, code }, "client went away");
      return void res.end();
    }
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      log.warn({ path: req.originalUrl, status }, "request refused");
      if (!res.headersSent) return void res.status(status).type("text/plain").send(status === 404 ? "Not Found" : "Bad Request");
      return void res.end();
    }
    log.error({ err: error, path: req.originalUrl }, "unhandled request error");
    if (!res.headersSent) res.status(500).type("text/plain").send("Internal Server Error");
    else res.end();
  };
}
