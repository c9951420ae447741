import { recordEngagement, trackedRecipientOf } from "~/domain/newsletters/newsletter-tracking.server";
import type { Route } from "./+types/newsletter-open";

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const NO_STORE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

/**
 * GET /newsletter/open/{token}.gif: the open pixel of a newsletter that tracks opens and clicks
 * (issue 30). A signed token records the recipient's first open (once) and answers the pixel, never
 * kept by a cache (each open of the e-mail asks again); a forged or edited one is a 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const recipient = trackedRecipientOf(context.sessionSecret, "open", params.token.replace(/\.gif$/i, ""));
  if (!recipient) return new Response("Not found", { status: 404, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
  await recordEngagement(context.db, "open", recipient);
  return new Response(PIXEL, { headers: { ...NO_STORE, "Content-Type": "image/gif", "Content-Length": String(PIXEL.length) } });
}
