import { useEffect, useState } from "react";
import { data, Link, useLocation, useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { isPaidStatus } from "~/domain/members/access";
import { subscriptionOf } from "~/domain/members/stripe-events.server";
import { formatPublishDate } from "~/lib/dates";
import { pageMeta } from "~/page-meta";
import type { Route } from "./+types/subscribe-return";

/** How long the page keeps asking while the webhook has not arrived yet, and how often. */
const POLL_MS = 2_000;
const POLL_FOR_MS = 60_000;

type Outcome =
  | { state: "active"; tierName: string; trialEnds: string | null; renews: string | null }
  | { state: "confirming" }
  | { state: "unfinished" }
  | { state: "canceled" }
  | { state: "unknown" };

/**
 * /subscribe/return?session_id=… (issue 40): where Stripe Checkout sends the reader back. It says
 * what happened: subscribed (once the webhook wrote the subscription), being confirmed (Checkout can
 * return before its webhook arrives: the page asks again every 2 s, and says to refresh), not
 * finished, or canceled. Personal and never cached (path class "member billing").
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id") ?? "";
  const answer = (outcome: Outcome, status = 200) => data<Outcome>(outcome, { status, headers: { "Cache-Control": "no-store" } });
  if (!context.billing) return answer({ state: "unknown" }, 404);
  const outcome = await context.billing.checkoutOutcome(sessionId);
  if (!outcome) return answer({ state: "unknown" }, 404);
  if (outcome.status === "expired") return answer({ state: "canceled" });
  if (outcome.status === "open" || !outcome.subscriptionId) return answer({ state: "unfinished" });
  const row = await subscriptionOf(context.db, outcome.subscriptionId);
  if (!row || !isPaidStatus(row.status)) return answer({ state: "confirming" });
  const timeZone = context.env.TIME_ZONE;
  return answer({
    state: "active",
    tierName: row.tierName ?? "your plan",
    trialEnds: row.status === "trialing" && row.trialEnd ? formatPublishDate(row.trialEnd, timeZone) : null,
    renews: row.periodEnd ? formatPublishDate(row.periodEnd, timeZone) : null,
  });
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: "Your subscription", path: "/subscribe/return", robots: "noindex, nofollow" });

/** Asks the loader again every POLL_MS while the subscription is being confirmed (up to POLL_FOR_MS). */
function useConfirmingPoll(confirming: boolean) {
  const revalidator = useRevalidator();
  const [started] = useState(() => Date.now());
  useEffect(() => {
    if (!confirming || Date.now() - started > POLL_FOR_MS) return;
    const timer = setTimeout(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [confirming, revalidator, started]);
}

export default function SubscribeReturn({ loaderData }: Route.ComponentProps) {
  const outcome = loaderData;
  const location = useLocation();
  useConfirmingPoll(outcome.state === "confirming");
  return (
    <main className="mx-auto w-full max-w-2xl flex-1 px-4 py-12">
      {outcome.state === "active" ? (
        <section role="status">
          <h1 className="font-serif text-3xl font-bold text-slate-900">You're subscribed to {outcome.tierName}</h1>
          <p className="mt-4 text-slate-700">
            Thank you for supporting our journalism. Every story of your plan is open to you now.
            {outcome.trialEnds ? ` Your free trial runs until ${outcome.trialEnds}.` : outcome.renews ? ` Your plan renews on ${outcome.renews}.` : ""}
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Button asChild>
              <Link to="/">Start reading</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/account">Your account</Link>
            </Button>
          </div>
        </section>
      ) : outcome.state === "confirming" ? (
        <section role="status" aria-live="polite">
          <h1 className="font-serif text-3xl font-bold text-slate-900">Your payment went through</h1>
          <p className="mt-4 text-slate-700">We're confirming your subscription with Stripe; this takes a few seconds. This page updates by itself, or refresh it in a moment.</p>
          <p className="mt-6">
            <a href={`${location.pathname}${location.search}`} className="font-medium text-brand-700 underline underline-offset-4">
              Refresh
            </a>
          </p>
        </section>
      ) : outcome.state === "unfinished" ? (
        <section>
          <h1 className="font-serif text-3xl font-bold text-slate-900">Your payment isn't finished</h1>
          <p className="mt-4 text-slate-700">Checkout was left before paying, so you have not been charged.</p>
          <Button asChild className="mt-6">
            <Link to="/subscribe">Choose a plan</Link>
          </Button>
        </section>
      ) : outcome.state === "canceled" ? (
        <section>
          <h1 className="font-serif text-3xl font-bold text-slate-900">Checkout was canceled</h1>
          <p className="mt-4 text-slate-700">You have not been charged.</p>
          <Button asChild className="mt-6">
            <Link to="/subscribe">Choose a plan</Link>
          </Button>
        </section>
      ) : (
        <section>
          <h1 className="font-serif text-3xl font-bold text-slate-900">We can't find this checkout</h1>
          <p className="mt-4 text-slate-700">The link may be incomplete. If you paid, your subscription shows on your account page within a minute.</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Button asChild>
              <Link to="/account">Your account</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/subscribe">Plans</Link>
            </Button>
          </div>
        </section>
      )}
    </main>
  );
}
