import { Loader2, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useEffect, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import type { CategoryFieldName } from "~/domain/categories/categories.schema";
import { MISSING_FIELDS, refusalNotice, type Refusal } from "~/lib/forms";
import { slugify } from "~/lib/slugs";

export interface CategoryFormData {
  id: string;
  name: string;
  slug: string;
}

/** The categories action's answer: a success names what was done; a refusal is the one shape of lib/forms. */
export type CategoryActionData = { ok: true; intent: "create" | "update" | "delete" } | Refusal<CategoryFieldName>;

export const CATEGORY_FORM_FETCHER = "category-form";

/**
 * The "Create New Category" / "Edit Category" dialog. `editing` null means create. On a successful
 * save the dialog closes (onOpenChange(false)) and the form resets; failures stay in the dialog.
 */
export function CategoryDialog({
  open,
  editing,
  onOpenChange,
}: {
  open: boolean;
  editing: CategoryFormData | null;
  onOpenChange: (open: boolean) => void;
}) {
  const fetcher = useFetcher<CategoryActionData>({ key: CATEGORY_FORM_FETCHER });
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [errors, setErrors] = useState<Partial<Record<CategoryFieldName, string>>>({});
  const saving = fetcher.state !== "idle";

  // Opening the dialog starts from the category being edited, or from blank fields.
  useEffect(() => {
    if (!open) return;
    setName(editing?.name ?? "");
    setSlug(editing?.slug ?? "");
    setErrors({});
  }, [open, editing]);

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result) return;
    if (result.ok) {
      toast.success(result.intent === "create" ? "Category created" : "Category updated");
      setName("");
      setSlug("");
      setErrors({});
      onOpenChange(false);
    } else {
      setErrors(result.fieldErrors);
      toast.error(...refusalNotice(result, { marksFields: true }));
    }
    // onOpenChange is a new function on each render of the parent; only a new answer matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!name.trim() || !slug.trim()) {
      event.preventDefault();
      toast.error(MISSING_FIELDS.title, MISSING_FIELDS.description);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !saving && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">
            {editing ? "Edit Category" : "Create New Category"}
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-700">
            The slug is the category's address: /category/{slug || "…"}
          </Dialog.Description>
          <Dialog.Close asChild>
            <Button variant="ghost" size="icon-sm" className="absolute top-3 right-3" aria-label="Close">
              <X aria-hidden="true" className="size-4" />
            </Button>
          </Dialog.Close>
          <fetcher.Form method="post" noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
            <input type="hidden" name="intent" value={editing ? "update" : "create"} />
            {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
            <div className="space-y-2">
              <Label htmlFor="category-name">Name *</Label>
              <Input
                id="category-name"
                name="name"
                placeholder="e.g. World News"
                value={name}
                aria-required="true"
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={errors.name ? "category-name-error" : undefined}
                onChange={(e) => {
                  setName(e.target.value);
                  setSlug(slugify(e.target.value));
                }}
              />
              {errors.name ? (
                <p id="category-name-error" className="text-sm text-red-700">
                  {errors.name}
                </p>
              ) : null}
            </div>
            <div className="space-y-2">
              <Label htmlFor="category-slug">Slug *</Label>
              <Input
                id="category-slug"
                name="slug"
                placeholder="e.g. world-news"
                value={slug}
                aria-required="true"
                aria-invalid={errors.slug ? true : undefined}
                aria-describedby={errors.slug ? "category-slug-error" : undefined}
                onChange={(e) => setSlug(e.target.value)}
              />
              {errors.slug ? (
                <p id="category-slug-error" className="text-sm text-red-700">
                  {errors.slug}
                </p>
              ) : null}
            </div>
            <div className="flex justify-end gap-3 pt-2">
              <Button type="button" variant="outline" disabled={saving} onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={saving}>
                {saving ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
                {saving ? "Saving..." : editing ? "Update" : "Create"}
              </Button>
            </div>
          </fetcher.Form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
