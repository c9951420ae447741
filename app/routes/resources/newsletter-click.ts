import { isTrackableUrl, recordEngagement, trackedRecipientOf } from "~/domain/newsletters/newsletter-tracking.server";
import type { Route } from "./+types/newsletter-click";

const NO_STORE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

/**
 * GET /newsletter/click/{token}?u={address}: a link of a newsletter that tracks opens and clicks
 * (issue 30). The token is signed over the recipient and this exact address, so the redirect goes
 * only where the e-mail pointed: any other address, or an edited token, is a 404. It records the
 * recipient's first click, then 302 to the address (no referrer: the token stays here).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url).searchParams.get("u") ?? "";
  const recipient = isTrackableUrl(url) ? trackedRecipientOf(context.sessionSecret, "click", params.token, url) : null;
  if (!recipient) return new Response("Not found", { status: 404, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
  await recordEngagement(context.db, "click", recipient);
  return new Response(null, { status: 302, headers: { ...NO_STORE, Location: url, "Referrer-Policy": "no-referrer" } });
}
