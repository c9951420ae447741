import { eq } from "drizzle-orm";
import { data, redirect, type AppLoadContext } from "react-router";
import { session as sessions } from "~/db/schema";
import { getSettings } from "~/domain/settings/settings.server";
import { isAppError } from "~/lib/app-error";
import { isSessionCookiePresent } from "~/lib/auth-cookie";
import { grantsOf, roleOf } from "./accounts.server";
import { can, holds, type Capability, type Role } from "./roles";
import { ACTIVITY_WRITE_INTERVAL_MS, backOfficeSessionState } from "./session-policy";

export interface SessionUser {
  id: string;
  email: string;
  /** The account's name (the History panel names who saved an article by it). */
  name: string;
  /** The account's role (user_roles), read on every request; null for a reader. */
  role: Role | null;
  /** Whether the account asks a second factor (TOTP) at sign-in. */
  twoFactorEnabled: boolean;
  /** Capabilities an admin gave the account beyond its role's (user_grants: roles.ts GRANTABLE), read on every request. */
  grants: string[];
}

/** Where a back-office user without a second factor is sent when the newsroom requires one. */
export const TWO_FACTOR_SETUP_PATH = "/admin/profile";
export const TWO_FACTOR_REQUIRED = "Your newsroom requires two-factor authentication: turn it on in your profile first.";

// One lookup per incoming request (root, layout and page loaders share the Request object); nothing
// outlives the request, so a grant, a revoke or a sign-out counts from the very next request.
const perRequest = new WeakMap<Request, Promise<SessionUser | null>>();

async function lookUpSessionUser(request: Request, context: AppLoadContext): Promise<SessionUser | null> {
  if (!isSessionCookiePresent(request.headers.get("cookie") ?? undefined)) return null;
  const found = await context.auth.api.getSession({ headers: request.headers, query: { disableCookieCache: true } });
  if (!found) return null;
  const now = new Date();
  const [role, grants, [times]] = await Promise.all([
    roleOf(context.db, found.user.id),
    grantsOf(context.db, found.user.id),
    context.db.select({ createdAt: sessions.createdAt, lastActiveAt: sessions.lastActiveAt }).from(sessions).where(eq(sessions.id, found.session.id)),
  ]);
  if (!times) return null;
  // A back-office session unused for 30 minutes, or 12 hours old, is over: it is deleted, and the
  // request is anonymous (the guard sends a screen to the login page).
  const state = can(role, "backOffice") ? backOfficeSessionState(times, now) : "active";
  if (state !== "active") {
    await context.db.delete(sessions).where(eq(sessions.id, found.session.id));
    context.log.info({ userId: found.user.id, reason: state }, state === "idle" ? "back-office session idled out" : "back-office session reached its 12 hours");
    return null;
  }
  if (now.getTime() - times.lastActiveAt.getTime() >= ACTIVITY_WRITE_INTERVAL_MS) {
    await context.db.update(sessions).set({ lastActiveAt: now }).where(eq(sessions.id, found.session.id));
  }
  const twoFactorEnabled = Boolean((found.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled);
  return { id: found.user.id, email: found.user.email, name: found.user.name, role, twoFactorEnabled, grants };
}

/**
 * The signed-in user of a request, or null: Better Auth's database session, and the role user_roles
 * holds for it, read on every request.
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

function refusal(user: SessionUser | null, capability: Capability) {
  if (!user) return data({ error: "Sign in required" }, { status: 401 });
  if (!can(user.role, "backOffice")) return data({ error: "Back-office access required" }, { status: 403 });
  return data({ error: `Your role may not do this (${capability})` }, { status: 403 });
}

/**
 * The guard of every admin page loader and action (decision 0017): the signed-in user's role must hold
 * `capability` (app/domain/accounts/roles.ts). A GET/HEAD from someone without a back-office role is
 * redirected to /admin/login; a back-office user whose role lacks the capability gets 403 (the screen's
 * error page), and any other method gets 401 (not signed in) or 403.
 */
export function requireCapability(request: Request, context: AppLoadContext, capability: Capability): Promise<SessionUser & { role: Role }> {
  return guard(request, context, capability, { secondFactorRequired: true });
}

/**
 * The guard of the signed-in user's own profile (second factor, password, sessions): any back-office
 * role, and reachable without a second factor, so that one can be set up when the newsroom requires it.
 */
export function requireBackOfficeUser(request: Request, context: AppLoadContext): Promise<SessionUser & { role: Role }> {
  return guard(request, context, "backOffice", { secondFactorRequired: false });
}

async function guard(
  request: Request,
  context: AppLoadContext,
  capability: Capability,
  options: { secondFactorRequired: boolean },
): Promise<SessionUser & { role: Role }> {
  const user = await getSessionUser(request, context);
  const read = request.method === "GET" || request.method === "HEAD";
  if (user?.role && holds(user, capability)) {
    if (options.secondFactorRequired && (await lacksRequiredSecondFactor(user, context))) {
      if (read) throw redirect(`${TWO_FACTOR_SETUP_PATH}?required=1`);
      throw data({ error: TWO_FACTOR_REQUIRED }, { status: 403 });
    }
    return user as SessionUser & { role: Role };
  }
  if (read && !can(user?.role, "backOffice")) throw redirect("/admin/login");
  throw refusal(user, capability);
}

/** True when the newsroom requires a second factor (Team screen) and this account has none yet. */
async function lacksRequiredSecondFactor(user: SessionUser, context: AppLoadContext): Promise<boolean> {
  if (user.twoFactorEnabled) return false;
  return (await getSettings(context.db)).requireTwoFactor;
}

/** The guard of every admin resource route (uploads, the event stream, preview links): 401/403, never a redirect. */
export async function requireCapabilityApi(request: Request, context: AppLoadContext, capability: Capability): Promise<SessionUser & { role: Role }> {
  const user = await getSessionUser(request, context);
  if (user?.role && holds(user, capability)) {
    if (await lacksRequiredSecondFactor(user, context)) throw data({ error: TWO_FACTOR_REQUIRED }, { status: 403 });
    return user as SessionUser & { role: Role };
  }
  throw refusal(user, capability);
}

/**
 * A screen's read checked by an object-level rule (an author opening another writer's article): the
 * rule's AppError "forbidden" becomes the screen's 403 answer, like the guard's own refusals.
 */
export async function orForbidden<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (isAppError(error, "forbidden")) throw data({ error: error.message }, { status: 403 });
    throw error;
  }
}
