import { data, redirect } from "react-router";
import { ArticleForm } from "~/components/admin/article-form";
import { withNotice } from "~/components/admin/use-notice-toast";
import { requireAdmin } from "~/domain/accounts/guard.server";
import { saveArticleFromForm } from "~/domain/articles/article-admin.server";
import { listCategories } from "~/domain/categories/categories.server";
import { pageMeta } from "~/lib/page-meta";
import type { Route } from "./+types/article-new";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const categories = await listCategories(context.db);
  return { categories: categories.map(({ id, name }) => ({ id, name })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context);
  const result = await saveArticleFromForm(context.db, context.storage, await request.formData());
  if (!result.ok) return data(result.failure, { status: result.status });
  context.log.info({ articleId: result.article.id, slug: result.article.slug }, "article created");
  return redirect(withNotice("/admin/articles", "article-created"));
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Create New Article", path: "/admin/articles/new" });

export default function NewArticle({ loaderData, actionData }: Route.ComponentProps) {
  return <ArticleForm mode="create" article={null} categories={loaderData.categories} failure={actionData} />;
}
