// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from "vitest";
import { AD_NETWORK_SCRIPT_ID, showNetworkAd } from "./ad-network";

afterEach(() => {
  document.head.innerHTML = "";
  document.body.innerHTML = "";
  delete window.adsbygoogle;
});

describe("the ad network in the browser", () => {
  test("showNetworkAd fills an empty slot with the network's unit, loads the network's script once and pushes each unit once", () => {
    // happy-dom must not fetch the script: the element is what is checked.
    const first = document.createElement("div");
    const second = document.createElement("div");
    document.body.append(first, second);
    showNetworkAd(first, "ca-pub-1234567890123456", "1000000004");
    showNetworkAd(second, "ca-pub-1234567890123456", "1000000001");
    showNetworkAd(first, "ca-pub-1234567890123456", "1000000004");
    const scripts = document.querySelectorAll(`#${AD_NETWORK_SCRIPT_ID}`);
    expect(scripts).toHaveLength(1);
    expect((scripts[0] as HTMLScriptElement).src).toBe("https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=ca-pub-1234567890123456");
    const unit = first.querySelector("ins.adsbygoogle") as HTMLElement;
    expect(unit.dataset).toMatchObject({ adClient: "ca-pub-1234567890123456", adSlot: "1000000004", adFormat: "auto" });
    expect(first.querySelectorAll("ins")).toHaveLength(1);
    expect((second.querySelector("ins.adsbygoogle") as HTMLElement).dataset.adSlot).toBe("1000000001");
    expect(window.adsbygoogle).toHaveLength(2);
  });
});
