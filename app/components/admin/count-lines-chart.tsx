import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount } from "~/lib/numbers";

/** One line of a CountLinesChart: the point's field it draws, its legend name and colour. */
export interface CountLine<K extends string> {
  key: K;
  name: string;
  stroke: string;
}

/**
 * Counts over time as lines (recharts, decision 0059), drawn for the eye only (`aria-hidden`): each
 * screen shows the same figures as a table beside or behind it. The back office's audience (issue 42)
 * and ads (issue 43) charts share it.
 */
export function CountLinesChart<K extends string>({
  points,
  lines,
  height,
  className,
  testId,
}: {
  points: readonly ({ label: string } & Record<K, number>)[];
  lines: readonly CountLine<K>[];
  /** In pixels: the box's Tailwind height class must match it (the first render's size before measuring). */
  height: number;
  className: string;
  testId: string;
}) {
  return (
    <div className={className} aria-hidden="true" data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height }}>
        <LineChart data={points as ({ label: string } & Record<K, number>)[]} margin={{ top: 8, right: 12, bottom: 0, left: -12 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#475569" }} interval="preserveStartEnd" minTickGap={16} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: "#475569" }} />
          <Tooltip formatter={(value) => formatCount(Number(value))} />
          <Legend />
          {lines.map((line) => (
            <Line key={line.key} type="linear" dataKey={line.key} name={line.name} stroke={line.stroke} strokeWidth={2} dot={false} isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
