/**
 * The ad network (Google AdSense) in the browser: for the slots no campaign of the newsroom fills
 * (issue 43). Callers load it only when app/lib/ad-consent.ts's mayLoadAdNetwork says so.
 *
 * The Content-Security-Policy (server/middleware/security-headers.ts) lets this script in through
 * 'strict-dynamic' (it is added by the app's nonced scripts) and, only while a client id is set,
 * allows the https frames, images and calls the network goes on to make.
 */

declare global {
  interface Window {
    adsbygoogle?: unknown[];
  }
}

export const AD_NETWORK_SCRIPT_ID = "ad-network-script";
export const AD_NETWORK_SCRIPT_URL = "https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js";

/** Adds the network's loader to the page, once (later calls do nothing). */
export function loadAdNetwork(clientId: string): void {
  if (document.getElementById(AD_NETWORK_SCRIPT_ID)) return;
  const script = document.createElement("script");
  script.id = AD_NETWORK_SCRIPT_ID;
  script.async = true;
  script.crossOrigin = "anonymous";
  script.src = `${AD_NETWORK_SCRIPT_URL}?client=${encodeURIComponent(clientId)}`;
  script.onerror = () => console.error("Ad network script failed to load");
  document.head.appendChild(script);
}

/**
 * Fills an empty slot element with the network's ad unit (`<ins class="adsbygoogle">` naming the
 * slot's fixed id) and asks the network for it; loads the network first. A slot already holding one
 * is left alone. Errors are logged, never thrown: an ad never breaks the page.
 */
export function showNetworkAd(element: HTMLElement, clientId: string, slotId: string): void {
  if (element.querySelector("ins.adsbygoogle")) return;
  try {
    loadAdNetwork(clientId);
    const unit = document.createElement("ins");
    unit.className = "adsbygoogle";
    unit.style.display = "block";
    unit.style.width = "100%";
    unit.style.height = "100%";
    unit.dataset.adClient = clientId;
    unit.dataset.adSlot = slotId;
    unit.dataset.adFormat = "auto";
    unit.dataset.fullWidthResponsive = "true";
    element.appendChild(unit);
    (window.adsbygoogle = window.adsbygoogle || []).push({});
  } catch (error) {
    console.error("Ad slot error", error);
  }
}
