import express from "express";
import { describe, expect, test } from "vitest";
import { CLIENT_IP_HEADER } from "../../app/lib/client-address.server";
import { clientAddress, forwardedClientAddress, type TrustProxy } from "./client-address";
import { serve } from "./test-app";

async function addressSeen(trustProxy: string | boolean, headers: Record<string, string>) {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.use(clientAddress());
  app.use((req, res) => void res.send(req.headers[CLIENT_IP_HEADER]));
  const { origin, close } = await serve(app);
  try {
    return await (await fetch(origin, { headers })).text();
  } finally {
    await close();
  }
}

describe("the client address the limits count under", () => {
  test("is the connection's address; a value the client put in the header itself is overwritten", async () => {
    expect(await addressSeen(false, { [CLIENT_IP_HEADER]: "203.0.113.9", "X-Forwarded-For": "203.0.113.10" })).toBe("127.0.0.1");
  });

  test("is the forwarded address when the proxy it came through is trusted", async () => {
    expect(await addressSeen("loopback", { "X-Forwarded-For": "203.0.113.10" })).toBe("203.0.113.10");
  });
});

describe("the client address of a request answered before Express", () => {
  /** What Express says `req.ip` is, and what forwardedClientAddress says, for the same request. */
  async function bothSee(trustProxy: string | boolean | number, forwardedFor: string | undefined) {
    const app = express();
    app.set("trust proxy", trustProxy);
    app.use((req, res) => void res.json({ express: req.ip, ours: forwardedClientAddress(req, app.get("trust proxy fn") as TrustProxy) }));
    const { origin, close } = await serve(app);
    try {
      return (await (await fetch(origin, { headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {} })).json()) as { express: string; ours: string };
    } finally {
      await close();
    }
  }

  test.each([
    [false, "203.0.113.10"],
    ["loopback", "203.0.113.10"],
    ["loopback", "198.51.100.7, 203.0.113.10"],
    [true, "198.51.100.7, 203.0.113.10"],
    [1, "198.51.100.7, 203.0.113.10"],
    [2, "198.51.100.7, 203.0.113.10"],
    ["loopback", undefined],
    ["loopback, 203.0.113.0/24", "198.51.100.7, 203.0.113.10"],
  ] as const)("is what Express derives (trust proxy %s, X-Forwarded-For %s)", async (trustProxy, forwardedFor) => {
    const seen = await bothSee(trustProxy, forwardedFor);
    expect(seen.ours).toBe(seen.express);
  });
});
