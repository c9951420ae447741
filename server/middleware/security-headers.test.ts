import express from "express";
import { describe, expect, test } from "vitest";
import { securityHeaders } from "./security-headers";
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
});
