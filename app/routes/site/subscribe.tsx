import { attributionForCheckout, attributionMetadata } from "~/domain/audience/audience-conversions.server";
import { data, Link, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { signedInMember } from "~/domain/members/member-session.server";
import { formatPrice, isCadence, type Cadence } from "~/domain/members/tiers.schema";
import { getTier, offeredTiers } from "~/domain/members/tiers.server";
import { isAppError } from "~/lib/app-error";
import { noteShown, TIERS_TAG } from "~/lib/cache-tags.server";
import { formValues } from "~/lib/forms";
import { cn } from "~/lib/cn";
import { pageMeta } from "~/page-meta";
import { rootDataFromMatches } from "~/root";
import type { Route } from "./+types/subscribe";

/**
 * /subscribe (issue 40): the paid tiers with a monthly/yearly switch (links, so it works without
 * JavaScript) and Free. A cached reader page: nothing in it depends on who asks, only on its address
 * (`?cadence=year`, `?tier=…` after sign-in: "Continue", `?canceled=1` from Checkout). Choosing a tier
 * posts here: a reader who is not signed in goes to sign in and comes back to continue; a member goes to
 * Stripe Checkout. Without Stripe keys only Free is offered.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  noteShown(context, TIERS_TAG);
  const url = new URL(request.url);
  const cadence: Cadence = url.searchParams.get("cadence") === "year" ? "year" : "month";
  const tiers = context.billing ? await offeredTiers(context.db, context.billing.currency) : [];
  const chosen = tiers.find((t) => t.id === url.searchParams.get("tier")) ?? null;
  return {
    cadence,
    free: formatPrice(0, context.billing?.currency ?? context.env.CURRENCY),
    canceled: url.searchParams.get("canceled") === "1",
    chosen: chosen ? { id: chosen.id, name: chosen.name, cadence, price: formatPrice(cadence === "year" ? chosen.yearlyPrice : chosen.monthlyPrice, chosen.currency) } : null,
    tiers: tiers.map((tier) => ({
      id: tier.id,
      name: tier.name,
      description: tier.description,
      benefits: tier.benefits,
      month: formatPrice(tier.monthlyPrice, tier.currency),
      year: formatPrice(tier.yearlyPrice, tier.currency),
      // What a year costs against twelve months, when it is less.
      yearSaving: tier.yearlyPrice < tier.monthlyPrice * 12 ? Math.round((1 - tier.yearlyPrice / (tier.monthlyPrice * 12)) * 100) : 0,
      trialDays: tier.trialDays,
    })),
  };
}

type SubscribeRefusal = { ok: false; error: string };
const noStore = { "Cache-Control": "no-store" };

export async function action({ request, context }: Route.ActionArgs) {
  const { tier: tierId, cadence } = formValues(await request.formData(), ["tier", "cadence"]);
  const refuse = (error: string, status: number) => data<SubscribeRefusal>({ ok: false, error }, { status, headers: noStore });
  if (!context.billing) return refuse("Paid plans are not available on this site.", 404);
  if (!isCadence(cadence)) return refuse("Choose monthly or yearly.", 400);
  const tier = await getTier(context.db, tierId);
  if (!tier || tier.archivedAt || !tier.stripeMonthlyPriceId || !tier.stripeYearlyPriceId) return refuse("This plan is not offered any more. Choose another.", 400);
  const member = await signedInMember(request, context);
  if (!member) {
    const next = `/subscribe?tier=${encodeURIComponent(tier.id)}&cadence=${cadence}`;
    return redirect(`/account/sign-in?next=${encodeURIComponent(next)}`, { status: 303, headers: noStore });
  }
  try {
    // The story and source that brought the reader (issue 42), carried by the Checkout to its webhook.
    const attribution = await attributionForCheckout(context, request);
    return redirect(await context.billing.checkoutUrl(member, tier.id, cadence, attribution ? attributionMetadata(attribution) : undefined), { status: 303, headers: noStore });
  } catch (error) {
    if (!isAppError(error)) throw error;
    context.log.warn({ err: error, member: member.id }, "Checkout not started");
    return refuse(error.message, error.status);
  }
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const siteName = rootDataFromMatches(matches)?.settings.siteName ?? "Frontpage";
  return pageMeta(matches, { title: "Subscribe", description: `Support ${siteName}'s journalism: our plans, monthly or yearly.`, path: "/subscribe" });
};

/** A tier's "Subscribe": a plain form post (the answer is a redirect to another site: Checkout). */
function ChooseForm({ tierId, cadence, label, className }: { tierId: string; cadence: Cadence; label: string; className?: string }) {
  return (
    <form method="post" action="/subscribe" className={className}>
      <input type="hidden" name="tier" value={tierId} />
      <input type="hidden" name="cadence" value={cadence} />
      <Button type="submit" className="w-full">
        {label}
      </Button>
    </form>
  );
}

export default function SubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  const { tiers, cadence, canceled, chosen, free } = loaderData;
  const per = cadence === "year" ? "year" : "month";
  return (
    <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-10">
      <h1 className="font-serif text-3xl font-bold text-slate-900 sm:text-4xl">Subscribe</h1>
      <p className="mt-3 max-w-2xl text-slate-700">Independent journalism depends on its readers. Choose a plan to read every story and support our newsroom.</p>

      {canceled ? (
        <p role="status" className="mt-6 rounded-md border border-slate-300 bg-slate-50 p-4 text-slate-800">
          Checkout was canceled: you have not been charged. You can choose a plan again below.
        </p>
      ) : null}
      {actionData && !actionData.ok ? (
        <p role="alert" className="mt-6 rounded-md border border-red-300 bg-red-50 p-4 text-red-800">
          {actionData.error}
        </p>
      ) : null}
      {chosen ? (
        <section aria-labelledby="continue-heading" className="mt-6 flex flex-col gap-3 rounded-lg border border-brand-700 bg-brand-50 p-5 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 id="continue-heading" className="text-lg font-semibold text-slate-900">
              Continue with {chosen.name}
            </h2>
            <p className="text-slate-700">
              {chosen.price} per {chosen.cadence}. You'll pay securely with Stripe.
            </p>
          </div>
          <ChooseForm tierId={chosen.id} cadence={chosen.cadence} label="Continue to payment" className="sm:w-56" />
        </section>
      ) : null}

      {tiers.length > 0 ? (
        <nav aria-label="Billing period" className="mt-8 inline-flex rounded-md border border-slate-300 bg-white p-1">
          {(["month", "year"] as const).map((c) => (
            <Link
              key={c}
              to={c === "year" ? "?cadence=year" : "?cadence=month"}
              preventScrollReset
              aria-current={cadence === c ? "page" : undefined}
              className={cn("rounded px-4 py-2 text-sm font-medium", cadence === c ? "bg-brand-700 text-white" : "text-slate-800 hover:bg-slate-100")}
            >
              {c === "month" ? "Monthly" : "Yearly"}
            </Link>
          ))}
        </nav>
      ) : null}

      <ul className="mt-6 grid gap-5 md:grid-cols-2 lg:grid-cols-3" aria-label="Plans">
        <li className="flex flex-col rounded-lg border border-slate-200 bg-white p-6">
          <h2 className="text-xl font-semibold text-slate-900">Free</h2>
          <p className="mt-2 text-slate-900">
            <span className="text-3xl font-bold">{free}</span> <span className="text-slate-600">/ {per}</span>
          </p>
          <p className="mt-3 text-slate-700">Create an account with your e-mail address: no password, no card.</p>
          <ul className="mt-4 flex-1 list-disc space-y-1 pl-5 text-slate-700">
            <li>Stories for members</li>
            <li>Our newsletters</li>
          </ul>
          <Button asChild variant="outline" className="mt-6 w-full">
            <Link to="/account/sign-in">Sign up free</Link>
          </Button>
        </li>
        {tiers.map((tier) => (
          <li key={tier.id} className="flex flex-col rounded-lg border border-slate-200 bg-white p-6" aria-labelledby={`tier-${tier.id}`}>
            <h2 id={`tier-${tier.id}`} className="text-xl font-semibold text-slate-900">
              {tier.name}
            </h2>
            <p className="mt-2 text-slate-900">
              <span className="text-3xl font-bold">{cadence === "year" ? tier.year : tier.month}</span> <span className="text-slate-600">/ {per}</span>
            </p>
            {cadence === "year" && tier.yearSaving > 0 ? <p className="text-sm font-medium text-emerald-800">Save {tier.yearSaving}% against monthly</p> : null}
            {cadence === "month" ? <p className="text-sm text-slate-600">or {tier.year} a year</p> : null}
            {tier.trialDays > 0 ? <p className="mt-2 text-sm font-medium text-brand-800">{tier.trialDays}-day free trial</p> : null}
            {tier.description ? <p className="mt-3 text-slate-700">{tier.description}</p> : null}
            <ul className="mt-4 flex-1 list-disc space-y-1 pl-5 text-slate-700">
              {tier.benefits.map((benefit) => (
                <li key={benefit}>{benefit}</li>
              ))}
            </ul>
            <ChooseForm tierId={tier.id} cadence={cadence} label={tier.trialDays > 0 ? "Start free trial" : `Subscribe to ${tier.name}`} className="mt-6" />
          </li>
        ))}
      </ul>
    </main>
  );
}
