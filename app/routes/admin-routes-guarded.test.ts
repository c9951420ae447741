import type { AppLoadContext } from "react-router";
import { describe, expect, test } from "vitest";
import { createTestDatabase } from "../../tests/setup/test-database";
import { eq } from "drizzle-orm";
import { user, userRoles } from "~/db/schema";
import type { Role } from "~/domain/accounts/roles";
import { describeThrown, signIn, signUp, createTestAuth, ORIGIN } from "~/domain/accounts/test-auth.server";
import routes from "~/routes";

// Every admin loader and action must call the guard itself: the server's pre-routing check is a
// second line, and the e2e sweep meets that one first. Each module is called here directly, as an
// anonymous visitor and as a signed-up ordinary user, with services that fail the test if touched;
// then as an author, an editor and an admin against ROLE_TABLE (the words: what each role may
// open and post to), where a role the table leaves out must be refused by the guard itself.

type RouteEntry = { path?: string; file: string; children?: RouteEntry[] };
const flatten = (entries: RouteEntry[]): RouteEntry[] => entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);

const modules = import.meta.glob<Record<string, unknown>>("./**/*.{ts,tsx}");
const adminRoutes = flatten(routes as RouteEntry[]).filter(
  (r) =>
    (r.file.startsWith("routes/admin/") || /^api\/admin(\/|$)/.test(r.path ?? "")) &&
    // The screens of signing in are for people not signed in.
    !["admin/login", "admin/forgot-password", "admin/reset-password"].includes(r.path ?? ""),
);

const { db } = await createTestDatabase();
const t = createTestAuth(db);
const untouchable = (name: string) =>
  new Proxy({}, { get: (_target, key) => (key === "then" ? undefined : expect.fail(`${name}.${String(key)} was used before the guard refused`)) });
const context = { ...(t.context as object), storage: untouchable("storage"), views: untouchable("views"), changes: untouchable("changes"), env: untouchable("env") } as AppLoadContext;

await signUp(t, "ordinary@example.com", "ordinary-password-1");
const { cookie: ordinaryCookie } = await signIn(t, "ordinary@example.com", "ordinary-password-1");

async function cookieOf(role: Role) {
  const email = `${role}@example.com`;
  await signUp(t, email, `${role}-password-1`);
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  await db.insert(userRoles).values({ userId: row!.id, role });
  return (await signIn(t, email, `${role}-password-1`)).cookie;
}
const roleCookies: Record<Role, string | null> = { author: await cookieOf("author"), editor: await cookieOf("editor"), admin: await cookieOf("admin") };

const BACK_OFFICE: Role[] = ["author", "editor", "admin"];
const EDITORS: Role[] = ["editor", "admin"];
const ADMINS: Role[] = ["admin"];

/**
 * Who may reach each admin route's loader and action past the guard. Object-level rules (an author's
 * own drafts) are checked after it, by the article services, and swept in tests/e2e/role-sweep.spec.ts.
 */
const ROLE_TABLE: Record<string, { loader?: Role[]; action?: Role[] }> = {
  "(layout)": { loader: BACK_OFFICE },
  admin: { loader: BACK_OFFICE, action: EDITORS },
  "admin/articles": { loader: BACK_OFFICE, action: BACK_OFFICE },
  "admin/articles/new": { loader: BACK_OFFICE, action: BACK_OFFICE },
  "admin/articles/edit/:id": { loader: BACK_OFFICE, action: BACK_OFFICE },
  "admin/articles/edit/:id/history": { loader: BACK_OFFICE },
  "admin/articles/preview/:id": { loader: BACK_OFFICE },
  // Live updates (issue 31): every role posts past the guard; the byline rule is the service's (live-admin.server).
  "admin/articles/live/:id": { loader: BACK_OFFICE, action: BACK_OFFICE },
  "admin/authors": { loader: EDITORS, action: EDITORS },
  "admin/categories": { loader: EDITORS, action: EDITORS },
  "admin/tags": { loader: EDITORS, action: EDITORS },
  "admin/pages": { loader: EDITORS },
  "admin/pages/new": { loader: EDITORS, action: EDITORS },
  "admin/pages/edit/:id": { loader: EDITORS, action: EDITORS },
  "admin/pages/edit/:id/history": { loader: EDITORS },
  "admin/front-page": { loader: EDITORS, action: EDITORS },
  "admin/comments": { loader: EDITORS, action: EDITORS },
  "admin/media": { loader: BACK_OFFICE, action: BACK_OFFICE },
  "admin/settings": { loader: ADMINS, action: ADMINS },
  "admin/redirects": { loader: ADMINS, action: ADMINS },
  // Issue 43: admins, and an editor an admin gave ads.manage (ads-routes.test.ts walks that grant).
  "admin/ads": { loader: ADMINS, action: ADMINS },
  "admin/ads/advertisers/:id": { loader: ADMINS, action: ADMINS },
  "admin/ads/campaigns/:id": { loader: ADMINS, action: ADMINS },
  "admin/ads/campaigns/:id/report": { loader: ADMINS },
  "admin/ads/campaigns/:id/report.csv": { loader: ADMINS },
  "admin/ads/advertisers/:id/report": { loader: ADMINS },
  "admin/ads/advertisers/:id/report.csv": { loader: ADMINS },
  "admin/newsletters": { loader: EDITORS, action: EDITORS },
  "admin/newsletters/:id": { loader: EDITORS, action: EDITORS },
  // /admin/subscribers redirects to /admin/members (issue 40), for those who could read it.
  "admin/subscribers": { loader: EDITORS },
  // Members (issue 40): editors read the list and a member's page; import, comp, sign-in link and delete (the actions) are admins', and so is the export.
  "admin/members": { loader: EDITORS, action: ADMINS },
  "admin/members/:id": { loader: EDITORS, action: ADMINS },
  "admin/import": { loader: ADMINS, action: ADMINS },
  "admin/members/tiers": { loader: ADMINS, action: ADMINS },
  "admin/activity": { loader: EDITORS },
  // Audience (issue 42): every role past the guard; an author's scope and the story check are the domain's (audience-access.server).
  "admin/audience": { loader: BACK_OFFICE },
  "admin/audience/now": { loader: BACK_OFFICE },
  "admin/audience/export": { loader: BACK_OFFICE },
  "admin/audience/story/:id": { loader: BACK_OFFICE },
  "admin/team": { loader: ADMINS, action: ADMINS },
  "admin/profile": { loader: BACK_OFFICE, action: BACK_OFFICE },
  "admin/notifications": { loader: BACK_OFFICE, action: BACK_OFFICE },
  "admin/welcome": { loader: BACK_OFFICE, action: BACK_OFFICE },
  "api/admin/articles/:id/preview-link": { loader: BACK_OFFICE, action: BACK_OFFICE },
  "api/admin/events": { loader: BACK_OFFICE, action: BACK_OFFICE },
  "api/admin/redirects.csv": { loader: ADMINS },
  "api/admin/subscribers.csv": { loader: ADMINS },
  "api/admin/members.csv": { loader: ADMINS },
  "api/admin/imports": { loader: ADMINS, action: ADMINS },
  "api/admin/imports/:id/report": { loader: ADMINS },
  "api/admin/uploads/:kind": { loader: BACK_OFFICE, action: BACK_OFFICE },
};

/** True when what a call threw is the guard's own refusal of a back-office role (403, "Your role may not..."). */
async function refusedByGuard(fn: (args: unknown) => unknown, req: Request): Promise<boolean> {
  try {
    await fn({ request: req, params: { id: "00000000-0000-4000-8000-000000000000", kind: "image" }, context });
    return false;
  } catch (thrown) {
    const payload = (thrown as { data?: { error?: string }; init?: { status?: number } }) ?? {};
    return payload.init?.status === 403 && /^Your role may not do this/.test(payload.data?.error ?? "");
  }
}

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
        "admin/articles/live/:id",
        "admin/authors",
        "admin/categories",
        "admin/tags",
        "admin/pages",
        "admin/pages/new",
        "admin/pages/edit/:id",
        "admin/pages/edit/:id/history",
        "admin/front-page",
        "admin/comments",
        "admin/media",
        "admin/settings",
        "admin/redirects",
        "admin/ads",
        "admin/ads/advertisers/:id",
        "admin/ads/campaigns/:id",
        "admin/ads/campaigns/:id/report",
        "admin/ads/campaigns/:id/report.csv",
        "admin/ads/advertisers/:id/report",
        "admin/ads/advertisers/:id/report.csv",
        "admin/newsletters",
        "admin/newsletters/:id",
        "admin/subscribers",
        "admin/members",
        "admin/members/:id",
        "admin/import",
        "admin/members/tiers",
        "admin/activity",
        "admin/audience",
        "admin/audience/now",
        "admin/audience/export",
        "admin/audience/story/:id",
        "admin/team",
        "admin/profile",
        "admin/notifications",
        "admin/welcome",
        "api/admin/articles/:id/preview-link",
        "api/admin/events",
        "api/admin/redirects.csv",
        "api/admin/subscribers.csv",
        "api/admin/members.csv",
        "api/admin/imports",
        "api/admin/imports/:id/report",
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

describe("each back-office role passes the guard exactly where ROLE_TABLE says", () => {
  test("the table names every admin route", () => {
    expect(Object.keys(ROLE_TABLE).sort()).toEqual(adminRoutes.map((r) => r.path ?? "(layout)").sort());
  });

  for (const route of adminRoutes) {
    const name = route.path ?? "(layout)";
    test(`${name}: author, editor and admin`, async () => {
      const mod = await modules[`./${route.file.slice("routes/".length)}`]!();
      const expected = ROLE_TABLE[name] ?? {};
      for (const kind of ["loader", "action"] as const) {
        const fn = mod[kind] as ((args: unknown) => unknown) | undefined;
        expect(Boolean(fn), `${name} ${kind} exists exactly when the table has it`).toBe(Boolean(expected[kind]));
        if (!fn) continue;
        for (const role of BACK_OFFICE) {
          const req = request(route.path ?? "admin", kind === "loader" ? "GET" : "POST", roleCookies[role]);
          const allowed = expected[kind]!.includes(role);
          expect(await refusedByGuard(fn, req), `${name} ${kind} as ${role}: ${allowed ? "passes the guard" : "refused by the guard"}`).toBe(!allowed);
        }
      }
    });
  }
});
