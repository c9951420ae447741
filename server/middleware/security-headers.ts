import type express from "express";
import { EMBED_PLAYER_ORIGINS } from "../../app/domain/articles/story-urls";

/**
 * The Content-Security-Policy every answer carries. It limits frames only (scripts, styles and
 * images are not restricted by this header): a page may frame itself and the two click-to-load
 * players of story embeds (story-embed-html.ts), nothing else. When an ad network is configured,
 * its ads come in frames from origins that change over time (Google supports no allow-list for
 * them), so frames are then allowed from any https origin instead.
 */
export function contentSecurityPolicy(options: { ads: boolean }): string {
  const frames = options.ads ? ["'self'", "https:"] : ["'self'", EMBED_PLAYER_ORIGINS.youtube, EMBED_PLAYER_ORIGINS.x];
  return `frame-src ${frames.join(" ")}`;
}

/**
 * Headers every answer carries. While the process shuts down, answers also say Connection: close,
 * so keep-alive clients move to another process instead of reusing a closing one. `adsEnabled`
 * says whether an ad network is configured (see contentSecurityPolicy).
 */
export function securityHeaders(options: { closing: () => boolean; adsEnabled?: () => boolean }): express.RequestHandler {
  return (_req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    // The media route sets its own, stricter policy for the files it serves (it replaces this one).
    res.setHeader("Content-Security-Policy", contentSecurityPolicy({ ads: options.adsEnabled?.() ?? false }));
    if (options.closing()) res.setHeader("Connection", "close");
    next();
  };
}

/**
 * A yes/no read from somewhere slow (the settings row), kept for `ttlMs` and refreshed in the
 * background when older: callers never wait, and the answer is at most `ttlMs` behind. A failed read
 * keeps the last answer.
 */
export function cachedFlag(read: () => Promise<boolean>, options: { initial: boolean; ttlMs: number; onError?: (error: unknown) => void }) {
  let value = options.initial;
  let readAt = -Infinity;
  let pending = false;
  const refresh = () => {
    if (pending) return;
    pending = true;
    readAt = Date.now();
    read()
      .then((next) => void (value = next))
      .catch((error) => options.onError?.(error))
      .finally(() => void (pending = false));
  };
  return () => {
    if (Date.now() - readAt >= options.ttlMs) refresh();
    return value;
  };
}
