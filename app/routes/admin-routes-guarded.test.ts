import type { AppLoadContext } from "react-router";
import { describe, expect, test } from "vitest";
import { createTestDatabase } from "../../tests/setup/test-database";
import { describeThrown, signIn, signUp, createTestAuth, ORIGIN } from "~/domain/accounts/test-auth.server";
import routes from "~/routes";

// Every admin loader and action must call the guard itself: the server's pre-routing check is a
// second line, and the e2e sweep meets that one first. Each module is called here directly, as an
// anonymous visitor and as a signed-up ordinary user, with services that fail the test if touched.

type RouteEntry = { path?: string; file: string; children?: RouteEntry[] };
const flatten = (entries: RouteEntry[]): RouteEntry[] => entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);

const modules = import.meta.glob<Record<string, unknown>>("./**/*.{ts,tsx}");
const adminRoutes = flatten(routes as RouteEntry[]).filter(
  (r) => (r.file.startsWith("routes/admin/") || /^api\/admin(\/|$)/.test(r.path ?? "")) && r.path !== "admin/login",
);

const { db } = await createTestDatabase();
const t = createTestAuth(db);
const untouchable = (name: string) =>
  new Proxy({}, { get: (_target, key) => (key === "then" ? undefined : expect.fail(`${name}.${String(key)} was used before the guard refused`)) });
const context = { ...(t.context as object), storage: untouchable("storage"), views: untouchable("views"), changes: untouchable("changes"), env: untouchable("env") } as AppLoadContext;

await signUp(t, "ordinary@example.com", "ordinary-password-1");
const { cookie: ordinaryCookie } = await signIn(t, "ordinary@example.com", "ordinary-password-1");

function request(path: string, method: string, cookie: string | null) {
  const headers = new Headers({ origin: ORIGIN });
  if (cookie) headers.set("cookie", cookie);
  const body = method === "GET" ? undefined : new URLSearchParams({ intent: "delete", id: "00000000-0000-4000-8000-000000000000" });
  return new Request(`${ORIGIN}/${path.replace(/:id/, "00000000-0000-4000-8000-000000000000").replace(/:kind/, "image")}`, { method, headers, body });
}

async function outcome(fn: (args: unknown) => unknown, req: Request) {
  try {
    await fn({ request: req, params: { id: "00000000-0000-4000-8000-000000000000", kind: "image" }, context });
    return { status: "answered without the guard" };
  } catch (thrown) {
    return describeThrown(thrown);
  }
}

describe("every admin route module guards its own loader and action", () => {
  test("the route table has the back office's routes", () => {
    expect(adminRoutes.map((r) => r.path ?? "(layout)").sort()).toEqual(
      [
        "(layout)",
        "admin",
        "admin/articles",
        "admin/articles/edit/:id",
        "admin/articles/edit/:id/history",
        "admin/articles/new",
        "admin/articles/preview/:id",
        "admin/authors",
        "admin/categories",
        "admin/comments",
        "admin/media",
        "admin/settings",
        "api/admin/articles/:id/preview-link",
        "api/admin/events",
        "api/admin/uploads/:kind",
      ].sort(),
    );
  });

  for (const route of adminRoutes) {
    const name = route.path ?? route.file;
    const isApi = name.startsWith("api/");
    test(`${name}: anonymous and ordinary users are refused before anything is read or written`, async () => {
      const load = modules[`./${route.file.slice("routes/".length)}`];
      expect(load, route.file).toBeDefined();
      const mod = await load!();
      const exported = (["loader", "action"] as const).filter((k) => typeof mod[k] === "function");
      expect(exported.length, `${name} exports a loader or an action`).toBeGreaterThan(0);
      for (const kind of exported) {
        const fn = mod[kind] as (args: unknown) => unknown;
        const method = kind === "loader" ? "GET" : "POST";
        const pageRead = kind === "loader" && !isApi;
        expect(await outcome(fn, request(route.path ?? "admin", method, null)), `${name} ${kind}, anonymous`).toEqual(
          pageRead ? { status: 302, location: "/admin/login" } : { status: 401 },
        );
        expect(await outcome(fn, request(route.path ?? "admin", method, ordinaryCookie)), `${name} ${kind}, ordinary user`).toEqual(
          pageRead ? { status: 302, location: "/admin/login" } : { status: 403 },
        );
      }
    });
  }
});
