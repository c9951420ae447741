import type express from "express";
import { isSessionCookiePresent } from "../../app/lib/auth-cookie";
import { pathClassOf } from "../request-path-class";

/** Seconds a client is asked to wait before trying again while the database is down. */
export const RETRY_AFTER_SECONDS = 5;
export const UNAVAILABLE_MESSAGE = "The site is temporarily unavailable. Please try again in a moment.";

const UNAVAILABLE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Temporarily unavailable</title><style>body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f8fafc;color:#0f172a}main{max-width:32rem;padding:2rem;text-align:center}h1{font-size:1.5rem}</style></head><body><main><h1>Temporarily unavailable</h1><p>${UNAVAILABLE_MESSAGE}</p><p><a href="">Try again</a></p></main></body></html>`;

/** 503 with a retry hint: a page for browsers, JSON for everything else; never stored. */
export function answerUnavailable(req: express.Request, res: express.Response) {
  if (res.headersSent) return void res.end();
  res.status(503).set({ "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" });
  if (req.accepts(["html", "json"]) === "html" && !req.path.endsWith(".data")) res.type("html").send(UNAVAILABLE_PAGE);
  else res.json({ error: UNAVAILABLE_MESSAGE });
}

/** An anonymous read the page cache may answer (it needs no database when the page is there). */
export function mayBeCached(req: express.Request): boolean {
  return (req.method === "GET" || req.method === "HEAD") && pathClassOf(req).rules.cacheable && !isSessionCookiePresent(req.headers.cookie);
}

/**
 * While the database is down (server/database-health.ts), a request that needs it is answered 503 at
 * once, and one already waiting on it is answered 503 the moment it goes down, so nothing hangs until
 * the client gives up. Anonymous reads of cacheable pages go on: the page cache answers those it has
 * (createAppHandler answers 503 for the others). `exempt` paths (health, static files) always go on.
 */
export function databaseGate(options: { health: { up: boolean; onDown(listener: () => void): () => void }; exempt: (req: express.Request) => boolean }): express.RequestHandler {
  return (req, res, next) => {
    if (options.exempt(req)) return next();
    if (!options.health.up && !mayBeCached(req)) return answerUnavailable(req, res);
    const cancel = options.health.onDown(() => {
      if (!res.writableEnded) answerUnavailable(req, res);
    });
    res.on("close", cancel);
    next();
  };
}
