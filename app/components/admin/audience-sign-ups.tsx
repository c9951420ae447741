import type { AudienceConversions } from "~/domain/audience/audience-report.types";
import { formatCount } from "~/lib/numbers";

/** The sign-ups of a period or a story (issue 42): newsletter, member and paid, as three figures. */
export function AudienceSignUps({ conversions }: { conversions: AudienceConversions }) {
  return (
    <dl className="grid grid-cols-3 gap-2 text-center">
      {(
        [
          ["Newsletter", conversions.newsletter],
          ["Members", conversions.member],
          ["Paid", conversions.paid],
        ] as const
      ).map(([label, n]) => (
        <div key={label} className="rounded-md bg-slate-50 p-3">
          <dt className="text-sm text-slate-700">{label}</dt>
          <dd className="text-2xl font-bold tabular-nums text-slate-900">{formatCount(n)}</dd>
        </div>
      ))}
    </dl>
  );
}
