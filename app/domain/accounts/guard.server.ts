import { data, redirect, type AppLoadContext } from "react-router";

export interface SessionUser {
  id: string;
  email: string;
  isAdmin: boolean;
}

/**
 * The signed-in user of a request, or null. (The accounts work implements this with Better Auth's
 * session and the user_roles table; until then nobody is signed in.)
 */
export async function getSessionUser(_request: Request, _context: AppLoadContext): Promise<SessionUser | null> {
  return null;
}

/**
 * The guard of every admin page loader and action. A GET/HEAD from an anonymous or non-admin user
 * is redirected to /admin/login; any other method gets 401 (not signed in) or 403 (not an admin).
 */
export async function requireAdmin(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await getSessionUser(request, context);
  if (user?.isAdmin) return user;
  if (request.method === "GET" || request.method === "HEAD") throw redirect("/admin/login");
  throw data({ error: user ? "Admin access required" : "Sign in required" }, { status: user ? 403 : 401 });
}

/** The guard of every admin resource route (uploads, media, settings, event stream): 401/403, never a redirect. */
export async function requireAdminApi(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await getSessionUser(request, context);
  if (user?.isAdmin) return user;
  throw data({ error: user ? "Admin access required" : "Sign in required" }, { status: user ? 403 : 401 });
}
