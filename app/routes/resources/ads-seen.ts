import { isbot } from "isbot";
import { data } from "react-router";
import { adPlacementOf } from "~/domain/ads/ad-token.server";
import { AddressWindow } from "~/lib/address-window.server";
import { clientIpOf } from "~/lib/client-address.server";
import type { Route } from "./+types/ads-seen";

/** Beacons one address may send a minute, in this process (an office shares one address among many readers). */
export const AD_BEACONS_PER_MINUTE = 600;
const perAddress = new AddressWindow(AD_BEACONS_PER_MINUTE, 60_000);

const noContent = () => new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
/** An answer's id: the page's script nonce (base64) or the id /api/ads/fill gave (a UUID). */
const IMPRESSION_ID = /^[A-Za-z0-9+/=_-]{16,64}$/;

/**
 * POST /api/ads/seen (issue 43, decision 0061): a viewable impression, sent by the slot's script once
 * half the ad was in view for a second: `<token>\n<impression id>` as text/plain (sendBeacon). Counted
 * once per token and answer; 400 for a token we did not sign or a malformed body, 204 otherwise.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  const body = (await request.text()).slice(0, 1000);
  const [token = "", impression = "", ...rest] = body.trim().split("\n");
  const placement = context.ads && rest.length === 0 ? adPlacementOf(context.subscriberSecret, token) : null;
  if (!placement || !IMPRESSION_ID.test(impression)) return data({ error: "Not a viewable impression of ours." }, { status: 400, headers: { "Cache-Control": "no-store" } });
  if (isbot(request.headers.get("user-agent") ?? "")) return noContent();
  if (!perAddress.take(clientIpOf(request))) {
    return data({ error: "Too many reports from this address. Try again in a minute." }, { status: 429, headers: { "Retry-After": "60", "Cache-Control": "no-store" } });
  }
  context.ads!.recorder.recordView(context.ads!.book.today(), placement, impression);
  return noContent();
}

export function loader() {
  throw data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
