import { requireCapabilityApi } from "~/domain/accounts/guard.server";
import { redirectsToCsv } from "~/domain/redirects/redirects-csv.server";
import { allRedirects } from "~/domain/redirects/redirects.server";
import type { Route } from "./+types/redirects-export";

/** GET /api/admin/redirects.csv (admins): every redirect as from,to,status, the file /admin/redirects imports. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapabilityApi(request, context, "redirects.manage");
  const csv = redirectsToCsv(await allRedirects(context.db));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="redirects-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
