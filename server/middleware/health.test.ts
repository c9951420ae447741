import express from "express";
import { describe, expect, test } from "vitest";
import { healthCheck } from "./health";
import { recordingLogger, serve } from "./test-app";

async function check(ping: () => Promise<unknown>, onAnswer?: () => void) {
  const { log, entries } = recordingLogger();
  const app = express();
  app.get("/healthz", healthCheck({ ping, log, timeoutMs: 100, onAnswer }));
  const { origin, close } = await serve(app);
  try {
    const response = await fetch(`${origin}/healthz`);
    return { status: response.status, body: await response.json(), logged: entries().map((e) => e.msg) };
  } finally {
    await close();
  }
}

describe("GET /healthz", () => {
  test("answers 200 while the database answers, and tells the pages' gate so", async () => {
    let told = 0;
    expect(await check(async () => 1, () => void told++)).toEqual({ status: 200, body: { status: "ok", database: "up" }, logged: [] });
    expect(told).toBe(1);
    await check(() => Promise.reject(new Error("down")), () => void told++);
    expect(told).toBe(1);
  });

  test("answers 503 when the database fails, and says why in the log", async () => {
    expect(await check(() => Promise.reject(new Error("connection refused")))).toEqual({
      status: 503,
      body: { status: "error", database: "down" },
      logged: ["health check failed"],
    });
  });

  test("answers 503 when the database does not answer in time", async () => {
    const result = await check(() => new Promise(() => {}));
    expect(result).toMatchObject({ status: 503, body: { status: "error", database: "down" } });
    expect(result.logged[0]).toContain("did not answer in time");
  });
});
