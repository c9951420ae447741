// @vitest-environment happy-dom
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, test } from "vitest";
import { AD_CONSENT_DAYS, AD_CONSENT_KEY, adConsentValue, mayLoadAdNetwork, readAdConsent, setAdConsent, useAdConsent, type AdConsent } from "./ad-consent";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  window.localStorage.clear();
  setAdConsent(null);
  document.body.innerHTML = "";
});

/** A component showing the hook's value, and every value it rendered. */
function mountProbe() {
  const seen: (AdConsent | null)[] = [];
  function Probe() {
    const consent = useAdConsent();
    seen.push(consent);
    return <output>{consent ?? "none"}</output>;
  }
  const host = document.createElement("div");
  document.body.append(host);
  const root = createRoot(host);
  act(() => root.render(<Probe />));
  return { text: () => host.textContent, seen, root };
}

describe("the reader's ad consent", () => {
  test("is kept in localStorage, not in a cookie, and null until the reader chooses", () => {
    expect(readAdConsent()).toBeNull();
    setAdConsent("granted");
    expect(window.localStorage.getItem(AD_CONSENT_KEY)).toMatch(/^granted:\d+$/);
    expect(readAdConsent()).toBe("granted");
    expect(document.cookie).toBe("");
    setAdConsent("denied");
    expect(readAdConsent()).toBe("denied");
    setAdConsent(null);
    expect(window.localStorage.getItem(AD_CONSENT_KEY)).toBeNull();
    expect(readAdConsent()).toBeNull();
  });

  test("a stored value that is no choice of ours reads as no choice", () => {
    for (const value of ["yes please", "granted", "granted:", "granted:abc", "maybe:1764460800000"]) {
      window.localStorage.setItem(AD_CONSENT_KEY, value);
      expect(readAdConsent(), value).toBeNull();
    }
  });

  test("a choice holds six months, then the banner asks again; one dated in the future is none", () => {
    const day = 86_400_000;
    window.localStorage.setItem(AD_CONSENT_KEY, adConsentValue("granted", Date.now() - (AD_CONSENT_DAYS - 1) * day));
    expect(readAdConsent()).toBe("granted");
    window.localStorage.setItem(AD_CONSENT_KEY, adConsentValue("denied", Date.now() - (AD_CONSENT_DAYS - 1) * day));
    expect(readAdConsent()).toBe("denied");
    window.localStorage.setItem(AD_CONSENT_KEY, adConsentValue("granted", Date.now() - AD_CONSENT_DAYS * day));
    expect(readAdConsent()).toBeNull();
    window.localStorage.setItem(AD_CONSENT_KEY, adConsentValue("granted", Date.now() + day));
    expect(readAdConsent()).toBeNull();
  });

  test("the hook follows this tab's choices", () => {
    const probe = mountProbe();
    expect(probe.text()).toBe("none");
    act(() => setAdConsent("granted"));
    expect(probe.text()).toBe("granted");
    act(() => setAdConsent(null));
    expect(probe.text()).toBe("none");
    act(() => probe.root.unmount());
  });

  test("the hook follows another tab's choice, told by the storage event", () => {
    const probe = mountProbe();
    expect(probe.text()).toBe("none");
    // Another tab wrote the key: this tab hears only the storage event.
    window.localStorage.setItem(AD_CONSENT_KEY, adConsentValue("denied"));
    act(() => void window.dispatchEvent(new window.StorageEvent("storage", { key: AD_CONSENT_KEY, newValue: adConsentValue("denied") })));
    expect(probe.text()).toBe("denied");
    window.localStorage.setItem(AD_CONSENT_KEY, adConsentValue("granted"));
    act(() => void window.dispatchEvent(new window.StorageEvent("storage", { key: AD_CONSENT_KEY, newValue: adConsentValue("granted") })));
    expect(probe.text()).toBe("granted");
    // The other tab cleared the site's storage (key null).
    window.localStorage.clear();
    act(() => void window.dispatchEvent(new window.StorageEvent("storage", { key: null })));
    expect(probe.text()).toBe("none");
    act(() => probe.root.unmount());
  });

  test("where storage is refused the choice still holds for the page", () => {
    const storage = Object.getOwnPropertyDescriptor(window, "localStorage")!;
    Object.defineProperty(window, "localStorage", {
      configurable: true,
      get() {
        throw new DOMException("denied", "SecurityError");
      },
    });
    try {
      setAdConsent("granted");
      expect(readAdConsent()).toBe("granted");
    } finally {
      Object.defineProperty(window, "localStorage", storage);
    }
  });

  test("the network may load when there is one and consent is not needed or was given", () => {
    expect(mayLoadAdNetwork(null, false, "granted")).toBe(false);
    expect(mayLoadAdNetwork("ca-pub-1234567890123456", false, null)).toBe(true);
    expect(mayLoadAdNetwork("ca-pub-1234567890123456", true, null)).toBe(false);
    expect(mayLoadAdNetwork("ca-pub-1234567890123456", true, "denied")).toBe(false);
    expect(mayLoadAdNetwork("ca-pub-1234567890123456", true, "granted")).toBe(true);
  });
});
