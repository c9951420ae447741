import { and, eq } from "drizzle-orm";
import { isbot } from "isbot";
import { adCreatives } from "~/db/schema";
import { adPlacementOf } from "~/domain/ads/ad-token.server";
import { visitorToday } from "~/domain/audience/visitor-hash.server";
import { clientIpOf } from "~/lib/client-address.server";
import type { Route } from "./+types/ads-click";

const NO_STORE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

/**
 * GET /ads/click/{token} (issue 43, decision 0061): a reader's click on an ad. The token is signed
 * over the campaign, the creative and the slot, so only a placement we made is followed (any other
 * token, or one of a deleted creative, is a 404); it goes 302 to the creative's link as it is now.
 * Counted once per token, reader (the day's visitor hash: no cookie) and day, bots never.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const placement = context.ads ? adPlacementOf(context.subscriberSecret, params.token) : null;
  const [creative] = placement
    ? await context.db
        .select({ linkUrl: adCreatives.linkUrl })
        .from(adCreatives)
        .where(and(eq(adCreatives.id, placement.creativeId), eq(adCreatives.campaignId, placement.campaignId)))
    : [];
  if (!placement || !creative || !context.ads) {
    return new Response("This ad is no longer available.", { status: 404, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
  }
  const userAgent = request.headers.get("user-agent") ?? "";
  if (!isbot(userAgent)) {
    const seen = await visitorToday(context.ads.salts, context.env.publicUrl, clientIpOf(request), userAgent);
    if (seen) context.ads.recorder.recordClick(seen.day, placement, seen.visitor);
  }
  return new Response(null, { status: 302, headers: { ...NO_STORE, Location: creative.linkUrl } });
}
