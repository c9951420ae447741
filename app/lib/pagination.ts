import { redirect } from "react-router";

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
