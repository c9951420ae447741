import { Form } from "react-router";
import { FieldError } from "~/components/admin/field-error";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";

/** A report's period refused by the server (400): which day is wrong and why. */
export interface AdPeriodError {
  field: "from" | "to" | null;
  message: string;
}

/**
 * The period of an ads report (issue 43): two site days sent as `from` and `to` in the query string
 * (a GET form: the address can be shared and bookmarked). The server checks them; its refusal shows
 * under the form. Never printed.
 */
export function AdPeriodForm({ from, to, error }: { from: string; to: string; error: AdPeriodError | null }) {
  return (
    <div className="print:hidden">
      <Form method="get" className="flex flex-wrap items-end gap-2" aria-label="Report period">
        <div className="flex w-40 flex-col gap-1">
          <Label htmlFor="period-from">From</Label>
          <Input
            id="period-from"
            name="from"
            type="date"
            required
            defaultValue={from}
            aria-invalid={error?.field === "from" || undefined}
            aria-describedby={error?.field === "from" ? "period-error" : undefined}
          />
        </div>
        <div className="flex w-40 flex-col gap-1">
          <Label htmlFor="period-to">To</Label>
          <Input
            id="period-to"
            name="to"
            type="date"
            required
            defaultValue={to}
            aria-invalid={error?.field === "to" || undefined}
            aria-describedby={error?.field === "to" ? "period-error" : undefined}
          />
        </div>
        <Button type="submit" variant="outline">
          Show period
        </Button>
      </Form>
      {error ? (
        <div role="alert" className="mt-2">
          <FieldError id="period-error" message={error.message} />
        </div>
      ) : null}
    </div>
  );
}

/** The refusal of a period, from an AppError's field and message. */
export const periodErrorOf = (error: { field?: string; message: string }): AdPeriodError => ({
  field: error.field === "from" || error.field === "to" ? error.field : null,
  message: error.message,
});
