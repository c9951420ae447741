import type express from "express";

/**
 * Headers every answer carries. While the process shuts down, answers also say Connection: close,
 * so keep-alive clients move to another process instead of reusing a closing one.
 */
export function securityHeaders(options: { closing: () => boolean }): express.RequestHandler {
  return (_req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    if (options.closing()) res.setHeader("Connection", "close");
    next();
  };
}
