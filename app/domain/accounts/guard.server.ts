import { data, type AppLoadContext } from "react-router";

export interface SessionUser {
  id: string;
  email: string;
  isAdmin: boolean;
}

/**
 * The signed-in user of a request, or null. (The accounts work implements this with Better Auth's
 * session and the user_roles table.)
 */
export async function getSessionUser(_request: Request, _context: AppLoadContext): Promise<SessionUser | null> {
  return null;
}

/**
 * The one server-side guard of every admin loader, action and resource route. An anonymous or
 * non-admin request for an admin page is redirected to /admin/login; any other admin request gets
 * 401/403. Returns the admin user.
 */
export async function requireAdmin(request: Request, context: AppLoadContext): Promise<SessionUser> {
  const user = await getSessionUser(request, context);
  if (user?.isAdmin) return user;
  throw data({ error: "Admin access required" }, { status: user ? 403 : 401 });
}
