import { describe, expect, test } from "vitest";
import { adPlacementOf, adToken, type AdPlacement } from "./ad-token.server";

// An ad's signed token (issue 43, decision 0061): what /ads/click/{token} and the viewability beacon carry.

const SECRET = "the site's session secret";
const placement: AdPlacement = { campaignId: "0b6f3c2e-8a51-4f4e-9d1e-2f0c8a7b6d51", creativeId: "5d2a9e17-3c4b-4a8f-b6e2-91f0d3c7a845", slot: "article" };

describe("ad tokens", () => {
  test("round trip: a token names its placement, the same every time", () => {
    const token = adToken(SECRET, placement);
    expect(token.startsWith(`${placement.campaignId}.${placement.creativeId}.article.`)).toBe(true);
    expect(token).toMatch(/^[\w.-]+$/);
    expect(adToken(SECRET, placement)).toBe(token);
    expect(adPlacementOf(SECRET, token)).toEqual(placement);
    const other = { ...placement, slot: "home-middle" as const };
    expect(adPlacementOf(SECRET, adToken(SECRET, other))).toEqual(other);
  });

  test("an edited token is refused: another campaign, creative or slot under the same signature, an edited or cut signature, another secret", () => {
    const token = adToken(SECRET, placement);
    const [campaign, creative, slot, signature] = token.split(".") as [string, string, string, string];
    const refused = [
      `${"1" + campaign.slice(1)}.${creative}.${slot}.${signature}`,
      `${campaign}.${creative.slice(0, -1)}0.${slot}.${signature}`,
      `${campaign}.${creative}.contact.${signature}`,
      `${campaign}.${creative}.${slot}.${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`,
      `${campaign}.${creative}.${slot}.${signature.slice(0, -1)}`,
      `${campaign}.${creative}.${slot}.${signature}.extra`,
      `${campaign}.${creative}.${slot}`,
      `${campaign}.${creative}.nowhere.${signature}`,
      `not-a-uuid.${creative}.${slot}.${signature}`,
      "",
      "x".repeat(300),
    ];
    for (const edited of refused) expect(adPlacementOf(SECRET, edited), edited).toBeNull();
    expect(adPlacementOf("another secret", token)).toBeNull();
  });
});
