import { requireCapability } from "~/domain/accounts/guard.server";
import { audienceScopeFor } from "~/domain/audience/audience-access.server";
import { audienceRightNow } from "~/domain/audience/audience-report.server";
import type { Route } from "./+types/audience-now";

/**
 * GET /admin/audience/now (issue 42): "Right now" as JSON (AudienceRightNow), in the asker's scope (the
 * site, or an author's own stories); /admin/audience fetches it when the event stream tells of loads.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "audience.view");
  const now = await audienceRightNow(context.db, await audienceScopeFor(context.db, user), new Date());
  return Response.json(now, { headers: { "Cache-Control": "no-store" } });
}
