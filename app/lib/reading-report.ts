import { useEffect } from "react";

// A story page's reading report (issue 42, decision 0058): how long the page was visible and the
// furthest quarter of the story text scrolled past, sent with sendBeacon when the page is hidden or
// left, and when a new quarter is reached (at most once per 5 s). The load's id is random and held in
// memory only: nothing in a cookie or in storage.

const THROTTLE_MS = 5000;
const MAX_MS = 4 * 3600_000;

/** A random UUID (randomUUID is missing outside secure contexts, e.g. plain http on a LAN address). */
const uuid = () =>
  crypto.randomUUID?.() ?? "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) => (+c ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (+c / 4)))).toString(16));

/** Reports the reading of the story at `path`, whose text is the element marked `data-story-text`; answers the cleanup. */
export function reportReading(path: string): () => void {
  const loadId = uuid();
  const now = () => performance.now();
  let engaged = 0;
  let visibleSince = document.visibilityState === "visible" ? now() : -1;
  let depth = 0;
  let sent = "";
  let lastSent = -THROTTLE_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = () => {
    clearTimeout(timer);
    const engagedMs = Math.min(MAX_MS, Math.round(engaged + (visibleSince < 0 ? 0 : now() - visibleSince)));
    const body = JSON.stringify({ path, loadId, engagedMs, depth });
    if (body === sent) return;
    sent = body;
    lastSent = now();
    navigator.sendBeacon?.("/api/audience/read", body);
  };
  const measure = () => {
    const text = document.querySelector("[data-story-text]");
    if (!text || depth === 100) return;
    const box = text.getBoundingClientRect();
    const seen = box.bottom <= innerHeight ? 100 : Math.max(0, Math.floor(((innerHeight - box.top) / box.height) * 4) * 25);
    if (seen <= depth) return;
    depth = seen;
    clearTimeout(timer);
    timer = setTimeout(send, Math.max(0, lastSent + THROTTLE_MS - now()));
  };
  const onVisibility = () => {
    if (document.visibilityState === "visible") visibleSince = now();
    else {
      if (visibleSince >= 0) engaged += now() - visibleSince;
      visibleSince = -1;
      send();
    }
  };
  addEventListener("scroll", measure, { passive: true });
  addEventListener("pagehide", send);
  document.addEventListener("visibilitychange", onVisibility);
  measure();
  return () => {
    removeEventListener("scroll", measure);
    removeEventListener("pagehide", send);
    document.removeEventListener("visibilitychange", onVisibility);
    // Leaving the story for another page of the site: its last report.
    send();
  };
}

/** Reports the reading of the story at `path` for as long as the page shows it. */
export function useReadingReport(path: string) {
  useEffect(() => reportReading(path), [path]);
}
