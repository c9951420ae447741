import { requireCapability } from "~/domain/accounts/guard.server";
import type { ArticleHistoryAnswer } from "~/domain/articles/article-revisions.schema";
import type { PageFormFields } from "~/domain/pages/pages.schema";
import { comparePageRevision, listPageRevisions } from "~/domain/pages/pages.server";
import { refuse } from "~/lib/forms";
import type { Route } from "./+types/page-history";

/**
 * The page form's History panel (a resource route): GET lists a page's saves, newest first;
 * `?revision=<id>` answers that save's fields and what differs from the page as stored now. An
 * unknown page or revision is 404 with the Refusal shape.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "pages.manage");
  const revisionId = new URL(request.url).searchParams.get("revision");
  try {
    if (revisionId) {
      const comparison = await comparePageRevision(context.db, params.id, revisionId);
      return { ok: true, comparison } satisfies ArticleHistoryAnswer<PageFormFields>;
    }
    return { ok: true, revisions: await listPageRevisions(context.db, params.id) } satisfies ArticleHistoryAnswer<PageFormFields>;
  } catch (error) {
    return refuse(error);
  }
}
