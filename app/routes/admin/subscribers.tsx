import { redirect } from "react-router";
import { requireCapability } from "~/domain/accounts/guard.server";
import type { Route } from "./+types/subscribers";

/**
 * /admin/subscribers (issue 30) is now /admin/members (issue 40): a subscriber is a member, one person,
 * one record, one screen. The old address keeps its filters: q and newsletter as they were, and its
 * "State" (pending, active, unsubscribed, bounced, complained) as the members list's `state`.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "subscribers.view");
  const from = new URL(request.url).searchParams;
  const to = new URLSearchParams();
  for (const [key, value] of from) {
    if (!value) continue;
    if (key === "q" || key === "newsletter" || key === "page") to.set(key, value);
    else if (key === "status") to.set("state", value);
  }
  throw redirect(to.size ? `/admin/members?${to}` : "/admin/members", 301);
}
