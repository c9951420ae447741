import { redirect, type ShouldRevalidateFunction } from "react-router";
import { ArticleForm } from "~/components/admin/article-form";
import { pathAfterArticleSave, withNotice } from "~/components/admin/use-notice-toast";
import { requireAdmin } from "~/domain/accounts/guard.server";
import {
  articleFormValues,
  autosaveArticleFromForm,
  getArticleForEdit,
  saveArticleFromForm,
  unpublishArticle,
} from "~/domain/articles/article-admin.server";
import { actorOf } from "~/domain/articles/article-revisions.server";
import { listCategories } from "~/domain/categories/categories.server";
import { toDateTimeLocal } from "~/lib/dates";
import { refuse } from "~/lib/forms";
import { pageMeta } from "~/page-meta";
import type { Route } from "./+types/article-edit";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const [article, categories] = await Promise.all([getArticleForEdit(context.db, params.id), listCategories(context.db)]);
  // Spec: a failed load shows "Error" / "Failed to load article" and returns to the list.
  if (!article) throw redirect(withNotice("/admin/articles", "article-load-failed"));
  const { publishedAt, ...fields } = article;
  return {
    // "Publish at" shows the (planned) publication time on the site's wall clock.
    article: {
      ...fields,
      publishedAt: publishedAt?.toISOString() ?? null,
      publishAt: publishedAt ? toDateTimeLocal(publishedAt, context.env.TIME_ZONE) : "",
    },
    categories: categories.map(({ id, name }) => ({ id, name })),
    // New at each load: the form starts again from what was just saved (Save Draft and Unpublish stay on this page).
    loadId: crypto.randomUUID(),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(await requireAdmin(request, context));
  const formData = await request.formData();
  // "Unpublish" (its own request, after a confirm): back to draft, the fields as stored.
  if (formData.get("intent") === "unpublish") {
    try {
      const article = await unpublishArticle(context.db, params.id, actor);
      context.log.info({ articleId: article.id, slug: article.slug }, "article unpublished");
      return redirect(withNotice(`/admin/articles/edit/${article.id}`, "article-unpublished"));
    } catch (error) {
      return refuse(error);
    }
  }
  const values = articleFormValues(formData);
  // A draft's autosave (the form's fetcher, a moment after typing stops): saved as a draft, no redirect.
  if (formData.get("intent") === "autosave") {
    try {
      const article = await autosaveArticleFromForm(context.db, context.storage, values, { id: params.id, timeZone: context.env.TIME_ZONE, actor });
      context.log.debug({ articleId: article.id }, "draft autosaved");
      return { ok: true as const, autosaved: true as const, slug: article.slug };
    } catch (error) {
      return refuse(error);
    }
  }
  try {
    const article = await saveArticleFromForm(context.db, context.storage, values, { id: params.id, timeZone: context.env.TIME_ZONE, actor });
    context.log.info({ articleId: article.id, slug: article.slug, status: article.status }, "article updated");
    return redirect(pathAfterArticleSave(article, "article-updated"));
  } catch (error) {
    return refuse(error, values);
  }
}

/** An autosave answers the fetcher only: the form keeps what is typed, so the page's data is not read again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get("intent") === "autosave" ? false : defaultShouldRevalidate;

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(matches, { title: "Edit Article", path: `/admin/articles/edit/${params.id}` });

export default function EditArticle({ loaderData, actionData }: Route.ComponentProps) {
  // Keyed by load: moving to another article's form, or back to this one after a save, starts from
  // the stored values (with nothing unsaved). A refused save reloads nothing and keeps the form.
  return (
    <ArticleForm
      key={loaderData.loadId}
      mode="edit"
      article={loaderData.article}
      categories={loaderData.categories}
      failure={actionData && !actionData.ok ? actionData : undefined}
    />
  );
}
