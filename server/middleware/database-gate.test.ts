import express from "express";
import { afterAll, describe, expect, test } from "vitest";
import { databaseGate } from "./database-gate";
import { serve } from "./test-app";

// The gate in front of everything that needs the database (issue 12): nothing hangs while it is down.

const listeners = new Set<() => void>();
const health = {
  up: true,
  onDown(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
const goDown = () => {
  health.up = false;
  for (const listener of [...listeners]) listener();
  listeners.clear();
};

const app = express();
app.use(databaseGate({ health, exempt: (req) => req.path === "/healthz" }));
// A route whose query never returns (the database froze under it).
app.get("/hangs", () => {});
app.post("/api/views", () => {});
app.get(["/healthz", "/category/news"], (_req, res) => void res.send("reached"));
const { origin, close } = await serve(app);
afterAll(close);

describe("the database gate", () => {
  test("a request already waiting on the database is answered 503 the moment it is seen down", async () => {
    health.up = true;
    const waiting = fetch(`${origin}/hangs`, { headers: { Accept: "application/json" } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    goDown();
    const answer = await waiting;
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
    expect(await answer.json()).toEqual({ error: "The site is temporarily unavailable. Please try again in a moment." });
  });

  test("while down: a write or a personal request is answered at once; an anonymous cacheable read and the health check go on", async () => {
    health.up = false;
    expect((await fetch(`${origin}/api/views`, { method: "POST" })).status).toBe(503);
    expect((await fetch(`${origin}/category/news`, { headers: { Cookie: "better-auth.session_token=x" } })).status).toBe(503);
    expect(await (await fetch(`${origin}/category/news`)).text()).toBe("reached");
    expect(await (await fetch(`${origin}/healthz`)).text()).toBe("reached");
  });
});
