import { data } from "react-router";
import { requireCapabilityApi } from "~/domain/accounts/guard.server";
import { actorOf } from "~/domain/accounts/actor";
import { openableArticle } from "~/domain/articles/article-access.server";
import { getArticleForPreview } from "~/domain/articles/articles.server";
import { revokePreviewLinks } from "~/domain/articles/preview-links.server";
import type { SharedPreviewLink } from "~/domain/articles/articles.schema";
import { AppError } from "~/lib/app-error";
import { refuse } from "~/lib/forms";
import type { Route } from "./+types/article-preview-link";

const NO_STORE = { "Cache-Control": "no-store" };
const POST_ONLY = () => new AppError("method_not_allowed", "Use POST to create or revoke preview links.");

/** Links are made by POST only; a GET is refused (after the guard, so nothing leaks). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapabilityApi(request, context, "backOffice");
  return refuse(POST_ONLY(), undefined, { headers: { ...NO_STORE, Allow: "POST" } });
}

/**
 * POST /api/admin/articles/:id/preview-link: a signed link to the article's preview that works for
 * anyone for PREVIEW_LINK_DAYS days. 201 { url, expiresAt }; 404 for an unknown article. With
 * `intent=revoke` ("Revoke preview links"): every link made before stops opening. 200 { revoked: true }.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireCapabilityApi(request, context, "backOffice");
  try {
    if (request.method !== "POST") throw POST_ONLY();
    // A bodiless POST (a program's) makes a link, as an empty form does.
    const form = await request.formData().catch(() => null);
    if (form?.get("intent") === "revoke") {
      await revokePreviewLinks(context.db, actorOf(user), params.id);
      context.log.info({ articleId: params.id, userId: user.id }, "preview links revoked");
      return data({ revoked: true as const }, { headers: NO_STORE });
    }
    // An author shares only their own drafts (403 otherwise).
    await openableArticle(context.db, params.id, actorOf(user));
    const article = await getArticleForPreview(context.db, params.id);
    if (!article) throw new AppError("not_found", "This article no longer exists.");
    // A public story's link shows its changes saved for later; any other story's, the story until it is public.
    const isPublic = article.status === "published" && article.publishedAt.getTime() <= Date.now();
    const link = await context.previewLinks.create(article.id, new Date(), isPublic ? "changes" : "draft");
    context.log.info({ articleId: article.id, userId: user.id, expiresAt: link.expiresAt, shows: isPublic ? "changes" : "draft" }, "preview link created");
    return data<SharedPreviewLink>(
      { url: `${context.env.publicUrl}${link.path}`, expiresAt: link.expiresAt.toISOString() },
      { status: 201, headers: NO_STORE },
    );
  } catch (error) {
    return refuse(error, undefined, { headers: NO_STORE });
  }
}
