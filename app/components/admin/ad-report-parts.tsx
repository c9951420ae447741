import type { ReactNode } from "react";
import { AudienceTable } from "~/components/admin/audience-table";
import { dayText, formatCtr, formatViewability, PACE_TEXT, type AdCounts, type AdDayRow, type AdPace } from "~/domain/ads/ad-report-format";
import { cn } from "~/lib/cn";
import { formatCount } from "~/lib/numbers";

// The pieces the ads reports share (issue 43): the totals cards and the by-day table, on screen and on paper.

export const COUNT_COLUMNS = ["Impressions", "Viewable", "Clicks", "CTR"] as const;

/** A row's four figures, as the tables show them. */
export const countCells = (c: AdCounts): string[] => [formatCount(c.impressions), formatCount(c.viewable), formatCount(c.clicks), formatCtr(c)];

/** One figure on a card. */
export function ReportCard({ label, value, note, testId }: { label: string; value: string; note?: ReactNode; testId: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 print:break-inside-avoid print:border-slate-400">
      <p className="text-sm text-slate-700">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </p>
      {note ? <p className="mt-1 text-sm text-slate-700">{note}</p> : null}
    </div>
  );
}

/** Impressions, viewable (and the viewability), clicks and CTR. */
export function CountCards({ totals, prefix }: { totals: AdCounts; prefix: string }) {
  return (
    <>
      <ReportCard label="Impressions" value={formatCount(totals.impressions)} testId={`${prefix}-impressions`} />
      <ReportCard label="Viewable impressions" value={formatCount(totals.viewable)} note={`${formatViewability(totals)} viewability`} testId={`${prefix}-viewable`} />
      <ReportCard label="Clicks" value={formatCount(totals.clicks)} testId={`${prefix}-clicks`} />
      <ReportCard label="Click-through rate" value={formatCtr(totals)} testId={`${prefix}-ctr`} />
    </>
  );
}

const PACE_COLOUR: Record<AdPace, string> = { "not started": "text-slate-700", ahead: "text-emerald-800", met: "text-emerald-800", behind: "text-amber-800", missed: "text-amber-800" };

/** The goal's progress: impressions to date of the goal, a bar, and the even pace's expectation today. */
export function GoalCard({ goal }: { goal: { goal: number; toDate: number; share: number; expected: number; pace: AdPace } }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 print:break-inside-avoid" data-testid="goal-card">
      <p className="text-sm text-slate-700">Impression goal</p>
      <p className="mt-1 text-2xl font-bold tabular-nums text-slate-900" data-testid="goal-progress">
        {formatCount(goal.toDate)} of {formatCount(goal.goal)} ({Math.floor(goal.share * 100)}%)
      </p>
      <div className="mt-2 h-2 overflow-hidden rounded bg-slate-100" aria-hidden="true">
        <div className="h-full rounded bg-brand-700" style={{ width: `${Math.min(100, goal.share * 100)}%` }} />
      </div>
      <p className={cn("mt-2 text-sm font-medium", PACE_COLOUR[goal.pace])} data-testid="goal-pace">
        {PACE_TEXT[goal.pace]}
        {goal.pace === "ahead" || goal.pace === "behind" ? `: ${formatCount(goal.expected)} expected by today` : null}
      </p>
    </div>
  );
}

/** Every day's figures and the period's total. */
export function DaysTable({ days, totals, caption, title }: { days: readonly AdDayRow[]; totals: AdCounts; caption: string; title?: string }) {
  return (
    <AudienceTable
      title={title}
      caption={caption}
      columns={["Day", ...COUNT_COLUMNS]}
      numeric={[1, 2, 3, 4]}
      rows={[...days.map((d) => [dayText(d.day), ...countCells(d)]), ["Total", ...countCells(totals)].map((cell) => <strong key={cell}>{cell}</strong>)]}
      empty="No day in this period."
    />
  );
}
