/**
 * Viewable impressions (issue 43, decision 0061): once half of an ad has been in view for a second
 * while the page is visible, the slot's script reports it once with `sendBeacon` to /api/ads/seen as
 * `<token>\n<impression id>` (text/plain: no preflight). No cookie, nothing else about the reader.
 */

export const VIEWABLE_RATIO = 0.5;
export const VIEWABLE_MS = 1000;

/** The id of this page's answer: its script nonce (each answer of a cached page has its own). */
export function pageImpressionId(): string | null {
  const script = document.querySelector<HTMLScriptElement>("script[nonce]");
  return script?.nonce || null;
}

/** Watches the ad in `slot` (its `[data-ad-token]` element); answers a function that stops watching. */
export function watchViewability(slot: Element, impressionId: string | null): () => void {
  const target = slot.querySelector<HTMLElement>("[data-ad-token]");
  const token = target?.dataset.adToken;
  if (!target || !token || !impressionId || typeof IntersectionObserver === "undefined") return () => {};
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inView = false;
  let done = false;
  const clear = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const arm = () => {
    if (done || timer || !inView || document.visibilityState !== "visible") return;
    timer = setTimeout(report, VIEWABLE_MS);
  };
  const report = () => {
    timer = null;
    if (done || !inView || document.visibilityState !== "visible") return;
    done = true;
    stop();
    const body = new Blob([`${token}\n${impressionId}`], { type: "text/plain" });
    if (!navigator.sendBeacon?.("/api/ads/seen", body)) void fetch("/api/ads/seen", { method: "POST", body, keepalive: true }).catch(() => {});
  };
  const observer = new IntersectionObserver(
    ([entry]) => {
      inView = Boolean(entry && entry.isIntersecting && entry.intersectionRatio >= VIEWABLE_RATIO);
      if (inView) arm();
      else clear();
    },
    { threshold: [0, VIEWABLE_RATIO, 1] },
  );
  const onVisibility = () => (document.visibilityState === "visible" ? arm() : clear());
  observer.observe(target);
  document.addEventListener("visibilitychange", onVisibility);
  function stop() {
    clear();
    observer.disconnect();
    document.removeEventListener("visibilitychange", onVisibility);
  }
  return stop;
}
