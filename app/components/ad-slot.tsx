import { useEffect, useRef } from "react";
import { useRouteLoaderData } from "react-router";
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

declare global {
  interface Window {
    adsbygoogle?: unknown[];
  }
}

const AD_SCRIPT_ID = "ad-network-script";

function loadAdScript(clientId: string) {
  if (document.getElementById(AD_SCRIPT_ID)) return;
  const script = document.createElement("script");
  script.id = AD_SCRIPT_ID;
  script.async = true;
  script.crossOrigin = "anonymous";
  script.src = `https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=${encodeURIComponent(clientId)}`;
  script.onerror = () => console.error("Ad network script failed to load");
  document.head.appendChild(script);
}

/**
 * One ad slot. With an ad-network client id (settings or env) it reserves the slot's height (the
 * layout never shifts when the ad arrives) and pushes it. Without one it renders nothing at all: an
 * empty slot takes no space on the reader's page (issue 41). Ad errors are only logged.
 */
export function AdSlot({ name, className }: { name: AdSlotName; className?: string }) {
  const slot = AD_SLOTS[name];
  const root = useRouteLoaderData("root") as RootData | undefined;
  const clientId = root?.settings.adClientId ?? null;
  const pushed = useRef(false);
  useEffect(() => {
    if (!clientId || pushed.current) return;
    pushed.current = true;
    try {
      loadAdScript(clientId);
      (window.adsbygoogle = window.adsbygoogle || []).push({});
    } catch (error) {
      console.error("Ad slot error", error);
    }
  }, [clientId]);
  if (!clientId) return null;
  return (
    <aside aria-label={slot.label} className={className}>
      <div className="mx-auto w-full max-w-5xl overflow-hidden" style={{ height: slot.height }}>
        <ins className="adsbygoogle block h-full w-full" data-ad-client={clientId} data-ad-slot={slot.id} data-ad-format="auto" data-full-width-responsive="true" />
      </div>
    </aside>
  );
}
