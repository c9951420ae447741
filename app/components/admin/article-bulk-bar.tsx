import { AlertDialog } from "radix-ui";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { BULK_ACTION_LABELS, bulkQuestion, type BulkAction } from "~/domain/articles/article-list.schema";

const TITLES: Record<BulkAction, string> = {
  unpublish: "Unpublish stories",
  move: "Move to category",
  delete: "Delete stories",
};

/**
 * The article list's bulk actions for the selected rows: each asks first in a dialog naming how many
 * stories it touches ("Move to category…" also asks which category). The server checks every story again.
 */
export function ArticleBulkBar({
  count,
  busy,
  categoryOptions,
  actions,
  onClear,
  onConfirm,
}: {
  count: number;
  busy: boolean;
  categoryOptions: readonly (readonly [string, string])[];
  /** The actions the viewer's role may take at all (an author cannot unpublish). */
  actions: readonly BulkAction[];
  onClear: () => void;
  onConfirm: (action: BulkAction, categoryId?: string) => void;
}) {
  const [open, setOpen] = useState<BulkAction | null>(null);
  const [categoryId, setCategoryId] = useState("");
  const [missingCategory, setMissingCategory] = useState(false);

  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="sticky top-14 z-10 mb-3 flex flex-wrap items-center gap-2 rounded-lg border border-brand-600 bg-brand-50 px-3 py-2 text-sm"
    >
      <span className="font-medium text-slate-900" aria-live="polite">
        {count} selected
      </span>
      <span className="flex flex-wrap gap-2">
        {actions.map((action) => (
          <Button
            key={action}
            type="button"
            size="sm"
            variant={action === "delete" ? "destructive" : "outline"}
            disabled={busy || count === 0}
            onClick={() => {
              setMissingCategory(false);
              setOpen(action);
            }}
          >
            {BULK_ACTION_LABELS[action]}
          </Button>
        ))}
        <Button type="button" size="sm" variant="ghost" onClick={onClear} disabled={busy}>
          Clear selection
        </Button>
      </span>

      <AlertDialog.Root open={open !== null} onOpenChange={(next) => (next ? null : setOpen(null))}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
          <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl">
            {open ? (
              <>
                <AlertDialog.Title className="text-lg font-semibold text-slate-900">{TITLES[open]}</AlertDialog.Title>
                <AlertDialog.Description className="mt-2 text-sm text-slate-700">{bulkQuestion(open, count)}</AlertDialog.Description>
                {open === "move" ? (
                  <div className="mt-4 space-y-1">
                    <label htmlFor="bulk-category" className="block text-sm font-medium text-slate-800">
                      Category
                    </label>
                    <select
                      id="bulk-category"
                      value={categoryId}
                      onChange={(e) => {
                        setCategoryId(e.target.value);
                        setMissingCategory(false);
                      }}
                      aria-invalid={missingCategory || undefined}
                      aria-describedby={missingCategory ? "bulk-category-error" : undefined}
                      className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900"
                    >
                      <option value="">Choose a category</option>
                      {categoryOptions.map(([value, label]) => (
                        <option key={value} value={value}>
                          {label}
                        </option>
                      ))}
                    </select>
                    {missingCategory ? (
                      <p id="bulk-category-error" className="text-sm text-red-700">
                        Choose the category to move the stories to.
                      </p>
                    ) : null}
                  </div>
                ) : null}
                <div className="mt-6 flex flex-wrap justify-end gap-3">
                  <AlertDialog.Cancel asChild>
                    <Button variant="outline">Cancel</Button>
                  </AlertDialog.Cancel>
                  <Button
                    variant={open === "delete" ? "destructive" : "default"}
                    onClick={() => {
                      if (open === "move" && !categoryId) {
                        setMissingCategory(true);
                        return;
                      }
                      onConfirm(open, open === "move" ? categoryId : undefined);
                      setOpen(null);
                    }}
                  >
                    {open === "move" ? "Move" : BULK_ACTION_LABELS[open]} {count === 1 ? "1 story" : `${count} stories`}
                  </Button>
                </div>
              </>
            ) : null}
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </div>
  );
}
