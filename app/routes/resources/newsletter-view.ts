import { digestSendPage } from "~/domain/newsletters/newsletter-email.server";
import type { Route } from "./+types/newsletter-view";

const NO_STORE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

/**
 * GET /newsletter/view/{send id}: a digest's "View in your browser" (issue 30): the send's e-mail,
 * rebuilt from its stories, with no personal link (Unsubscribe and Manage preferences lead to
 * /newsletter) and nothing tracked. An unknown send, a story's, or a cancelled or skipped digest is a 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const html = await digestSendPage(context.db, params.id, context.env.publicUrl, context.env.TIME_ZONE);
  if (html === null) return new Response("Not found", { status: 404, headers: { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(html, { headers: { ...NO_STORE, "Content-Type": "text/html; charset=utf-8" } });
}
