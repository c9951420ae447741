import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";

/**
 * The one header of every admin screen: the back control (to the dashboard unless told otherwise),
 * the h1, an optional line about the page, and the page's main action on the right.
 */
export function AdminPageHeader({
  title,
  description,
  action,
  back = { to: "/admin", label: "Back to Dashboard" },
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  back?: { to: string; label: string };
}) {
  return (
    <div className="mb-6">
      <Button asChild variant="ghost" className="mb-2 -ml-2">
        <Link to={back.to}>
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          {back.label}
        </Link>
      </Button>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold break-words text-slate-900">{title}</h1>
          {description ? <p className="mt-1 text-slate-700">{description}</p> : null}
        </div>
        {action}
      </div>
    </div>
  );
}
