import { requireCapability } from "~/domain/accounts/guard.server";
import { audienceScopeFor, checkStoryAudienceAccess } from "~/domain/audience/audience-access.server";
import { audienceTableCsv, isAudienceTable, STORY_TABLES, type AudienceTables } from "~/domain/audience/audience-csv.server";
import { exportFileName, localTimeLabel } from "~/domain/audience/audience-format";
import { audienceOverview, audiencePeriodOf, audienceStoryReport } from "~/domain/audience/audience-report.server";
import { AppError } from "~/lib/app-error";
import { refuse } from "~/lib/forms";
import type { Route } from "./+types/audience-export";

/**
 * GET /admin/audience/export?table=stories|sources|campaigns|categories|authors|devices|series&period=…
 * (issue 42): one table of /admin/audience as CSV, in the asker's scope; with `story=<id>`, a table of
 * that story's report (series, sources, campaigns), refused (403) to an author for another's story.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "audience.view");
  const params = new URL(request.url).searchParams;
  const timeZone = context.env.TIME_ZONE;
  try {
    const table = params.get("table");
    if (!isAudienceTable(table)) throw new AppError("invalid_input", "Choose a table to export: stories, sources, campaigns, categories, authors, devices or series.", { field: "table" });
    const story = params.get("story");
    if (story) await checkStoryAudienceAccess(context.db, user, story);
    const period = audiencePeriodOf(params, timeZone, new Date());
    let tables: AudienceTables;
    let slug: string | undefined;
    if (story) {
      if (!(STORY_TABLES as readonly string[]).includes(table)) throw new AppError("invalid_input", "A story's report exports its series, sources and campaigns.", { field: "table" });
      const report = await audienceStoryReport(context.db, story, period, timeZone, { limit: null });
      tables = report;
      slug = report.article.slug;
    } else {
      tables = await audienceOverview(context.db, period, await audienceScopeFor(context.db, user), timeZone, { limit: null });
    }
    const csv = audienceTableCsv(tables, table, (at) => localTimeLabel(at, timeZone));
    context.log.info({ table, story: story ?? undefined }, "audience exported");
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${exportFileName(table, period, slug)}"`,
        "Cache-Control": "no-store",
      },
    });
  } catch (error) {
    return refuse(error);
  }
}
