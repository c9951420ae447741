import { requireCapability } from "~/domain/accounts/guard.server";
import { actorOf } from "~/domain/accounts/actor";
import { openableArticle } from "~/domain/articles/article-access.server";
import { compareRevision, listRevisions } from "~/domain/articles/article-revisions.server";
import type { ArticleHistoryAnswer } from "~/domain/articles/article-revisions.schema";
import { refuse } from "~/lib/forms";
import type { Route } from "./+types/article-history";

/**
 * The edit form's History panel (a resource route, admin only): GET lists an article's revisions,
 * newest first; `?revision=<id>` answers that revision's fields and what differs from the article as
 * stored now. An unknown article or revision is 404 with the Refusal shape.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const actor = actorOf(await requireCapability(request, context, "backOffice"));
  const revisionId = new URL(request.url).searchParams.get("revision");
  try {
    await openableArticle(context.db, params.id, actor);
    if (revisionId) {
      const comparison = await compareRevision(context.db, params.id, revisionId, context.env.TIME_ZONE);
      return { ok: true, comparison } satisfies ArticleHistoryAnswer;
    }
    return { ok: true, revisions: await listRevisions(context.db, params.id) } satisfies ArticleHistoryAnswer;
  } catch (error) {
    return refuse(error);
  }
}
