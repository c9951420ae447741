import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { personalAnswers } from "./personal-answers";
import { serve } from "./test-app";

// Routes that answer as routes do: some choose their own Cache-Control, which "always" paths override.
let origin = "";
let close: () => Promise<void>;
beforeAll(async () => {
  const app = express();
  app.use(personalAnswers());
  app.get("/api/admin/events", (_req, res) => {
    res.setHeader("Content-Type", "text/event-stream");
    res.flushHeaders();
    res.end();
  });
  app.get("/rss.xml", (_req, res) => void res.set("Cache-Control", "public, max-age=300").send("<rss/>"));
  app.get("/assets/app.js", (_req, res) => void res.send("js"));
  app.use((req, res) => {
    if (req.query.cache) res.setHeader("Cache-Control", String(req.query.cache));
    if (req.query.vary) res.setHeader("Vary", String(req.query.vary));
    res.send("answer");
  });
  ({ origin, close } = await serve(app));
});
afterAll(() => close());

const signedIn = { Cookie: "theme=dark; better-auth.session_token=abc" };
const cacheControl = async (path: string, init: RequestInit = {}) => (await fetch(`${origin}${path}`, init)).headers.get("cache-control");

describe("Cache-Control of personal answers", () => {
  test("the back office, its login, the auth API and sign-out answer exactly no-store, whatever the route chose", async () => {
    for (const path of ["/admin", "/admin.data", "/admin/settings", "/ADMIN/Settings", "/%61dmin/media", "/admin/login", "/admin/no-such-screen", "/api/admin/media", "/api/auth/get-session", "/auth/sign-out"]) {
      expect(await cacheControl(`${path}?cache=public,max-age=600`), path).toBe("no-store");
      expect(await cacheControl(path, { method: "POST" }), `POST ${path}`).toBe("no-store");
    }
  });

  test("an admin event stream is no-store and no-transform", async () => {
    expect(await cacheControl("/api/admin/events")).toBe("no-store, no-transform");
  });

  test("a signed-in reader's page is private and varies on Cookie; the same page anonymously is left to the cache", async () => {
    const page = await fetch(`${origin}/category/news?vary=Accept-Encoding`, { headers: signedIn });
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(page.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    expect(await cacheControl("/category/news")).toBeNull();
    expect(await cacheControl("/api/articles/a/comments", { method: "GET", headers: signedIn })).toBe("private, no-store");
  });

  test("what a reader route chose itself stays, for signed-in readers too", async () => {
    expect(await cacheControl("/rss.xml", { headers: signedIn })).toBe("public, max-age=300");
    expect(await cacheControl("/article/a?cache=no-cache", { headers: signedIn })).toBe("no-cache");
  });

  test("a signed-in reader's write is left alone (a write's answer is never stored by a cache)", async () => {
    expect(await cacheControl("/article/a", { method: "POST", headers: signedIn })).toBeNull();
  });

  test("Express's own answers (assets, health) are left as they are", async () => {
    expect(await cacheControl("/assets/app.js", { headers: signedIn })).toBeNull();
    expect(await cacheControl("/healthz", { headers: signedIn })).toBeNull();
  });
});
