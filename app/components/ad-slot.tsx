import { useEffect, useRef } from "react";
import { useRouteLoaderData } from "react-router";
import { mayLoadAdNetwork, useAdConsent } from "~/lib/ad-consent";
import { loadAdNetwork } from "~/lib/ad-network";
import type { RootData } from "~/root";

/** Every ad slot of the site, with its fixed id and size. */
export const AD_SLOTS = {
  // Labels differ where a page has several slots: each landmark needs its own name (axe: landmark-unique).
  "home-top": { id: "1000000001", height: 120, label: "Advertisement (top)" },
  "home-middle": { id: "1000000002", height: 250, label: "Advertisement (middle)" },
  "home-bottom": { id: "1000000003", height: 120, label: "Advertisement (bottom)" },
  article: { id: "1000000004", height: 250, label: "Advertisement" },
  category: { id: "1000000005", height: 120, label: "Advertisement" },
  contact: { id: "1000000006", height: 250, label: "Advertisement" },
  about: { id: "1000000007", height: 250, label: "Advertisement" },
} as const;
export type AdSlotName = keyof typeof AD_SLOTS;

/**
 * One ad slot. With an ad-network client id (settings or env) it reserves the slot's height (the
 * layout never shifts when the ad arrives) and pushes it. Without one it renders nothing at all: an
 * empty slot takes no space on the reader's page (issue 41). Ad errors are only logged.
 */
export function AdSlot({ name, className }: { name: AdSlotName; className?: string }) {
  const slot = AD_SLOTS[name];
  const root = useRouteLoaderData("root") as RootData | undefined;
  const clientId = root?.settings.adClientId ?? null;
  // Issue 43: the network loads only once the reader accepted, where the site asks (app/lib/ad-consent.ts).
  const consent = useAdConsent();
  const mayLoad = mayLoadAdNetwork(clientId, root?.settings.adConsentRequired ?? true, consent);
  const pushed = useRef(false);
  useEffect(() => {
    if (!mayLoad || !clientId || pushed.current) return;
    pushed.current = true;
    try {
      loadAdNetwork(clientId);
      (window.adsbygoogle = window.adsbygoogle || []).push({});
    } catch (error) {
      console.error("Ad slot error", error);
    }
  }, [clientId, mayLoad]);
  if (!clientId) return null;
  return (
    <aside aria-label={slot.label} className={className}>
      <div className="mx-auto w-full max-w-5xl overflow-hidden" style={{ height: slot.height }}>
        <ins className="adsbygoogle block h-full w-full" data-ad-client={clientId} data-ad-slot={slot.id} data-ad-format="auto" data-full-width-responsive="true" />
      </div>
    </aside>
  );
}
