import { data } from "react-router";
import type { Route } from "./+types/stripe-webhook";

/**
 * Stripe's webhook events (issue 40, decision 0054): the raw body and its Stripe-Signature header are
 * checked with STRIPE_WEBHOOK_SECRET (a missing, forged or stale signature: 400, nothing written); a
 * good event is stored once by its id and queued for the job queue, and Stripe hears 200 at once.
 * Without Stripe keys the endpoint does not exist (404).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (!context.billing) throw data({ error: "Not Found" }, { status: 404 });
  if (request.method !== "POST") throw data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  // The signature is over the exact bytes Stripe sent: read them as they are, never as parsed JSON.
  const body = Buffer.from(await request.arrayBuffer());
  const answer = await context.billing.receiveWebhook(body, request.headers.get("stripe-signature"));
  if (answer.status !== 200) context.log.warn({ reason: answer.message }, "Stripe webhook refused");
  return data(answer.status === 200 ? { received: true, result: answer.message } : { error: answer.message }, { status: answer.status, headers: { "Cache-Control": "no-store" } });
}

export function loader({ context }: Route.LoaderArgs) {
  if (!context.billing) throw data({ error: "Not Found" }, { status: 404 });
  throw data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
