import { Mail } from "lucide-react";
import { Link } from "react-router";
import { formatCount } from "~/domain/stats/periods";

/**
 * The dashboard's "Subscribers" card (issue 30): active newsletter subscribers, and how many confirmed
 * in the last 30 days; it leads to the members list (active on e-mail) for those who may open it.
 */
export function DashboardSubscribersCard({ active, newLast30Days, linked }: { active: number; newLast30Days: number; linked: boolean }) {
  const body = (
    <>
      <span className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium text-slate-700">Subscribers</span>
        <Mail className="h-5 w-5 text-brand-700" aria-hidden="true" />
      </span>
      <span className="mt-2 block text-3xl font-bold text-slate-900" data-testid="stat-subscribers">
        {formatCount(active)}
      </span>
      <span className="mt-1 block text-xs text-slate-600" data-testid="stat-subscribers-new">
        Active · {formatCount(newLast30Days)} new in the last 30 days
      </span>
    </>
  );
  const cardClass = "block w-full rounded-lg border border-slate-200 bg-white p-5 text-left shadow-sm";
  return (
    <section aria-labelledby="subscribers-heading" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <h2 id="subscribers-heading" className="sr-only">
        Newsletter subscribers
      </h2>
      {linked ? (
        <Link to="/admin/members?state=active" className={`${cardClass} transition hover:border-brand-600 hover:shadow-md`}>
          {body}
        </Link>
      ) : (
        <div className={cardClass}>{body}</div>
      )}
    </section>
  );
}
