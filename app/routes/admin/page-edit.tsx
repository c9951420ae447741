import { data, redirect } from "react-router";
import { PageForm } from "~/components/admin/page-form";
import { withNotice } from "~/components/admin/use-notice-toast";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { PAGE_FIELDS } from "~/domain/pages/pages.schema";
import { getPageForEdit, savePageFromForm, unpublishPage } from "~/domain/pages/pages.server";
import { formValues, refuse } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/page-edit";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "pages.manage");
  const page = await getPageForEdit(context.db, params.id);
  if (!page) throw data("Page not found", { status: 404 });
  const { publishedAt: _publishedAt, updatedAt: _updatedAt, ...fields } = page;
  // New at each load: the form starts again from what was just saved.
  return { page: fields, loadId: crypto.randomUUID() };
}

/** Save draft, Publish / Update page, and Unpublish (its own request, after the confirm). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "pages.manage"));
  const formData = await request.formData();
  if (formData.get("intent") === "unpublish") {
    try {
      const page = await unpublishPage(context.db, params.id, actor);
      context.log.info({ pageId: page.id, slug: page.slug }, "page unpublished");
      return redirect(withNotice(`/admin/pages/edit/${page.id}`, "page-unpublished"));
    } catch (error) {
      return refuse(error);
    }
  }
  const values = formValues(formData, PAGE_FIELDS);
  try {
    const page = await savePageFromForm(context.db, context.storage, values, { id: params.id, actor });
    context.log.info({ pageId: page.id, slug: page.slug, status: page.status }, "page saved");
    const notice = page.status === "draft" ? "page-saved" : page.previousStatus === "published" ? "page-updated" : "page-published";
    return redirect(withNotice(`/admin/pages/edit/${page.id}`, notice));
  } catch (error) {
    return refuse(error, values);
  }
}

export const meta: Route.MetaFunction = ({ matches, params }) => backOfficeMeta(matches, { title: "Edit Page", path: `/admin/pages/edit/${params.id}` });

export default function EditPage({ loaderData, actionData }: Route.ComponentProps) {
  return <PageForm key={loaderData.loadId} page={loaderData.page} failure={actionData} />;
}
