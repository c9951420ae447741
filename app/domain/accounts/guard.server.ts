import { data, redirect, type AppLoadContext } from "react-router";
import { isSessionCookiePresent } from "~/lib/auth-cookie";
import { isAdmin } from "./accounts.server";

export interface SessionUser {
  id: string;
  email: string;
  /** The account's name (the History panel names who saved an article by it). */
  name: string;
  isAdmin: boolean;
}

// One lookup per incoming request (root, layout and page loaders share the Request object); nothing
// outlives the request, so a grant, a revoke or a sign-out counts from the very next request.
const perRequest = new WeakMap<Request, Promise<SessionUser | null>>();

async function lookUpSessionUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  if (!isSessionCookiePresent(request.headers.get("cookie") ?? undefined)) return null;
  const session = await context.auth.api.getSession({ headers: request.headers, query: { disableCookieCache: true } });
  if (!session) return null;
  return { id: session.user.id, email: session.user.email, name: session.user.name, isAdmin: await isAdmin(context.db, session.user.id) };
}

/**
 * The signed-in user of a request, or null: Better Auth's database session, and admin only while
 * user_roles holds (user, 'admin'), read on every request.
 */
export function getSessionUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  let pending = perRequest.get(request);
  if (!pending) {
    pending = lookUpSessionUser(request, context);
    perRequest.set(request, pending);
  }
  return pending;
}

// Every answer under /admin and /api/admin leaves with Cache-Control: no-store, whatever is thrown
// here: server/middleware/personal-answers.ts decides it for the whole back office.

/**
 * The guard of every admin page loader and action. A GET/HEAD from an anonymous or non-admin user
 * is redirected to /admin/login; any other method gets 401 (not signed in) or 403 (not an admin).
 */
export async function requireAdmin(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await getSessionUser(request, context);
  if (user?.isAdmin) return user;
  if (request.method === "GET" || request.method === "HEAD") {
    throw redirect("/admin/login");
  }
  throw data({ error: user ? "Admin access required" : "Sign in required" }, { status: user ? 403 : 401 });
}

/** The guard of every admin resource route (uploads, media, settings, event stream): 401/403, never a redirect. */
export async function requireAdminApi(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await getSessionUser(request, context);
  if (user?.isAdmin) return user;
  throw data({ error: user ? "Admin access required" : "Sign in required" }, { status: user ? 403 : 401 });
}
