import { randomUUID } from "node:crypto";
import { isbot } from "isbot";
import { data } from "react-router";
import { isAdSlotName, slotMarkerName } from "~/domain/ads/ad-slots";
import { AddressWindow } from "~/lib/address-window.server";
import { clientIpOf } from "~/lib/client-address.server";
import type { Route } from "./+types/ads-fill";

const NO_STORE = { "Cache-Control": "no-store" };
/** Fills one address may ask a minute, in this process (a page has three slots at most; an office shares one address). */
export const AD_FILLS_PER_MINUTE = 600;
const perAddress = new AddressWindow(AD_FILLS_PER_MINUTE, 60_000);

/**
 * GET /api/ads/fill?slot=NAME[&c=CATEGORY SLUG] (issue 43, decision 0061): what fills one ad slot now, for a
 * slot the door did not fill (a page rendered for a signed-in reader, a client-side navigation):
 * `{ html, impression }` (the impression's id, for its viewability beacon), or 204 when nothing does.
 * Chosen from the same book as the door's, and counted as an impression the same way (not for bots
 * or prefetches). 400 for a slot that is not one of ours.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const slot = query.get("slot");
  const category = query.get("c") || null;
  if (!isAdSlotName(slot)) return data({ error: "Unknown ad slot." }, { status: 400, headers: NO_STORE });
  if (category !== null && slotMarkerName(slot, category) === slot) return data({ error: "Not a category." }, { status: 400, headers: NO_STORE });
  if (!perAddress.take(clientIpOf(request))) {
    return data({ error: "Too many ad requests from this address. Try again in a minute." }, { status: 429, headers: { ...NO_STORE, "Retry-After": "60" } });
  }
  const purpose = `${request.headers.get("sec-purpose") ?? ""} ${request.headers.get("purpose") ?? ""}`;
  const counted = !isbot(request.headers.get("user-agent") ?? "") && !/prefetch|prerender/i.test(purpose);
  const chosen = context.ads?.book.fillOne(slotMarkerName(slot, category), counted);
  if (!chosen) return new Response(null, { status: 204, headers: NO_STORE });
  if (counted) context.ads!.recorder.recordImpression(chosen.key);
  return data({ html: chosen.html, impression: randomUUID() }, { headers: NO_STORE });
}
