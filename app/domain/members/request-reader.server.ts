import type { AppLoadContext } from "react-router";
import { getSessionUser } from "~/domain/accounts/guard.server";
import { can } from "~/domain/accounts/roles";
import { ANONYMOUS, mayRead, type Reader, type StoryAccess } from "./access";
import { paidTiersOf } from "./members.server";
import { signedInMember } from "./member-session.server";

/**
 * Who is asking, for access (issue 40), from the request's sessions, read in the database: a staff
 * account with a back-office role (reads every story whole), else a signed-in member with the tiers
 * their records give now (`paidTiersOf`), else anonymous. For answers that are one reader's and not
 * cached: the live stream of a gated story. (Cached pages pick a class from signed cookies at the door
 * instead: decision 0054.)
 */
export async function readerOfRequest(request: Request, context: AppLoadContext): Promise<Reader> {
  const staff = await getSessionUser(request, context);
  if (staff && can(staff.role, "backOffice")) return { kind: "staff" };
  const member = await signedInMember(request, context);
  if (member) return { kind: "member", memberId: member.id, paidTiers: await paidTiersOf(context.db, member.id) };
  return ANONYMOUS;
}

/** Whether the request's reader may read the whole of a story with `access` (public: yes, with no lookup). */
export async function requestMayRead(request: Request, context: AppLoadContext, access: StoryAccess): Promise<boolean> {
  if (access.level === "public") return true;
  return mayRead(await readerOfRequest(request, context), access);
}

/**
 * The Request the session checks read, for a door that has only Node's raw request (the live stream):
 * its address on the public origin and its cookies, nothing else.
 */
export function sessionRequestOf(req: { url?: string; headers: { cookie?: string } }, publicUrl: string): Request {
  const headers = new Headers();
  if (req.headers.cookie) headers.set("cookie", req.headers.cookie);
  return new Request(new URL(req.url ?? "/", publicUrl), { headers });
}
