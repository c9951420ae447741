import { Download } from "lucide-react";
import type { ReactNode } from "react";

/**
 * One table of /admin/audience and a story's report (issue 42): a caption, the figures (right-aligned
 * numbers), a truthful empty state, and "Export CSV" of the same table. It scrolls inside itself on a
 * narrow screen, never the page.
 */
export function AudienceTable({
  caption,
  columns,
  rows,
  numeric = [],
  empty,
  exportHref,
  title,
}: {
  caption: string;
  columns: readonly string[];
  rows: readonly (readonly ReactNode[])[];
  /** The columns holding numbers (right-aligned). */
  numeric?: readonly number[];
  empty: string;
  exportHref?: string;
  /** A visible heading above the table (the caption then stays for screen readers). */
  title?: string;
}) {
  return (
    <div className="min-w-0">
      {title || exportHref ? (
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          {title ? <h2 className="text-lg font-semibold text-slate-900">{title}</h2> : <span />}
          {exportHref && rows.length > 0 ? (
            <a href={exportHref} download className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-brand-700 hover:bg-slate-100">
              <Download className="h-4 w-4" aria-hidden="true" />
              Export CSV<span className="sr-only"> of {caption}</span>
            </a>
          ) : null}
        </div>
      ) : null}
      {rows.length === 0 ? (
        <p className="rounded-md bg-slate-50 px-3 py-4 text-sm text-slate-700">{empty}</p>
      ) : (
        <div className="max-w-full overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
          <table className="w-full min-w-max text-sm">
            <caption className={title ? "sr-only" : "mb-1 text-left text-sm text-slate-600"}>{caption}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-left text-slate-700">
                {columns.map((c, i) => (
                  <th key={c} scope="col" className={`px-2 py-2 font-semibold ${numeric.includes(i) ? "text-right" : ""}`}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, r) => (
                <tr key={r} className="border-b border-slate-100 last:border-0">
                  {row.map((cell, i) =>
                    i === 0 ? (
                      <th key={i} scope="row" className="max-w-52 min-w-36 px-2 py-2 text-left font-normal break-words text-slate-900 sm:max-w-xs">
                        {cell}
                      </th>
                    ) : (
                      <td key={i} className={`px-2 py-2 text-slate-800 ${numeric.includes(i) ? "text-right tabular-nums" : ""}`}>
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
