import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { adminGate } from "./admin-gate";
import { errorHandler } from "./error-handler";
import { recordingLogger, serve } from "./test-app";

// The session lookup answers from the cookie the test sends: "admin", "reader", or none.
const seen: Request[] = [];
const recorded = recordingLogger();
let origin = "";
let close: () => Promise<void>;
beforeAll(async () => {
  const app = express();
  app.use(
    adminGate({
      publicOrigin: "https://news.example",
      log: recorded.log,
      userOf: async (request) => {
        seen.push(request);
        const who = /who=(\w+)/.exec(request.headers.get("cookie") ?? "")?.[1];
        if (who === "broken") throw new Error("session store down");
        return who ? { id: `id-${who}`, email: `${who}@example.com`, role: who === "admin" ? ("admin" as const) : null } : null;
      },
    }),
  );
  app.use((_req, res) => void res.send("reached the route"));
  app.use(errorHandler(recordingLogger().log));
  ({ origin, close } = await serve(app));
});
afterAll(() => close());
beforeEach(() => void (seen.length = 0));

async function send(method: string, path: string, who?: string) {
  const response = await fetch(`${origin}${path}`, { method, headers: who ? { Cookie: `who=${who}` } : {} });
  return { status: response.status, text: await response.text() };
}

describe("the admin gate before routing", () => {
  test("a back-office change that goes through is logged with its actor; a refused one and a read are not", async () => {
    const before = recorded.entries().length;
    await send("POST", "/admin/settings", "admin");
    await send("POST", "/admin/settings", "reader");
    await send("GET", "/admin/settings", "admin");
    const lines = recorded.entries().slice(before).filter((entry) => entry.msg === "back-office change");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ actor: { id: "id-admin", email: "admin@example.com", role: "admin" }, method: "POST", path: "/admin/settings", status: 200 });
  });

  test("a state change to an admin screen needs an admin: 401 anonymous, 403 for another user", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(await send(method, "/admin/settings")).toEqual({ status: 401, text: '{"error":"Sign in required"}' });
      expect(await send(method, "/admin/settings", "reader")).toEqual({ status: 403, text: '{"error":"Admin access required"}' });
      expect((await send(method, "/admin/settings", "admin")).status).toBe(200);
    }
  });

  test("reading an admin screen is left to its own guard (which redirects to the login page)", async () => {
    expect(await send("GET", "/admin/settings")).toEqual({ status: 200, text: "reached the route" });
    expect((await send("HEAD", "/admin")).status).toBe(200);
    expect(seen).toEqual([]);
  });

  test("every request to the admin API needs an admin, reads too", async () => {
    for (const path of ["/api/admin/events", "/api/admin/uploads/image", "/api/admin", "/api/admin/no-such-call"]) {
      expect((await send("GET", path)).status, path).toBe(401);
      expect((await send("POST", path, "reader")).status, path).toBe(403);
      expect((await send("GET", path, "admin")).status, path).toBe(200);
    }
  });

  test("every spelling React Router would route is gated", async () => {
    for (const path of ["/ADMIN/settings", "/Admin/articles", "/%61dmin/settings", "/admin//settings", "/admin/settings/", "/admin.data", "/admin/articles/edit/1.data"]) {
      expect((await send("POST", path)).status, path).toBe(401);
    }
    expect((await send("GET", "/API/ADMIN/uploads/image")).status).toBe(401);
  });

  test("the login screen, the auth API and the reader site are not gated", async () => {
    for (const path of ["/admin/login", "/api/auth/sign-in/email", "/article/a", "/administration-news", "/api/views"]) {
      expect((await send("POST", path)).status, path).toBe(200);
    }
    expect(seen).toEqual([]);
  });

  test("the lookup sees the request's cookie and address; a lookup that fails is a 500, never a pass", async () => {
    await send("POST", "/admin/articles?page=2", "reader");
    expect(seen[0]!.url).toBe("https://news.example/admin/articles?page=2");
    expect(seen[0]!.headers.get("cookie")).toBe("who=reader");
    expect((await send("POST", "/admin/articles", "broken")).status).toBe(500);
  });
});
