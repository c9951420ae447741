import express from "express";
import { describe, expect, test } from "vitest";
import { CLIENT_IP_HEADER } from "../../app/lib/client-address.server";
import { clientAddress } from "./client-address";
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
