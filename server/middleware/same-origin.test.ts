import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sameOriginStateChanges } from "./same-origin";
import { recordingLogger, serve } from "./test-app";

const { log, entries } = recordingLogger();
let origin = "";
let close: () => Promise<void>;
beforeAll(async () => {
  const app = express();
  app.use(sameOriginStateChanges({ publicOrigin: "https://news.example", log }));
  app.use((_req, res) => void res.send("reached the route"));
  ({ origin, close } = await serve(app));
});
afterAll(() => close());

const send = (method: string, headers: Record<string, string> = {}, path = "/admin/settings") => fetch(`${origin}${path}`, { method, headers });
const SIGNED_IN = { Cookie: "theme=dark; better-auth.session_token=abc.def" };

describe("state changes come from this site", () => {
  test("a cross-site POST is refused with 403, no-store, and logged", async () => {
    const response = await send("POST", { Origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toBe("Forbidden: cross-site request refused");
    expect(entries().at(-1)).toMatchObject({ msg: "cross-site request refused", origin: "https://evil.example", method: "POST" });
  });

  test("an opaque or unreadable origin is refused too", async () => {
    expect((await send("DELETE", { Origin: "null" })).status).toBe(403);
    expect((await send("POST", { Referer: "not a url" })).status).toBe(403);
    expect((await send("POST", { Referer: "https://evil.example/page" })).status).toBe(403);
  });

  test("a story page's reading beacon (issue 42) passes from this site and is refused from another", async () => {
    const beacon = (headers: Record<string, string>) => fetch(`${origin}/api/audience/read`, { method: "POST", headers: { "Content-Type": "text/plain;charset=UTF-8", ...headers }, body: "{}" });
    expect((await beacon({ Origin: origin })).status).toBe(200);
    expect((await beacon({ Origin: "https://news.example" })).status).toBe(200);
    expect((await beacon({ Origin: "https://evil.example" })).status).toBe(403);
    expect((await beacon({ Referer: "https://evil.example/page" })).status).toBe(403);
  });

  test("the origin the request was sent to, and PUBLIC_URL's, pass", async () => {
    expect((await send("POST", { Origin: origin })).status).toBe(200);
    expect((await send("POST", { Referer: `${origin}/admin/login` })).status).toBe(200);
    expect((await send("PUT", { Origin: "https://news.example" })).status).toBe(200);
  });

  test("reads, and requests naming no origin at all (curl, servers), pass", async () => {
    expect((await send("GET", { Origin: "https://evil.example" })).status).toBe(200);
    expect((await send("OPTIONS", { Origin: "https://evil.example" })).status).toBe(200);
    expect((await send("POST")).status).toBe(200);
  });

  test("a signed-in state change naming no origin at all (no Origin, no Referer) is refused with 403 (issue 28)", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const response = await send(method, SIGNED_IN);
      expect(response.status, method).toBe(403);
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    expect(entries().at(-1)).toMatchObject({ msg: "signed-in request naming no origin refused", method: "DELETE" });
    // The https cookie's name, on a reader's path (a comment posted as a signed-in reader).
    expect((await send("POST", { Cookie: "__Secure-better-auth.session_token=abc" }, "/api/articles/a-story/comments")).status).toBe(403);
    expect((await send("POST", SIGNED_IN, "/auth/sign-out")).status).toBe(403);
  });

  test("a signed-in state change naming this site passes; the view beacon, which programs call, needs no origin", async () => {
    expect((await send("POST", { ...SIGNED_IN, Origin: origin })).status).toBe(200);
    expect((await send("POST", { ...SIGNED_IN, Referer: `${origin}/admin/settings` })).status).toBe(200);
    expect((await send("POST", SIGNED_IN, "/api/views")).status).toBe(200);
    expect((await send("GET", SIGNED_IN)).status).toBe(200);
  });

  test("a member's session counts as signed in: /account's forms and the billing button need this site's origin, a foreign one is refused", async () => {
    const member = { Cookie: "frontpage-member.session_token=abc.def" };
    for (const path of ["/account", "/account/delete", "/account/billing", "/account/email"]) {
      expect((await send("POST", member, path)).status, path).toBe(403);
      expect((await send("POST", { ...member, Origin: "https://evil.example" }, path)).status, path).toBe(403);
      expect((await send("POST", { ...member, Origin: origin }, path)).status, path).toBe(200);
    }
    expect((await send("POST", { Cookie: "__Secure-frontpage-member.session_token=abc" }, "/account")).status).toBe(403);
    // Signing in is anonymous: a form post from a browser names the site, a program's may not.
    expect((await send("POST", {}, "/account/sign-in")).status).toBe(200);
  });
});
