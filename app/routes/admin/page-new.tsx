import { redirect } from "react-router";
import { PageForm } from "~/components/admin/page-form";
import { withNotice } from "~/components/admin/use-notice-toast";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { PAGE_FIELDS } from "~/domain/pages/pages.schema";
import { savePageFromForm } from "~/domain/pages/pages.server";
import { formValues, refuse } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/page-new";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "pages.manage");
  return null;
}

/** Creates the page as a draft or published (issue 29); a refusal is answered beside its field, nothing saved. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "pages.manage"));
  const values = formValues(await request.formData(), PAGE_FIELDS);
  try {
    const page = await savePageFromForm(context.db, context.storage, values, { actor });
    context.log.info({ pageId: page.id, slug: page.slug, status: page.status }, "page created");
    return redirect(withNotice(`/admin/pages/edit/${page.id}`, page.status === "published" ? "page-published" : "page-saved"));
  } catch (error) {
    return refuse(error, values);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Create New Page", path: "/admin/pages/new" });

export default function NewPage({ actionData }: Route.ComponentProps) {
  return <PageForm page={null} failure={actionData} />;
}
