import type { AppLoadContext } from "react-router";
import { describe, expect, test } from "vitest";
import { createTestDatabase } from "../../tests/setup/test-database";
import { requireCapability, requireCapabilityApi } from "~/domain/accounts/guard.server";
import { adminRequest, createTestAuth, describeThrown, ORIGIN, TEST_SECRET } from "~/domain/accounts/test-auth.server";
import { createMemberAuth, MEMBER_SESSION_COOKIE } from "~/domain/members/member-auth.server";
import { SESSION_COOKIE_NAME } from "~/lib/auth-cookie";
import routes from "~/routes";

// Issue 40: a member is a reader, never staff. A member signed in through the real members' instance
// (its magic link, its session) holds nothing that opens /admin or /api/admin: not their own cookie,
// and not their session's signed value copied under the staff cookie's name (both instances sign with
// the site's one secret, so the signature holds; the staff instance finds no such session in `session`).

type RouteEntry = { path?: string; file: string; children?: RouteEntry[] };
const flatten = (entries: RouteEntry[]): RouteEntry[] => entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);
const modules = import.meta.glob<Record<string, unknown>>("./**/*.{ts,tsx}");
const adminRoutes = flatten(routes as RouteEntry[]).filter(
  (r) => (r.file.startsWith("routes/admin/") || /^api\/admin(\/|$)/.test(r.path ?? "")) && !["admin/login", "admin/forgot-password", "admin/reset-password"].includes(r.path ?? ""),
);

const { db } = await createTestDatabase();
const staff = createTestAuth(db);
const links: string[] = [];
const memberAuth = createMemberAuth({
  db,
  baseURL: ORIGIN,
  secret: TEST_SECRET,
  log: staff.log,
  sendSignInLink: async (_email, token) => void links.push(token),
  sendEmailChangeLink: async () => undefined,
});
const untouchable = (name: string) =>
  new Proxy({}, { get: (_target, key) => (key === "then" ? undefined : expect.fail(`${name}.${String(key)} was used before the guard refused`)) });
const context = { ...(staff.context as object), memberAuth, storage: untouchable("storage"), views: untouchable("views"), changes: untouchable("changes"), env: untouchable("env") } as AppLoadContext;

await memberAuth.api.signInMagicLink({ body: { email: "reader@example.com" }, headers: new Headers({ origin: ORIGIN }) });
const verified = await memberAuth.api.magicLinkVerify({ query: { token: links.at(-1)! }, headers: new Headers({ origin: ORIGIN }), asResponse: true });
const memberCookie = verified.headers
  .getSetCookie()
  .map((c) => c.split(";")[0]!)
  .find((c) => c.startsWith(`${MEMBER_SESSION_COOKIE}=`))!;
const signedValue = memberCookie.slice(MEMBER_SESSION_COOKIE.length + 1);
/** The member's own cookie; the same signed session value under the staff cookie's name; both at once. */
const CRAFTED = {
  "the member's session cookie": memberCookie,
  "the member's session under the staff cookie's name": `${SESSION_COOKIE_NAME}=${signedValue}`,
  "both cookies": `${memberCookie}; ${SESSION_COOKIE_NAME}=${signedValue}`,
};

async function outcome(fn: (args: unknown) => unknown, req: Request) {
  try {
    await fn({ request: req, params: { id: "00000000-0000-4000-8000-000000000000", kind: "image" }, context });
    return { status: "answered without the guard" };
  } catch (thrown) {
    return describeThrown(thrown);
  }
}

function request(path: string, method: string, cookie: string) {
  const headers = new Headers({ origin: ORIGIN, cookie });
  const body = method === "GET" ? undefined : new URLSearchParams({ intent: "delete", id: "00000000-0000-4000-8000-000000000000" });
  return new Request(`${ORIGIN}/${path.replace(/:id/, "00000000-0000-4000-8000-000000000000").replace(/:kind/, "image")}`, { method, headers, body });
}

describe("a member session never opens the back office", () => {
  test("the member really is signed in (the members' instance knows the session)", async () => {
    expect(memberCookie).toBeTruthy();
    const session = await memberAuth.api.getSession({ headers: new Headers({ cookie: memberCookie }) });
    expect(session?.user.email).toBe("reader@example.com");
  });

  for (const [label, cookie] of Object.entries(CRAFTED)) {
    test(`the guards refuse ${label}: a screen redirects to the login page, an API answers 401`, async () => {
      expect(describeThrown(await requireCapability(adminRequest("GET", cookie), context, "backOffice").catch((e: unknown) => e))).toEqual({ status: 302, location: "/admin/login" });
      expect(describeThrown(await requireCapability(adminRequest("POST", cookie), context, "members.view").catch((e: unknown) => e))).toEqual({ status: 401 });
      expect(describeThrown(await requireCapabilityApi(adminRequest("GET", cookie, "/api/admin/events"), context, "backOffice").catch((e: unknown) => e))).toEqual({ status: 401 });
      expect(await staff.auth.api.getSession({ headers: new Headers({ cookie }) })).toBeNull();
    });
  }

  test("every admin route's loader and action refuses a member's cookies as it refuses an anonymous visitor", async () => {
    expect(adminRoutes.length).toBeGreaterThan(20);
    for (const route of adminRoutes) {
      const mod = await modules[`./${route.file.slice("routes/".length)}`]!();
      const isApi = (route.path ?? "").startsWith("api/");
      for (const kind of ["loader", "action"] as const) {
        const fn = mod[kind] as ((args: unknown) => unknown) | undefined;
        if (!fn) continue;
        const pageRead = kind === "loader" && !isApi;
        for (const [label, cookie] of Object.entries(CRAFTED)) {
          expect(await outcome(fn, request(route.path ?? "admin", kind === "loader" ? "GET" : "POST", cookie)), `${route.path ?? "(layout)"} ${kind}, ${label}`).toEqual(
            pageRead ? { status: 302, location: "/admin/login" } : { status: 401 },
          );
        }
      }
    }
  });
});
