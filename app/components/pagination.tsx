import { Link } from "react-router";
import { cn } from "~/lib/cn";
import { formatCount } from "~/lib/numbers";

/**
 * Newer/older links for a paginated list (reader category pages and admin lists); nothing when
 * everything fits on one page. Page 1 is `basePath` itself (which may carry a query, such as a
 * filter), later pages add `page=N` to it.
 */
export function Pagination({
  basePath,
  page,
  pageCount,
  className,
}: {
  basePath: string;
  page: number;
  pageCount: number;
  /** Spacing above the links, e.g. "mt-6". */
  className?: string;
}) {
  if (pageCount <= 1) return null;
  const href = (p: number) => (p === 1 ? basePath : `${basePath}${basePath.includes("?") ? "&" : "?"}page=${p}`);
  const linkClass = "rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50";
  return (
    <nav aria-label="Pagination" className={cn("flex items-center justify-center gap-3", className)}>
      {page > 1 ? (
        <Link to={href(page - 1)} className={linkClass} rel="prev">
          ← Newer
        </Link>
      ) : null}
      <span className="text-sm text-slate-700">
        Page {formatCount(page)} of {formatCount(pageCount)}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={linkClass} rel="next">
          Older →
        </Link>
      ) : null}
    </nav>
  );
}
