import type { ReactNode } from "react";
import { Form } from "react-router";
import { FieldError } from "~/components/admin/field-error";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";

/** A range of days refused by the server (400): which day is wrong and why. */
export interface DayRangeError {
  field: "from" | "to" | null;
  message: string;
}

/** The refusal of a range of days, from an AppError's field and message. */
export const dayRangeErrorOf = (error: { field?: string; message: string }): DayRangeError => ({
  field: error.field === "from" || error.field === "to" ? error.field : null,
  message: error.message,
});

/** The id of the message under a range form (`<idPrefix>-from-error`, `-to-error`, or `-error` for the range as a whole). */
const errorIdOf = (idPrefix: string, error: DayRangeError | null) => (error?.field ? `${idPrefix}-${error.field}-error` : `${idPrefix}-error`);

/**
 * Two site days sent as `from` and `to` in the query string (a GET form: the address can be shared and
 * bookmarked), as the audience's chosen range and the ads reports' period ask for them. The server
 * checks them; the field it refuses is marked and points at the message (DayRangeAlert).
 */
export function DayRangeForm({
  idPrefix,
  label,
  from,
  to,
  max,
  error,
  submitLabel,
  submitVariant = "outline",
  children,
}: {
  /** Makes the fields' ids: `<idPrefix>-from`, `<idPrefix>-to`. */
  idPrefix: string;
  /** The form's accessible name. */
  label: string;
  from: string;
  to: string;
  /** The last day that can be chosen, if any (YYYY-MM-DD). */
  max?: string;
  error: DayRangeError | null;
  submitLabel: string;
  submitVariant?: "default" | "outline";
  /** Hidden fields sent with the range. */
  children?: ReactNode;
}) {
  const field = (name: "from" | "to", text: string, value: string) => (
    <div className="flex w-40 flex-col gap-1">
      <Label htmlFor={`${idPrefix}-${name}`}>{text}</Label>
      <Input
        id={`${idPrefix}-${name}`}
        name={name}
        type="date"
        max={max}
        required
        defaultValue={value}
        aria-invalid={error?.field === name || undefined}
        aria-describedby={error?.field === name ? errorIdOf(idPrefix, error) : undefined}
      />
    </div>
  );
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2" aria-label={label}>
      {children}
      {field("from", "From", from)}
      {field("to", "To", to)}
      <Button type="submit" variant={submitVariant}>
        {submitLabel}
      </Button>
    </Form>
  );
}

/** The server's refusal of a DayRangeForm's range, announced; nothing without one. */
export function DayRangeAlert({ idPrefix, error, className }: { idPrefix: string; error: DayRangeError | null; className?: string }) {
  if (!error) return null;
  return (
    <div role="alert" className={className}>
      <FieldError id={errorIdOf(idPrefix, error)} message={error.message} />
    </div>
  );
}
