import { actorOf } from "~/domain/accounts/actor";
import { requireCapabilityApi } from "~/domain/accounts/guard.server";
import { isSubscriberState } from "~/domain/newsletters/subscribers-admin.schema";
import { exportSubscribers } from "~/domain/newsletters/subscribers-admin.server";
import { subscribersToCsv } from "~/domain/newsletters/subscribers-csv.server";
import type { Route } from "./+types/subscribers-export";

/**
 * GET /api/admin/subscribers.csv (admins): the subscribers (narrowed like /admin/subscribers' list by
 * q, newsletter and status) with their consent record; logged as subscribers.export.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = actorOf(await requireCapabilityApi(request, context, "subscribers.manage"));
  const url = new URL(request.url);
  const status = url.searchParams.get("status") ?? "";
  const rows = await exportSubscribers(context.db, actor, {
    search: (url.searchParams.get("q") ?? "").trim().slice(0, 200),
    newsletterId: url.searchParams.get("newsletter") || null,
    status: isSubscriberState(status) ? status : null,
  });
  context.log.info({ count: rows.length }, "subscribers exported");
  const day = new Date().toISOString().slice(0, 10);
  return new Response(subscribersToCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="subscribers-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
