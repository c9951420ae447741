import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { SOURCE_LABELS } from "~/domain/audience/audience-format";
import type { AudienceRightNow } from "~/domain/audience/audience-report.types";
import { formatCount, formatQuantity } from "~/lib/numbers";

/** At most one fetch of "Right now" this often, however many events arrive (the recorder notifies every 2 s at most). */
export const RIGHT_NOW_THROTTLE_MS = 2_000;
/** Fetched this often anyway while the tab is visible (a missed notification, a stream that dropped). */
export const RIGHT_NOW_FALLBACK_MS = 15_000;

/** True for an event-stream message about recorded page loads. */
export function isAudienceMessage(data: unknown): boolean {
  if (typeof data !== "string") return false;
  try {
    return (JSON.parse(data) as { table?: unknown }).table === "audience_events";
  } catch {
    return false;
  }
}

/**
 * "Right now" kept fresh without a reload: the dashboard's event stream (/api/admin/events) says when
 * loads were recorded; then /admin/audience/now is fetched, throttled, and every 15 s as a fallback.
 */
export function useAudienceRightNow(initial: AudienceRightNow, url = "/admin/audience/now"): AudienceRightNow {
  const [now, setNow] = useState(initial);
  const latest = useRef(initial.at);
  useEffect(() => {
    setNow(initial);
    latest.current = initial.at;
  }, [initial]);

  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let inFlight: AbortController | null = null;
    const load = async () => {
      last = Date.now();
      inFlight?.abort();
      const controller = new AbortController();
      inFlight = controller;
      try {
        const response = await fetch(url, { headers: { accept: "application/json" }, signal: controller.signal });
        if (!response.ok) return;
        const fresh = (await response.json()) as AudienceRightNow;
        if (fresh.at >= latest.current) {
          latest.current = fresh.at;
          setNow(fresh);
        }
      } catch {
        // Offline or aborted: the next event or the fallback tries again.
      }
    };
    const schedule = () => {
      if (timer) return;
      const wait = Math.max(0, last + RIGHT_NOW_THROTTLE_MS - Date.now());
      timer = setTimeout(() => {
        timer = null;
        void load();
      }, wait);
    };
    const source = new EventSource("/api/admin/events");
    source.onmessage = (event) => {
      if (isAudienceMessage(event.data)) schedule();
    };
    const fallback = setInterval(() => {
      if (document.visibilityState === "visible") schedule();
    }, RIGHT_NOW_FALLBACK_MS);
    return () => {
      source.close();
      clearInterval(fallback);
      if (timer) clearTimeout(timer);
      inFlight?.abort();
    };
  }, [url]);
  return now;
}

/** The "Right now" panel: visitors and views of the last 5 minutes, the stories they are on, the sources. */
export function AudienceRightNowPanel({ initial }: { initial: AudienceRightNow }) {
  const now = useAudienceRightNow(initial);
  return (
    <section aria-labelledby="right-now-heading" className="rounded-lg border border-slate-200 bg-white p-4" data-testid="right-now">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="right-now-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <span className="inline-block h-2 w-2 rounded-full bg-green-600" aria-hidden="true" />
          Right now
        </h2>
        <p className="text-xs text-slate-600">The last 5 minutes, updating live</p>
      </div>
      <p className="mt-2 text-slate-800" aria-live="polite" aria-atomic="true">
        <span className="text-3xl font-bold tabular-nums text-slate-900" data-testid="right-now-visitors">
          {formatCount(now.visitors)}
        </span>{" "}
        {now.visitors === 1 ? "visitor" : "visitors"} · {formatQuantity(now.views, "page view")}
      </p>
      {now.views === 0 ? (
        <p className="mt-3 text-sm text-slate-700">No one has loaded a page in the last 5 minutes.</p>
      ) : (
        <div className="mt-3 grid gap-4 md:grid-cols-2">
          <div className="min-w-0">
            <h3 className="text-sm font-semibold text-slate-700">On these stories</h3>
            {now.stories.length === 0 ? (
              <p className="mt-1 text-sm text-slate-700">Not on a story (the home page, sections, other pages).</p>
            ) : (
              <ul className="mt-1 space-y-1 text-sm">
                {now.stories.map((s) => (
                  <li key={s.articleId} className="flex justify-between gap-2">
                    <Link to={`/admin/audience/story/${s.articleId}`} className="min-w-0 break-words text-brand-700 hover:underline">
                      {s.title}
                    </Link>
                    <span className="shrink-0 tabular-nums text-slate-700">{formatQuantity(s.visitors, "visitor")}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="min-w-0">
            <h3 className="text-sm font-semibold text-slate-700">From</h3>
            <ul className="mt-1 space-y-1 text-sm" data-testid="right-now-sources">
              {now.sources.map((s) => (
                <li key={`${s.source} ${s.host}`} className="flex justify-between gap-2">
                  <span className="min-w-0 break-words text-slate-900">
                    {SOURCE_LABELS[s.source] ?? s.source}
                    {s.host ? <span className="text-slate-600"> · {s.host}</span> : null}
                  </span>
                  <span className="shrink-0 tabular-nums text-slate-700">{formatQuantity(s.visitors, "visitor")}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </section>
  );
}
