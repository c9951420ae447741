import { randomFillSync } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type express from "express";
import helmet from "helmet";
import { EMBED_PLAYER_ORIGINS } from "../../app/domain/articles/story-urls";

/** How long a nonce is: 16 random bytes in base64url, always 22 characters (the page cache relies on it). */
export const CSP_NONCE_LENGTH = 22;

const NONCE_BYTES = 16;
/** Random bytes drawn 256 nonces at a time (one system call, not one per answer); each byte serves one nonce. */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let noncePoolAt = noncePool.length;

/** A fresh script nonce: one per answer, never reused (a cached page gets a new one each time it is sent). */
export function newCspNonce(): string {
  if (noncePoolAt === noncePool.length) {
    randomFillSync(noncePool);
    noncePoolAt = 0;
  }
  noncePoolAt += NONCE_BYTES;
  return noncePool.toString("base64url", noncePoolAt - NONCE_BYTES, noncePoolAt);
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
  /**
   * Where a form's answer may redirect besides this origin: Stripe Checkout and its Customer Portal
   * when Stripe is configured (issue 40; browsers hold form-action to the redirects a form post gets).
   */
  formOrigins?: readonly string[];
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
    "form-action": ["'self'", ...(options.formOrigins ?? [])],
    "upgrade-insecure-requests": options.https ? [] : null,
  };
}

interface SecurityHeaderOptions {
  closing: () => boolean;
  adsEnabled?: () => boolean;
  publicUrl?: string;
  mediaOrigins?: readonly string[];
  formOrigins?: readonly string[];
}

/** Stands for the nonce while helmet's headers are worked out once (as long as a real one). */
const NONCE_MARK = "n".repeat(CSP_NONCE_LENGTH);

/**
 * Headers every answer carries, from helmet: the CSP above with a fresh nonce per answer, nosniff, a
 * strict referrer policy, same-origin framing and opener, and HSTS for a year with subdomains when the
 * site is https. While the process shuts down, answers also say Connection: close, so keep-alive
 * clients move to another process. `adsEnabled` says whether an ad network is configured.
 *
 * Helmet runs once per policy (with and without ads), against a recorder: each answer then only puts
 * its nonce into the recorded policy. The same writer serves Express (securityHeaders) and the page
 * cache's door (server/cache-door.ts), so a cached answer carries exactly what a rendered one does.
 */
export interface SecurityHeaderWriter {
  /** Sets the headers on an answer (Express's layers set more later). */
  (res: ServerResponse, nonce: string): void;
  /**
   * The same headers as one flat name, value, name, value… list, for a single writeHead (the page
   * cache's door); without a Content-Security-Policy when `nonce` is null (a 304).
   */
  flat(nonce: string | null): string[];
}

export function securityHeaderWriter(options: SecurityHeaderOptions): SecurityHeaderWriter {
  const https = (options.publicUrl ?? "").startsWith("https:");
  const recorded = (ads: boolean) => {
    const headers: [string, string][] = [];
    const recorder = {
      locals: { cspNonce: NONCE_MARK },
      setHeader: (name: string, value: string) => void headers.push([name, String(value)]),
      removeHeader: () => undefined,
    };
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: cspDirectives({ ads, https, mediaOrigins: options.mediaOrigins ?? [], formOrigins: options.formOrigins ?? [] }) },
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      xFrameOptions: { action: "sameorigin" },
      // Feed readers and other sites may show our images (RSS, social cards): no Cross-Origin-Resource-Policy.
      crossOriginResourcePolicy: false,
    })(recorder as unknown as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
    const policy = headers.find(([name]) => name === "Content-Security-Policy")![1].split(NONCE_MARK);
    if (policy.length !== 2) throw new Error("the Content-Security-Policy names its nonce once");
    const fixed = headers.filter(([name]) => name !== "Content-Security-Policy");
    return { fixed, fixedFlat: fixed.flat(), policy: policy as [string, string] };
  };
  const withAds = recorded(true);
  const withoutAds = recorded(false);
  const write = (res: ServerResponse, nonce: string) => {
    const { fixed, policy } = options.adsEnabled?.() ? withAds : withoutAds;
    for (const [name, value] of fixed) res.setHeader(name, value);
    res.setHeader("Content-Security-Policy", policy[0] + nonce + policy[1]);
    if (options.closing()) res.setHeader("Connection", "close");
  };
  write.flat = (nonce: string | null) => {
    const { fixedFlat, policy } = options.adsEnabled?.() ? withAds : withoutAds;
    const flat = nonce === null ? [...fixedFlat] : [...fixedFlat, "Content-Security-Policy", policy[0] + nonce + policy[1]];
    if (options.closing()) flat.push("Connection", "close");
    return flat;
  };
  return write;
}

/** A securityHeaderWriter for Express: a fresh nonce per answer, kept in res.locals.cspNonce for the renderer and the page cache. */
export function securityHeaders(write: SecurityHeaderWriter): express.RequestHandler {
  return (_req, res, next) => {
    const nonce = newCspNonce();
    res.locals.cspNonce = nonce;
    write(res, nonce);
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
