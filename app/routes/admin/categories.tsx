import { Pencil, Plus } from "lucide-react";
import { useEffect, useState } from "react";
import { data, useFetcher, useFetchers, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { CategoryDialog, type CategoryActionData, type CategoryFormData } from "~/components/admin/category-dialog";
import { ConfirmDeleteButton } from "~/components/admin/confirm-dialog";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { CATEGORY_FIELDS, categoryInputSchema } from "~/domain/categories/categories.schema";
import {
  createCategory,
  deleteCategory,
  listAdminCategories,
  updateCategory,
} from "~/domain/categories/category-admin.server";
import { AppError } from "~/lib/app-error";
import { formValues, parseForm, refuse } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/categories";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "categories.manage");
  const categories = await listAdminCategories(context.db);
  return { categories: categories.map(({ id, name, slug }) => ({ id, name, slug })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "categories.manage"));
  const { intent, id, ...values } = formValues(await request.formData(), ["intent", "id", ...CATEGORY_FIELDS]);
  try {
    if (intent === "delete") {
      await deleteCategory(context.db, id, actor);
      context.log.info({ categoryId: id }, "category deleted");
      return data<CategoryActionData>({ ok: true, intent });
    }
    if (intent !== "create" && intent !== "update") throw new AppError("invalid_input", "Unknown action.");
    const input = parseForm(categoryInputSchema, values, { required: CATEGORY_FIELDS });
    const category = intent === "create" ? await createCategory(context.db, input, actor) : await updateCategory(context.db, id, input, actor);
    context.log.info({ categoryId: category.id, slug: category.slug }, `category ${intent}d`);
    return data<CategoryActionData>({ ok: true, intent });
  } catch (error) {
    return refuse(error, values);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Manage Categories", path: "/admin/categories" });

export default function AdminCategories({ loaderData }: Route.ComponentProps) {
  const { categories } = loaderData;
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<CategoryFormData | null>(null);
  const deleter = useFetcher<CategoryActionData>({ key: "category-delete" });
  const deletingId = deleter.state !== "idle" ? deleter.formData?.get("id") : null;
  // Spec: "Loading categories..." while the list loads: after a save or delete (the fetcher
  // reloads the page data) or while this page's own data is fetched again.
  const navigation = useNavigation();
  const loading =
    useFetchers().some((fetcher) => fetcher.state === "loading") ||
    (navigation.state === "loading" && navigation.location.pathname === "/admin/categories");

  useEffect(() => {
    if (deleter.state !== "idle" || !deleter.data) return;
    if (deleter.data.ok) toast.success("Category deleted");
    else toast.error("Error", deleter.data.error);
  }, [deleter.state, deleter.data]);

  function openDialog(category: CategoryFormData | null) {
    setEditing(category);
    setDialogOpen(true);
  }

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Manage Categories"
        action={
          <Button onClick={() => openDialog(null)}>
            <Plus aria-hidden="true" className="size-4" />
            New Category
          </Button>
        }
      />

      <p role="status" className="mb-3 min-h-5 text-sm text-slate-700">
        {loading ? "Loading categories..." : ""}
      </p>

      {categories.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">
          No categories found. Create your first category!
        </p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">All categories by name</caption>
            <thead className="bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">Name</th>
                <th scope="col" className="px-4 py-3 font-semibold">Slug</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {categories.map((category) => (
                <tr key={category.id} className={deletingId === category.id ? "opacity-50" : undefined}>
                  <td className="px-4 py-3 font-medium break-words text-slate-900 max-md:px-2">{category.name}</td>
                  <td className="px-4 py-3 font-mono break-all text-slate-800 max-md:px-2">{category.slug}</td>
                  <td className="px-4 py-3">
                    <div className="flex justify-end gap-1">
                      <Button variant="ghost" size="icon" aria-label={`Edit ${category.name}`} onClick={() => openDialog(category)}>
                        <Pencil aria-hidden="true" className="size-4" />
                      </Button>
                      <ConfirmDeleteButton
                        label={`Delete ${category.name}`}
                        disabled={deletingId === category.id}
                        title="Delete Category"
                        description="Are you sure you want to delete this category?"
                        onConfirm={() => deleter.submit({ intent: "delete", id: category.id }, { method: "post" })}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <CategoryDialog open={dialogOpen} editing={editing} onOpenChange={setDialogOpen} />
    </main>
  );
}
