import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";

/**
 * Header of an admin list page (articles, categories): an icon link back to the dashboard, the h1
 * with an optional line under it, and the page's main action on the right.
 */
export function AdminListHeader({ title, subtitle, action }: { title: string; subtitle?: ReactNode; action: ReactNode }) {
  const heading = <h1 className="text-3xl font-bold text-slate-900">{title}</h1>;
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
      <div className="flex items-center gap-3">
        <Button asChild variant="ghost" size="icon">
          <Link to="/admin" aria-label="Back to Dashboard">
            <ArrowLeft aria-hidden="true" className="size-5" />
          </Link>
        </Button>
        {subtitle === undefined ? (
          heading
        ) : (
          <div>
            {heading}
            <p className="text-sm text-slate-700">{subtitle}</p>
          </div>
        )}
      </div>
      {action}
    </div>
  );
}

/** Header of an admin tool page (media library, settings): a "Back to Dashboard" link, the h1 and one line about the page. */
export function AdminPageHeader({ title, description }: { title: string; description: string }) {
  return (
    <>
      <Button asChild variant="ghost" className="mb-4 -ml-2">
        <Link to="/admin">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Back to Dashboard
        </Link>
      </Button>
      <h1 className="text-3xl font-bold text-slate-900">{title}</h1>
      <p className="mt-1 text-slate-700">{description}</p>
    </>
  );
}
