import { Link } from "react-router";
import { formatCount } from "~/domain/stats/periods";

export interface DashboardMemberFigures {
  members: number;
  paidMembers: number;
  newLast30Days: number;
  canceledLast30Days: number;
  /** Monthly recurring revenue, formatted in the site's currency; absent without members.billing. */
  monthlyRevenue?: string;
}

/**
 * The dashboard's members cards (issue 40): members, paid members, monthly recurring revenue (for those
 * who see billing), new members and canceled subscriptions in the last 30 days. The figures come from
 * app/domain/members/member-figures.server.ts; each card leads to the members list, filtered to match.
 */
export function DashboardMembersCards({ figures }: { figures: DashboardMemberFigures }) {
  const cards: { label: string; value: string; note: string; to: string; testId: string }[] = [
    { label: "Members", value: formatCount(figures.members), note: "Everyone on record", to: "/admin/members", testId: "stat-members" },
    { label: "Paid members", value: formatCount(figures.paidMembers), note: "Paying or complimentary", to: "/admin/members?tier=paid", testId: "stat-paid-members" },
    ...(figures.monthlyRevenue !== undefined
      ? [{ label: "Monthly recurring revenue", value: figures.monthlyRevenue, note: "Monthly plans, and yearly ones ÷ 12", to: "/admin/members?tier=paid", testId: "stat-mrr" }]
      : []),
    {
      label: "Last 30 days",
      value: `+${formatCount(figures.newLast30Days)}`,
      note: `new members · ${formatCount(figures.canceledLast30Days)} canceled`,
      to: "/admin/members?status=canceled",
      testId: "stat-members-30-days",
    },
  ];
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading" className="sr-only">
        Members
      </h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map((card) => (
          <Link
            key={card.testId}
            to={card.to}
            className="block w-full rounded-lg border border-slate-200 bg-white p-5 text-left shadow-sm transition hover:border-brand-600 hover:shadow-md"
          >
            <span className="text-sm font-medium text-slate-700">{card.label}</span>
            <span className="mt-2 block text-3xl font-bold break-words text-slate-900" data-testid={card.testId}>
              {card.value}
            </span>
            <span className="mt-1 block text-xs text-slate-600">{card.note}</span>
          </Link>
        ))}
      </div>
    </section>
  );
}
