import { Trash2 } from "lucide-react";
import { AlertDialog } from "radix-ui";
import type { ReactNode } from "react";
import { Button } from "~/components/ui/button";

/**
 * An accessible confirmation (role="alertdialog", focus trapped, Escape cancels) opened by `trigger`,
 * or, without one, shown while `open` (then `onOpenChange(false)` reports a cancel).
 * `onConfirm` runs when the destructive button is pressed. `children` (a choice that goes with the
 * confirmation) come between the description and the buttons.
 */
export function ConfirmDialog({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = "Delete",
  cancelLabel = "Cancel",
  onConfirm,
  children,
}: {
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
  /** Shown under the description (a choice, or a warning to read before confirming). */
  children?: ReactNode;
}) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger> : null}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-700">{description}</AlertDialog.Description>
          {children}
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel asChild>
              <Button variant="outline">{cancelLabel}</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="destructive" onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** The red trash-can button of a list row that asks before deleting. */
export function ConfirmDeleteButton({
  label,
  title,
  description,
  disabled,
  className,
  onConfirm,
}: {
  /** The button's accessible name, e.g. “Delete “Title””. */
  label: string;
  title: string;
  description: string;
  disabled?: boolean;
  className?: string;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost-destructive" size="icon" className={className} aria-label={label} disabled={disabled}>
          <Trash2 aria-hidden="true" className="size-4" />
        </Button>
      }
      title={title}
      description={description}
      onConfirm={onConfirm}
    />
  );
}
