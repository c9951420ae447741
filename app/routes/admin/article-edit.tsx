import { redirect } from "react-router";
import { ArticleForm, type ArticleFormActionData } from "~/components/admin/article-form";
import { ArticleNotesPanel } from "~/components/admin/article-notes-panel";
import { pathAfterArticleSave, withNotice } from "~/components/admin/use-notice-toast";
import { requireAdmin } from "~/domain/accounts/guard.server";
import { articleFormValues, getArticleForEdit, saveArticleFromForm, unpublishArticle } from "~/domain/articles/article-admin.server";
import { ADD_NOTE_INTENT, ARTICLE_NOTE_FIELDS, DELETE_NOTE_INTENT } from "~/domain/articles/corrections.schema";
import { addArticleNote, deleteArticleNote, listArticleNotesForAdmin } from "~/domain/articles/corrections.server";
import { listCategories } from "~/domain/categories/categories.server";
import { toDateTimeLocal } from "~/lib/dates";
import { formValues, refuse } from "~/lib/forms";
import { pageMeta } from "~/page-meta";
import type { Route } from "./+types/article-edit";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const [article, categories, notes] = await Promise.all([
    getArticleForEdit(context.db, params.id),
    listCategories(context.db),
    listArticleNotesForAdmin(context.db, params.id),
  ]);
  // Spec: a failed load shows "Error" / "Failed to load article" and returns to the list.
  if (!article) throw redirect(withNotice("/admin/articles", "article-load-failed"));
  const { publishedAt, modifiedAt, ...fields } = article;
  return {
    // "Publish at" shows the (planned) publication time on the site's wall clock.
    article: {
      ...fields,
      publishedAt: publishedAt?.toISOString() ?? null,
      modifiedAt: modifiedAt?.toISOString() ?? null,
      publishAt: publishedAt ? toDateTimeLocal(publishedAt, context.env.TIME_ZONE) : "",
    },
    categories: categories.map(({ id, name }) => ({ id, name })),
    notes,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireAdmin(request, context);
  const formData = await request.formData();
  // Correction and update notes: their own requests (the notes panel), never saved with the article's fields.
  if (formData.get("intent") === ADD_NOTE_INTENT) {
    const values = formValues(formData, ARTICLE_NOTE_FIELDS);
    try {
      const note = await addArticleNote(context.db, { id: user.id, name: user.email }, params.id, values);
      context.log.info({ articleId: params.id, noteId: note.id, kind: note.kind }, "article note added");
      return redirect(withNotice(`/admin/articles/edit/${params.id}`, "note-added"));
    } catch (error) {
      return refuse(error, { ...values, intent: ADD_NOTE_INTENT });
    }
  }
  if (formData.get("intent") === DELETE_NOTE_INTENT) {
    const noteId = formValues(formData, ["noteId"]).noteId;
    try {
      await deleteArticleNote(context.db, params.id, noteId);
      context.log.info({ articleId: params.id, noteId }, "article note deleted");
      return redirect(withNotice(`/admin/articles/edit/${params.id}`, "note-deleted"));
    } catch (error) {
      return refuse(error, { noteId, intent: DELETE_NOTE_INTENT });
    }
  }
  // "Unpublish" (its own request, after a confirm): back to draft, the fields as stored.
  if (formData.get("intent") === "unpublish") {
    try {
      const article = await unpublishArticle(context.db, params.id);
      context.log.info({ articleId: article.id, slug: article.slug }, "article unpublished");
      return redirect(withNotice(`/admin/articles/edit/${article.id}`, "article-unpublished"));
    } catch (error) {
      return refuse(error);
    }
  }
  const values = articleFormValues(formData);
  try {
    const article = await saveArticleFromForm(context.db, context.storage, values, { id: params.id, timeZone: context.env.TIME_ZONE });
    context.log.info({ articleId: article.id, slug: article.slug, status: article.status }, "article updated");
    return redirect(pathAfterArticleSave(article, "article-updated"));
  } catch (error) {
    return refuse(error, values);
  }
}

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(matches, { title: "Edit Article", path: `/admin/articles/edit/${params.id}` });

/** Whether an answer of the action concerns the notes panel rather than the article form. */
const isNoteAnswer = (answer: { values?: { intent?: string } } | undefined) =>
  answer?.values?.intent === ADD_NOTE_INTENT || answer?.values?.intent === DELETE_NOTE_INTENT;

export default function EditArticle({ loaderData, actionData }: Route.ComponentProps) {
  const { article } = loaderData;
  // Keyed by id: moving from one article's form to another's starts from that article's values.
  return (
    <ArticleForm
      key={article.id}
      mode="edit"
      article={article}
      categories={loaderData.categories}
      failure={isNoteAnswer(actionData) ? undefined : (actionData as ArticleFormActionData)}
      after={<ArticleNotesPanel key={article.id} articleStatus={article.status} notes={loaderData.notes} />}
    />
  );
}
