import express from "express";
import { describe, expect, test, vi } from "vitest";
import { cachedFlag, contentSecurityPolicy, securityHeaders } from "./security-headers";
import { serve } from "./test-app";

describe("headers on every answer", () => {
  test("nosniff, a strict referrer policy and same-origin framing; Connection: close once shutting down", async () => {
    let closing = false;
    const app = express();
    app.use(securityHeaders({ closing: () => closing }));
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

  test("the Content-Security-Policy lets pages frame only themselves and the two embed players", async () => {
    let ads = false;
    const app = express();
    app.use(securityHeaders({ closing: () => false, adsEnabled: () => ads }));
    app.use((_req, res) => void res.send("ok"));
    const { origin, close } = await serve(app);
    try {
      expect((await fetch(origin)).headers.get("content-security-policy")).toBe(
        "frame-src 'self' https://www.youtube-nocookie.com https://platform.twitter.com",
      );
      // With an ad network, whose frame origins change over time, any https frame.
      ads = true;
      expect((await fetch(origin)).headers.get("content-security-policy")).toBe("frame-src 'self' https:");
    } finally {
      await close();
    }
  });

  test("without ads the frame sources are exactly three origins: no scheme, wildcard or other host", () => {
    const [directive, ...sources] = contentSecurityPolicy({ ads: false }).split(" ");
    expect(directive).toBe("frame-src");
    expect(sources.sort()).toEqual(["'self'", "https://platform.twitter.com", "https://www.youtube-nocookie.com"]);
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
