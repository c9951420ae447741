import { Link, redirect } from "react-router";
import { cn } from "~/lib/cn";

/** Reads `?page=` (1 when absent or malformed). */
export function pageFromUrl(url: string): number {
  const value = new URL(url).searchParams.get("page");
  return value && /^\d{1,6}$/.test(value) ? Math.max(1, Number(value)) : 1;
}

/**
 * For an admin list: the number of pages; when the page asked for lies past the last one (its last
 * row was just deleted, or a stale link), sends the browser to the last page instead of showing an
 * empty list.
 */
export function pageCountOrRedirect(url: string, page: number, total: number, pageSize: number): number {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  if (page <= pageCount) return pageCount;
  const target = new URL(url);
  if (pageCount === 1) target.searchParams.delete("page");
  else target.searchParams.set("page", String(pageCount));
  throw redirect(`${target.pathname}${target.search}`);
}

/**
 * Newer/older links for a paginated list (reader category pages and admin lists); nothing when
 * everything fits on one page. Page 1 is `basePath` itself, later pages add `?page=N`.
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
  const href = (p: number) => (p === 1 ? basePath : `${basePath}?page=${p}`);
  const linkClass = "rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50";
  return (
    <nav aria-label="Pagination" className={cn("flex items-center justify-center gap-3", className)}>
      {page > 1 ? (
        <Link to={href(page - 1)} className={linkClass} rel="prev">
          ← Newer
        </Link>
      ) : null}
      <span className="text-sm text-slate-700">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={linkClass} rel="next">
          Older →
        </Link>
      ) : null}
    </nav>
  );
}
