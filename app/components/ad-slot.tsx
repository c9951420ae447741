import { useEffect, useRef, useState } from "react";
import { useLocation, useRouteLoaderData } from "react-router";
import { AD_SLOTS, slotMarkerHtml, type AdSlotName } from "~/domain/ads/ad-slots";
import { mayLoadAdNetwork, useAdConsent } from "~/lib/ad-consent";
import { showNetworkAd } from "~/lib/ad-network";
import { pageImpressionId, watchViewability } from "~/lib/ad-viewability";
import type { RootData } from "~/root";

export { AD_SLOTS, type AdSlotName };

/**
 * One ad slot (issue 43, decision 0061). The page carries the slot's marker; the door fills it, in each
 * answer of the cached page, with the newsroom's campaign chosen for that reader (an ad we wrote: no
 * advertiser's script). A slot the door did not fill (a page rendered for a signed-in reader, a
 * client-side navigation: its marker is still there) asks /api/ads/fill once mounted; one nothing fills
 * (the door answers it without its marker) shows the ad network's unit when the site has one, or
 * stays empty, and an empty slot takes no space (app.css hides it; a marker alone counts as empty).
 * Once half the ad is in view for a second, its viewability is reported (app/lib/ad-viewability.ts).
 */
export function AdSlot(props: { name: AdSlotName; className?: string; category?: string | null }) {
  // A new page is a new slot: its own fill, its own impression.
  const { pathname } = useLocation();
  return <Slot key={pathname} {...props} />;
}

function Slot({ name, className, category }: { name: AdSlotName; className?: string; category?: string | null }) {
  const slot = AD_SLOTS[name];
  const root = useRouteLoaderData("root") as RootData | undefined;
  const clientId = root?.settings.adClientId ?? null;
  // The network loads only once the reader accepted, where the site asks (app/lib/ad-consent.ts).
  const consent = useAdConsent();
  const mayLoadNetwork = mayLoadAdNetwork(clientId, root?.settings.adConsentRequired ?? true, consent);
  // No campaign of the newsroom's fills this slot: the network's may, if the site has one.
  const [unfilled, setUnfilled] = useState(false);
  const fill = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = fill.current;
    if (!element) return;
    // Filled at the door: this answer's own ad, its id the page's nonce.
    if (element.firstElementChild) return watchViewability(element, pageImpressionId());
    // Emptied at the door (its marker gone: no campaign for this slot now).
    if (!element.firstChild) return void setUnfilled(true);
    // Still the marker: rendered here or for a signed-in reader, so no door chose; ask for this slot's fill.
    let stop = () => {};
    const controller = new AbortController();
    const query = new URLSearchParams({ slot: name, ...(category ? { c: category } : {}) });
    fetch(`/api/ads/fill?${query}`, { signal: controller.signal, credentials: "same-origin" })
      .then(async (response) => {
        if (response.status !== 200) return setUnfilled(true);
        const { html, impression } = (await response.json()) as { html: string; impression: string };
        element.innerHTML = html;
        stop = watchViewability(element, impression);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error("Ad slot error", error);
      });
    return () => {
      controller.abort();
      stop();
    };
  }, [name, category]);
  useEffect(() => {
    const element = fill.current;
    if (!element || !unfilled || !clientId || !mayLoadNetwork) return;
    element.replaceChildren();
    element.style.height = `${slot.height}px`;
    showNetworkAd(element, clientId, slot.id);
  }, [unfilled, clientId, mayLoadNetwork, slot.id, slot.height]);
  return (
    <aside aria-label={slot.label} data-ad-slot-name={name} className={className}>
      <div
        ref={fill}
        data-ad-fill=""
        className="mx-auto w-full max-w-5xl overflow-hidden"
        // The marker, as the door finds it; filled, the answer's HTML differs from this render on purpose.
        dangerouslySetInnerHTML={{ __html: slotMarkerHtml(name, category) }}
        suppressHydrationWarning
      />
    </aside>
  );
}
