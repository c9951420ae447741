import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";
import { isUuid } from "~/lib/ids";
import { isAdSlotName, type AdSlotName } from "./ad-slots";

// An ad's token (issue 43, decision 0061): `<campaign id>.<creative id>.<slot>.<signature>`, the
// signature an HMAC-SHA256 (cut to 128 bits) with a key derived from the site's session secret for
// this purpose only. It names one creative in one slot, the same in every answer showing it (so the
// door's fragments are made once), and goes in the click address (`/ads/click/{token}`) and in the
// viewability beacon. Nothing is stored per token: any process with the secret checks one. A click
// counts once per token, reader and day; a viewable impression once per token and answer.

export interface AdPlacement {
  campaignId: string;
  creativeId: string;
  slot: AdSlotName;
}

const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(createHmac("sha256", secret).update("frontpage ad token v1").digest());
    if (keys.size > 8) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

function signatureOf(secret: string, placement: AdPlacement): string {
  return createHmac("sha256", keyOf(secret)).update(`${placement.campaignId}\n${placement.creativeId}\n${placement.slot}`).digest().subarray(0, 16).toString("base64url");
}

export function adToken(secret: string, placement: AdPlacement): string {
  return `${placement.campaignId}.${placement.creativeId}.${placement.slot}.${signatureOf(secret, placement)}`;
}

/** The placement a token was made for (constant-time check), or null for anything else. */
export function adPlacementOf(secret: string, token: string): AdPlacement | null {
  if (token.length > 200) return null;
  const [campaignId, creativeId, slot, signature, ...rest] = token.split(".");
  if (!campaignId || !creativeId || !slot || !signature || rest.length > 0 || !isUuid(campaignId) || !isUuid(creativeId) || !isAdSlotName(slot)) return null;
  const placement = { campaignId, creativeId, slot };
  // Compared as written (not decoded): an edited last character must not pass for the original.
  const given = Buffer.from(signature);
  const expected = Buffer.from(signatureOf(secret, placement));
  return given.length === expected.length && timingSafeEqual(given, expected) ? placement : null;
}
