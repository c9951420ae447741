import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type express from "express";
import helmet from "helmet";
import { EMBED_PLAYER_ORIGINS } from "../../app/domain/articles/story-urls";

/** How long a nonce is: 16 random bytes in base64url, always 22 characters (the page cache relies on it). */
export const CSP_NONCE_LENGTH = 22;

/** A fresh script nonce: one per answer, never reused (a cached page gets a new one each time it is sent). */
export function newCspNonce(): string {
  return randomBytes(16).toString("base64url");
}

/** The nonce of this answer's Content-Security-Policy (set by securityHeaders for every request). */
export function cspNonceOf(res: ServerResponse): string {
  return (res as express.Response).locals.cspNonce as string;
}

export interface CspOptions {
  /** Whether an ad network is configured: its scripts load further scripts, frames and images from origins that change. */
  ads: boolean;
  /** Where media may come from besides this origin (S3_PUBLIC_URL's origin, when media is served from a bucket). */
  mediaOrigins: readonly string[];
  /** The site is served over https: ask browsers to upgrade any http subresource. */
  https: boolean;
}

/**
 * The Content-Security-Policy of every answer (decision 0020). Scripts run only with this answer's
 * nonce, and what those scripts load ('strict-dynamic': the app's modules, the ad network's loader);
 * no inline event handler, no eval, no plugin, no <base>. Pages may be framed by the site only, send
 * forms to the site only, and frame only themselves and the two click-to-load embed players
 * (story-embed-html.ts). Images and video come from the site and its media origin (data:/blob: for
 * the editor's previews). With an ad network its frames, images and calls come from origins that
 * change over time (Google publishes no list), so those three then allow any https origin; scripts
 * stay nonce-bound.
 */
export function cspDirectives(options: CspOptions) {
  const nonce = (_req: IncomingMessage, res: ServerResponse) => `'nonce-${cspNonceOf(res)}'`;
  const anyHttps = options.ads ? ["https:"] : [];
  return {
    "default-src": ["'self'"],
    "script-src": [nonce, "'strict-dynamic'"],
    "script-src-attr": ["'none'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...options.mediaOrigins, ...anyHttps],
    "media-src": ["'self'", "blob:", ...options.mediaOrigins],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...anyHttps],
    "frame-src": options.ads ? ["'self'", "https:"] : ["'self'", EMBED_PLAYER_ORIGINS.youtube, EMBED_PLAYER_ORIGINS.x],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'self'"],
    "form-action": ["'self'"],
    "upgrade-insecure-requests": options.https ? [] : null,
  };
}

/**
 * Headers every answer carries, from helmet: the CSP above with a fresh nonce per answer (kept in
 * res.locals.cspNonce for the renderer and the page cache), nosniff, a strict referrer policy,
 * same-origin framing and opener, and HSTS for a year with subdomains when the site is https. The
 * media route sets its own, stricter policy for the files it serves. While the process shuts down,
 * answers also say Connection: close, so keep-alive clients move to another process. `adsEnabled`
 * says whether an ad network is configured.
 */
export function securityHeaders(options: {
  closing: () => boolean;
  adsEnabled?: () => boolean;
  publicUrl?: string;
  mediaOrigins?: readonly string[];
}): express.RequestHandler {
  const https = (options.publicUrl ?? "").startsWith("https:");
  const headersFor = (ads: boolean) =>
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: cspDirectives({ ads, https, mediaOrigins: options.mediaOrigins ?? [] }) },
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      xFrameOptions: { action: "sameorigin" },
      // Feed readers and other sites may show our images (RSS, social cards): no Cross-Origin-Resource-Policy.
      crossOriginResourcePolicy: false,
    });
  const withAds = headersFor(true);
  const withoutAds = headersFor(false);
  return (req, res, next) => {
    res.locals.cspNonce = newCspNonce();
    if (options.closing()) res.setHeader("Connection", "close");
    (options.adsEnabled?.() ? withAds : withoutAds)(req, res, next);
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
