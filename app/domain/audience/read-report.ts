import { z } from "zod";

// A story page's reading report (issue 42, decision 0058): POST /api/audience/read, sent by
// navigator.sendBeacon (text/plain) or fetch (application/json).

/** The longest time a report may claim (a tab left open longer still reports 4 hours). */
export const MAX_ENGAGED_MS = 4 * 3600_000;
/** The largest body a report may be. */
export const MAX_READ_REPORT_BYTES = 2048;
export const READ_DEPTHS = [0, 25, 50, 75, 100] as const;

export const readReportSchema = z.object({
  path: z
    .string({ error: "path is required" })
    .min(1, { error: "path is required" })
    .max(2048, { error: "path must be at most 2048 characters" })
    .regex(/^\/[!-~]*$/, { error: "path must start with / and hold printable ASCII only" }),
  loadId: z.uuid({ error: "loadId must be a UUID" }),
  engagedMs: z
    .number({ error: "engagedMs must be a number of milliseconds" })
    .int({ error: "engagedMs must be a whole number of milliseconds" })
    .min(0, { error: "engagedMs must be at least 0" })
    .max(MAX_ENGAGED_MS, { error: `engagedMs must be at most ${MAX_ENGAGED_MS} (4 hours)` }),
  depth: z.union(
    READ_DEPTHS.map((depth) => z.literal(depth)),
    { error: "depth must be 0, 25, 50, 75 or 100" },
  ),
});

export type ReadReport = z.infer<typeof readReportSchema>;

/** A report from its body (JSON, whatever the content type says), or why it is refused. */
export function parseReadReport(body: string): { report: ReadReport } | { error: string } {
  if (body.length > MAX_READ_REPORT_BYTES) return { error: `Send at most ${MAX_READ_REPORT_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { error: "Send JSON: { path, loadId, engagedMs, depth }" };
  }
  const parsed = readReportSchema.safeParse(json);
  if (!parsed.success) return { error: parsed.error.issues[0]!.message };
  return { report: parsed.data };
}
