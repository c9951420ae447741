import { actorOf } from "~/domain/accounts/actor";
import { requireCapabilityApi } from "~/domain/accounts/guard.server";
import { memberFilterOf } from "~/domain/members/members-admin.schema";
import { exportMembers } from "~/domain/members/members-admin.server";
import { membersToCsv } from "~/domain/members/members-csv.server";
import type { Route } from "./+types/members-export";

/**
 * GET /api/admin/members.csv (admins: members.manage): the members narrowed like /admin/members' list
 * (the same query string), one line each; logged as members.export.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = actorOf(await requireCapabilityApi(request, context, "members.manage"));
  const filter = memberFilterOf(new URL(request.url).searchParams);
  const rows = await exportMembers(context.db, actor, filter, { timeZone: context.env.TIME_ZONE });
  context.log.info({ count: rows.length }, "members exported");
  const day = new Date().toISOString().slice(0, 10);
  return new Response(membersToCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="members-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
