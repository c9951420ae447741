import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { subscribers } from "~/db/schema";
import { cookieValue } from "./reader-cookies";
import { MEMBER_SESSION_COOKIE } from "./member-auth.server";

export type Member = typeof subscribers.$inferSelect;

/** Whether a Cookie header carries a member's session cookie (plain or __Secure-). */
export function hasMemberSessionCookie(cookieHeader: string | null | undefined): boolean {
  return cookieValue(cookieHeader, MEMBER_SESSION_COOKIE) !== null || cookieValue(cookieHeader, `__Secure-${MEMBER_SESSION_COOKIE}`) !== null;
}

/**
 * The member signed in on this request (their members' session, checked by Better Auth against
 * member_session), or null. Never a staff account: the members' instance knows only subscribers.
 */
export async function signedInMember(request: Request, context: Pick<AppLoadContext, "memberAuth" | "db">): Promise<Member | null> {
  if (!hasMemberSessionCookie(request.headers.get("cookie"))) return null;
  const session = await context.memberAuth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const [member] = await context.db.select().from(subscribers).where(eq(subscribers.id, session.user.id));
  return member ?? null;
}
