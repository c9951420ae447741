import { DayRangeAlert, type DayRangeError, DayRangeForm } from "~/components/admin/day-range-form";

/** The period of an ads report (issue 43): a range of site days the server checks. Never printed. */
export function AdPeriodForm({ from, to, error }: { from: string; to: string; error: DayRangeError | null }) {
  return (
    <div className="print:hidden">
      <DayRangeForm idPrefix="period" label="Report period" from={from} to={to} error={error} submitLabel="Show period" />
      <DayRangeAlert idPrefix="period" error={error} className="mt-2" />
    </div>
  );
}
