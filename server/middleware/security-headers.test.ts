import express from "express";
import { describe, expect, test, vi } from "vitest";
import { cachedFlag, cspDirectives, CSP_NONCE_LENGTH, securityHeaders, securityHeaderWriter } from "./security-headers";
import { serve } from "./test-app";

/** A policy's directives and their sources. */
function parsePolicy(header: string): Record<string, string[]> {
  return Object.fromEntries(
    header
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe("headers on every answer", () => {
  test("nosniff, a strict referrer policy and same-origin framing; Connection: close once shutting down", async () => {
    let closing = false;
    const app = express();
    app.use(securityHeaders(securityHeaderWriter({ closing: () => closing })));
    app.use((_req, res) => void res.send("ok"));
    const { origin, close } = await serve(app);
    try {
      const open = await fetch(origin);
      expect(open.headers.get("x-content-type-options")).toBe("nosniff");
      expect(open.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(open.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(open.headers.get("connection")).not.toBe("close");
      closing = true;
      expect((await fetch(origin)).headers.get("connection")).toBe("close");
    } finally {
      await close();
    }
  });

  test("the Content-Security-Policy: nonce-bound scripts with 'strict-dynamic', no plugins or <base>, same-origin framing and forms", async () => {
    const app = express();
    app.use(securityHeaders(securityHeaderWriter({ closing: () => false, mediaOrigins: ["https://media.example.net"] })));
    app.use((_req, res) => void res.send(`nonce=${res.locals.cspNonce}`));
    const { origin, close } = await serve(app);
    try {
      const answers = await Promise.all([fetch(origin), fetch(origin)]);
      const nonces: string[] = [];
      for (const answer of answers) {
        const policy = parsePolicy(answer.headers.get("content-security-policy")!);
        const nonce = (await answer.text()).replace("nonce=", "");
        expect(nonce).toHaveLength(CSP_NONCE_LENGTH);
        nonces.push(nonce);
        expect(policy["script-src"]).toEqual([`'nonce-${nonce}'`, "'strict-dynamic'"]);
        expect(policy["script-src-attr"]).toEqual(["'none'"]);
        expect(policy["object-src"]).toEqual(["'none'"]);
        expect(policy["base-uri"]).toEqual(["'none'"]);
        expect(policy["frame-ancestors"]).toEqual(["'self'"]);
        expect(policy["form-action"]).toEqual(["'self'"]);
        expect(policy["img-src"]).toEqual(["'self'", "data:", "blob:", "https://media.example.net"]);
        expect(policy["media-src"]).toEqual(["'self'", "blob:", "https://media.example.net"]);
        expect(policy["frame-src"]).toEqual(["'self'", "https://www.youtube-nocookie.com", "https://platform.twitter.com"]);
        expect(Object.values(policy).flat()).not.toContain("'unsafe-eval'");
        expect(policy["script-src"]).not.toContain("'unsafe-inline'");
        expect(policy["upgrade-insecure-requests"]).toBeUndefined();
        expect(answer.headers.get("strict-transport-security")).toBeNull();
      }
      expect(nonces[0]).not.toBe(nonces[1]);
    } finally {
      await close();
    }
  });

  test("with an ad network, frames, images and calls from any https origin; scripts stay nonce-bound", async () => {
    let ads = false;
    const app = express();
    app.use(securityHeaders(securityHeaderWriter({ closing: () => false, adsEnabled: () => ads })));
    app.use((_req, res) => void res.send("ok"));
    const { origin, close } = await serve(app);
    try {
      expect(parsePolicy((await fetch(origin)).headers.get("content-security-policy")!)["frame-src"]).not.toContain("https:");
      ads = true;
      const policy = parsePolicy((await fetch(origin)).headers.get("content-security-policy")!);
      expect(policy["frame-src"]).toEqual(["'self'", "https:"]);
      expect(policy["img-src"]).toContain("https:");
      expect(policy["connect-src"]).toEqual(["'self'", "https:"]);
      expect(policy["script-src"]).toHaveLength(2);
      expect(policy["script-src"]![1]).toBe("'strict-dynamic'");
    } finally {
      await close();
    }
  });

  test("an https site adds HSTS for a year with subdomains and upgrades insecure requests", async () => {
    const app = express();
    app.use(securityHeaders(securityHeaderWriter({ closing: () => false, publicUrl: "https://news.example.org" })));
    app.use((_req, res) => void res.send("ok"));
    const { origin, close } = await serve(app);
    try {
      const answer = await fetch(origin);
      expect(answer.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(parsePolicy(answer.headers.get("content-security-policy")!)["upgrade-insecure-requests"]).toEqual([]);
    } finally {
      await close();
    }
  });

  test("a cached flag answers at once, refreshes in the background after its time, and keeps its answer when a read fails", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const answers: (boolean | Error)[] = [true, new Error("down"), false];
      const read = vi.fn(async () => {
        const next = answers.shift()!;
        if (next instanceof Error) throw next;
        return next;
      });
      const errors: unknown[] = [];
      const flag = cachedFlag(read, { initial: false, ttlMs: 1000, onError: (e) => errors.push(e) });
      expect(flag()).toBe(false);
      await vi.waitFor(() => expect(flag()).toBe(true));
      expect(read).toHaveBeenCalledTimes(1);
      vi.setSystemTime(Date.now() + 1000);
      expect(flag()).toBe(true);
      await vi.waitFor(() => expect(errors).toHaveLength(1));
      expect(flag()).toBe(true);
      vi.setSystemTime(Date.now() + 1000);
      flag();
      await vi.waitFor(() => expect(flag()).toBe(false));
      expect(read).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("form-action with Stripe (issue 40)", () => {
  test("allows a form post's redirect to Checkout's and the portal's origins only when named", () => {
    expect(cspDirectives({ ads: false, https: true, mediaOrigins: [] })["form-action"]).toEqual(["'self'"]);
    expect(cspDirectives({ ads: false, https: true, mediaOrigins: [], formOrigins: ["https://checkout.stripe.com", "https://billing.stripe.com"] })["form-action"]).toEqual([
      "'self'",
      "https://checkout.stripe.com",
      "https://billing.stripe.com",
    ]);
  });
});
