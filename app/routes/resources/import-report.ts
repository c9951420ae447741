import { requireCapabilityApi } from "~/domain/accounts/guard.server";
import { importReport } from "~/domain/import/import-engine.server";
import { AppError } from "~/lib/app-error";
import { refuse } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import type { Route } from "./+types/import-report";

/**
 * GET /api/admin/imports/:id/report: an import's (or dry run's) report as a JSON download: its counts,
 * every note, and every old address with its new one (what `npm run import -- check-redirects` reads).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireCapabilityApi(request, context, "import.run");
  const report = isUuid(params.id) ? await importReport(context.db, params.id) : null;
  if (!report) return refuse(new AppError("not_found", "This import no longer exists."), undefined, { headers: { "Cache-Control": "no-store" } });
  const name = `import-report-${report.dryRun ? "dry-run-" : ""}${report.id}.json`;
  return new Response(JSON.stringify(report, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}
