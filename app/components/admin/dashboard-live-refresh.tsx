import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { isAudienceMessage } from "./audience-right-now";

/** Several notifications in a burst (a statement per row, a form saving twice) cause one reload. */
export const LIVE_REFRESH_DEBOUNCE_MS = 200;
/** View counts change silently (no notification), so the figures are also reloaded this often. */
export const VIEWS_REFRESH_INTERVAL_MS = 30_000;

const RECONNECT_DELAY_MS = 5_000;

export type LiveStatus = "connecting" | "live" | "reconnecting";

/**
 * Keeps the dashboard's loader data fresh: listens to /api/admin/events (server-sent events fed by
 * PostgreSQL notifications) and revalidates shortly after every change; also revalidates every 30 s
 * while the tab is visible, and once after a dropped stream reconnects (a change may have been missed).
 */
export function useDashboardLiveRefresh(url = "/api/admin/events"): LiveStatus {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const [status, setStatus] = useState<LiveStatus>("connecting");

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const schedule = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void revalidate.current();
      }, LIVE_REFRESH_DEBOUNCE_MS);
    };

    let source: EventSource | null = null;
    let reconnect: ReturnType<typeof setTimeout> | null = null;
    let dropped = false;
    const connect = () => {
      const es = new EventSource(url);
      source = es;
      es.onopen = () => {
        setStatus("live");
        if (dropped) schedule();
        dropped = false;
      };
      // Recorded page loads (issue 42: at most every 2 s on a busy site) are /admin/audience's; the
      // dashboard's view cards already reload every 30 s.
      es.onmessage = (event) => {
        if (!isAudienceMessage(event.data)) schedule();
      };
      es.onerror = () => {
        dropped = true;
        setStatus("reconnecting");
        if (es.readyState === EventSource.CLOSED) {
          // The server refused the stream (signed out, restarting): reloading the data sends a signed-out
          // admin to the login page; otherwise try the stream again a little later.
          schedule();
          reconnect = setTimeout(connect, RECONNECT_DELAY_MS);
        }
        // Otherwise EventSource retries by itself.
      };
    };
    connect();

    const interval = setInterval(() => {
      if (document.visibilityState === "visible") schedule();
    }, VIEWS_REFRESH_INTERVAL_MS);
    const onVisible = () => {
      if (document.visibilityState === "visible") schedule();
    };
    document.addEventListener("visibilitychange", onVisible);

    return () => {
      source?.close();
      if (reconnect) clearTimeout(reconnect);
      clearInterval(interval);
      document.removeEventListener("visibilitychange", onVisible);
      if (timer) clearTimeout(timer);
    };
  }, [url]);

  return status;
}
