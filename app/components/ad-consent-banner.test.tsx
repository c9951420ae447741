// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, test } from "vitest";
import { readAdConsent, setAdConsent } from "~/lib/ad-consent";
import { AdConsentBanner } from "./ad-consent-banner";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const CLIENT = "ca-pub-1234567890123456";

const mounted: Root[] = [];

afterEach(() => {
  for (const root of mounted.splice(0)) act(() => root.unmount());
  setAdConsent(null);
  window.localStorage.clear();
  document.body.innerHTML = "";
});

function mount(clientId: string | null, consentRequired: boolean) {
  const host = document.createElement("div");
  document.body.append(host);
  const root = createRoot(host);
  mounted.push(root);
  act(() =>
    root.render(
      <MemoryRouter>
        <AdConsentBanner clientId={clientId} consentRequired={consentRequired} />
      </MemoryRouter>,
    ),
  );
  const banner = () => host.querySelector<HTMLElement>("[data-ad-consent-banner]");
  const button = (name: string) => [...host.querySelectorAll("button")].find((b) => b.textContent === name)!;
  return { host, root, banner, button };
}

describe("the ad-cookie banner", () => {
  test("is never in the server's HTML, whatever the settings (cached pages are the same for every reader)", () => {
    const html = renderToString(
      <MemoryRouter>
        <AdConsentBanner clientId={CLIENT} consentRequired />
      </MemoryRouter>,
    );
    expect(html).toBe("");
  });

  test("asks a reader who has not chosen, when a network is set and consent is required: a labelled region with the two buttons and the privacy link", () => {
    const { banner, button } = mount(CLIENT, true);
    const region = banner()!;
    expect(region.tagName).toBe("SECTION");
    const label = document.getElementById(region.getAttribute("aria-labelledby")!);
    expect(label?.textContent).toBe("Ads and cookies.");
    expect(region.getAttribute("role")).toBeNull();
    expect(region.textContent).toContain("Our ad network may set cookies");
    expect(region.querySelector("a")?.getAttribute("href")).toBe("/privacy-policy");
    expect(button("Accept ads cookies").type).toBe("button");
    expect(button("No thanks").type).toBe("button");
  });

  test("is not shown without a network client id, when consent is not required, or once the reader chose", () => {
    expect(mount(null, true).banner()).toBeNull();
    expect(mount(CLIENT, false).banner()).toBeNull();
    setAdConsent("denied");
    expect(mount(CLIENT, true).banner()).toBeNull();
    setAdConsent("granted");
    expect(mount(CLIENT, true).banner()).toBeNull();
  });

  test("“Accept ads cookies” grants and “No thanks” denies; either hides the banner", () => {
    const first = mount(CLIENT, true);
    act(() => first.button("Accept ads cookies").click());
    expect(readAdConsent()).toBe("granted");
    expect(first.banner()).toBeNull();
    act(() => setAdConsent(null));
    expect(first.banner()).not.toBeNull();
    act(() => first.button("No thanks").click());
    expect(readAdConsent()).toBe("denied");
    expect(first.banner()).toBeNull();
  });

  test("a forgotten choice (“Ad choices”) brings it back with focus on its first button", () => {
    setAdConsent("denied");
    const { banner, button } = mount(CLIENT, true);
    expect(banner()).toBeNull();
    act(() => setAdConsent(null));
    expect(banner()).not.toBeNull();
    expect(document.activeElement).toBe(button("Accept ads cookies"));
  });
});
