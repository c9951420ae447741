import { data, Form, useActionData, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { useAnswerToast } from "~/components/admin/use-answer-toast";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { formatPrice, fromMinorUnits, TIER_FIELDS, TIER_LIMITS, tierFormSchema, type TierFieldName } from "~/domain/members/tiers.schema";
import { createTier, listTiers, moveTier, setTierArchived, STRIPE_NOT_CONFIGURED, updateTier } from "~/domain/members/tiers.server";
import { AppError } from "~/lib/app-error";
import { formValues, parseForm, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/member-tiers";

type TierIntent = "create" | "update" | "archive" | "unarchive" | "up" | "down";
export type TiersActionData = { ok: true; intent: string; message: string } | (Refusal<TierFieldName> & { intent: string; id: string });

/** The screen (issue 40): admins only (tiers.manage). Without Stripe keys it says what to set and offers no editing. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "tiers.manage");
  const tiers = await listTiers(context.db);
  return {
    stripe: context.billing !== null,
    currency: (context.billing?.currency ?? context.env.CURRENCY).toUpperCase(),
    publicUrl: context.env.publicUrl,
    tiers: tiers.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      benefits: t.benefits,
      monthly: formatPrice(t.monthlyPrice, t.currency),
      yearly: formatPrice(t.yearlyPrice, t.currency),
      monthlyInput: fromMinorUnits(t.monthlyPrice, t.currency),
      yearlyInput: fromMinorUnits(t.yearlyPrice, t.currency),
      currency: t.currency.toUpperCase(),
      trialDays: t.trialDays,
      archived: t.archivedAt !== null,
      inStripe: Boolean(t.stripeProductId && t.stripeMonthlyPriceId && t.stripeYearlyPriceId),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "tiers.manage"));
  const form = await request.formData();
  const { intent, id, ...values } = formValues(form, ["intent", "id", ...TIER_FIELDS]);
  try {
    const billing = context.billing;
    if (!billing) throw new AppError("invalid_input", STRIPE_NOT_CONFIGURED, { status: 409 });
    let message: string;
    switch (intent as TierIntent) {
      case "create": {
        const tier = await createTier(context.db, actor, parseForm(tierFormSchema, values, { required: ["name", "monthlyPrice", "yearlyPrice"], missingMessage: "Please fill in the name and both prices." }), billing.catalog, billing.currency);
        message = `Tier created: ${tier.name}`;
        break;
      }
      case "update": {
        const tier = await updateTier(context.db, actor, id, parseForm(tierFormSchema, values, { required: ["name", "monthlyPrice", "yearlyPrice"], missingMessage: "Please fill in the name and both prices." }), billing.catalog);
        message = `Tier saved: ${tier.name}`;
        break;
      }
      case "archive":
      case "unarchive": {
        const tier = await setTierArchived(context.db, actor, id, intent === "archive", billing.catalog);
        message = intent === "archive" ? `Tier archived: ${tier.name}. Its members keep it; it is no longer offered.` : `Tier restored: ${tier.name}`;
        break;
      }
      case "up":
      case "down":
        await moveTier(context.db, actor, id, intent as "up" | "down");
        message = "Order saved";
        break;
      default:
        throw new AppError("invalid_input", "Unknown action.");
    }
    context.log.info({ intent, tier: id || undefined }, "tiers changed");
    return data<TiersActionData>({ ok: true, intent, message });
  } catch (error) {
    if (error instanceof AppError && error.code === "upstream_failed") context.log.warn({ err: error.cause ?? error }, "Stripe refused a tier change");
    const answer = refuse<TierFieldName>(error, values);
    return data<TiersActionData>({ ...answer.data, intent, id: intent === "create" ? "new" : id }, answer.init ?? undefined);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Tiers", path: "/admin/members/tiers" });

const labelClass = "mb-1 block text-sm font-medium text-slate-800";
const textareaClass = "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-700";

type FieldValues = Partial<Record<TierFieldName, string>>;

/** The tier form's fields (new and edit), each with its error beside it. */
function TierFields({ prefix, values, errors, currency }: { prefix: string; values: FieldValues; errors: Partial<Record<TierFieldName, string>>; currency: string }) {
  const describedBy = (name: TierFieldName, hint?: boolean) => [errors[name] ? `${prefix}-${name}-error` : null, hint ? `${prefix}-${name}-hint` : null].filter(Boolean).join(" ") || undefined;
  const error = (name: TierFieldName) =>
    errors[name] ? (
      <p id={`${prefix}-${name}-error`} className="mt-1 text-sm text-red-700">
        {errors[name]}
      </p>
    ) : null;
  const price = (name: "monthlyPrice" | "yearlyPrice", label: string) => (
    <div>
      <label htmlFor={`${prefix}-${name}`} className={labelClass}>
        {label} ({currency}) *
      </label>
      <Input id={`${prefix}-${name}`} name={name} inputMode="decimal" required defaultValue={values[name]} placeholder={name === "monthlyPrice" ? "5" : "50"} aria-invalid={errors[name] ? true : undefined} aria-describedby={describedBy(name)} />
      {error(name)}
    </div>
  );
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <label htmlFor={`${prefix}-name`} className={labelClass}>
          Name *
        </label>
        <Input id={`${prefix}-name`} name="name" required maxLength={TIER_LIMITS.name} defaultValue={values.name} aria-invalid={errors.name ? true : undefined} aria-describedby={describedBy("name")} />
        {error("name")}
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={`${prefix}-description`} className={labelClass}>
          Description
        </label>
        <textarea id={`${prefix}-description`} name="description" rows={2} maxLength={TIER_LIMITS.description} defaultValue={values.description} className={textareaClass} aria-invalid={errors.description ? true : undefined} aria-describedby={describedBy("description")} />
        {error("description")}
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={`${prefix}-benefits`} className={labelClass}>
          Benefits
        </label>
        <textarea id={`${prefix}-benefits`} name="benefits" rows={3} defaultValue={values.benefits} className={textareaClass} aria-invalid={errors.benefits ? true : undefined} aria-describedby={describedBy("benefits", true)} />
        <p id={`${prefix}-benefits-hint`} className="mt-1 text-sm text-slate-600">
          One per line, as /subscribe lists them.
        </p>
        {error("benefits")}
      </div>
      {price("monthlyPrice", "Monthly price")}
      {price("yearlyPrice", "Yearly price")}
      <div>
        <label htmlFor={`${prefix}-trialDays`} className={labelClass}>
          Free trial (days)
        </label>
        <Input id={`${prefix}-trialDays`} name="trialDays" inputMode="numeric" defaultValue={values.trialDays ?? "0"} aria-invalid={errors.trialDays ? true : undefined} aria-describedby={describedBy("trialDays")} />
        {error("trialDays")}
      </div>
    </div>
  );
}

/** What the screen says without Stripe keys: exactly what to set. */
function StripeSetup({ publicUrl }: { publicUrl: string }) {
  return (
    <section aria-labelledby="stripe-setup" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-5 text-slate-900">
      <h2 id="stripe-setup" className="text-lg font-semibold">
        Connect Stripe to offer paid tiers
      </h2>
      <p className="mt-2">Readers can sign up as free members now. To sell paid tiers, set these environment variables and restart the site:</p>
      <dl className="mt-3 space-y-2 text-sm">
        <div>
          <dt className="font-mono font-semibold">STRIPE_SECRET_KEY</dt>
          <dd>Your secret key from Stripe's Dashboard (Developers → API keys): sk_test_… to try it out, sk_live_… to take payments.</dd>
        </div>
        <div>
          <dt className="font-mono font-semibold">STRIPE_WEBHOOK_SECRET</dt>
          <dd>
            The signing secret (whsec_…) of a webhook endpoint at <span className="font-mono break-all">{publicUrl}/api/stripe/webhook</span>, with the events checkout.session.completed,
            customer.subscription.created, customer.subscription.updated, customer.subscription.deleted, invoice.paid and invoice.payment_failed.
          </dd>
        </div>
        <div>
          <dt className="font-mono font-semibold">CURRENCY</dt>
          <dd>The currency of your prices, as an ISO code (default USD).</dd>
        </div>
      </dl>
      <p className="mt-3 text-sm">Testing on your own machine, Stripe's CLI forwards the events and prints the signing secret to use:</p>
      <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-sm text-white">
        <code>stripe listen --forward-to localhost:3000/api/stripe/webhook</code>
      </pre>
    </section>
  );
}

export default function AdminTiers({ loaderData }: Route.ComponentProps) {
  const { tiers, stripe, currency, publicUrl } = loaderData;
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  useAnswerToast(answer);

  const refused = answer && !answer.ok ? answer : null;
  const offered = tiers.filter((t) => !t.archived);

  return (
    <main className="mx-auto w-full min-w-0 max-w-4xl flex-1 px-4 py-8">
      <AdminPageHeader title="Tiers" description={<>Paid plans readers subscribe to at /subscribe, in {currency}. Free is every member without one.</>} />
      {stripe ? null : <StripeSetup publicUrl={publicUrl} />}

      <ol className="space-y-4" aria-label="Tiers">
        <li className="rounded-lg border border-slate-200 bg-white p-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-lg font-semibold text-slate-900">Free</h2>
            <span className="text-sm text-slate-600">Always offered</span>
          </div>
          <p className="mt-1 text-sm text-slate-700">Every member who signs in without a paid tier: stories for members and the newsletters.</p>
        </li>
        {tiers.map((tier) => {
          const editing = refused && refused.id === tier.id && refused.intent === "update" ? refused : null;
          const position = offered.findIndex((t) => t.id === tier.id);
          return (
            <li key={tier.id} className={tier.archived ? "rounded-lg border border-slate-200 bg-slate-50 p-4" : "rounded-lg border border-slate-200 bg-white p-4"} aria-labelledby={`tier-${tier.id}-name`}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <h2 id={`tier-${tier.id}-name`} className="text-lg font-semibold text-slate-900">
                    {tier.name}
                    {tier.archived ? <span className="ml-2 align-middle text-xs font-semibold text-slate-600 uppercase">Archived</span> : null}
                  </h2>
                  <p className="text-sm text-slate-700" data-testid="tier-prices">
                    {tier.monthly} a month · {tier.yearly} a year{tier.trialDays > 0 ? ` · ${tier.trialDays}-day trial` : ""}
                  </p>
                  {tier.description ? <p className="mt-1 text-sm text-slate-700">{tier.description}</p> : null}
                  {tier.benefits.length > 0 ? (
                    <ul className="mt-2 list-disc pl-5 text-sm text-slate-700">
                      {tier.benefits.map((b) => (
                        <li key={b}>{b}</li>
                      ))}
                    </ul>
                  ) : null}
                  {!tier.inStripe ? <p className="mt-1 text-sm text-amber-800">Not in Stripe yet: save it with Stripe connected to offer it.</p> : null}
                </div>
                {stripe ? (
                  <div className="flex flex-wrap items-center gap-1">
                    {!tier.archived ? (
                      <>
                        <Form method="post">
                          <input type="hidden" name="id" value={tier.id} />
                          <Button type="submit" name="intent" value="up" variant="ghost" size="sm" disabled={busy || position <= 0}>
                            Move up<span className="sr-only"> {tier.name}</span>
                          </Button>
                        </Form>
                        <Form method="post">
                          <input type="hidden" name="id" value={tier.id} />
                          <Button type="submit" name="intent" value="down" variant="ghost" size="sm" disabled={busy || position >= offered.length - 1}>
                            Move down<span className="sr-only"> {tier.name}</span>
                          </Button>
                        </Form>
                      </>
                    ) : null}
                    <Form method="post">
                      <input type="hidden" name="id" value={tier.id} />
                      <Button type="submit" name="intent" value={tier.archived ? "unarchive" : "archive"} variant={tier.archived ? "outline" : "ghost-destructive"} size="sm" disabled={busy}>
                        {tier.archived ? "Restore" : "Archive"}
                        <span className="sr-only"> {tier.name}</span>
                      </Button>
                    </Form>
                  </div>
                ) : null}
              </div>
              {stripe ? (
                <details className="mt-3" open={editing ? true : undefined}>
                  <summary className="cursor-pointer text-sm font-medium text-brand-700">
                    Edit<span className="sr-only"> {tier.name}</span>
                  </summary>
                  <Form method="post" className="mt-3 space-y-4" key={answer?.ok ? answer.message : "edit"}>
                    <input type="hidden" name="id" value={tier.id} />
                    <TierFields
                      prefix={`tier-${tier.id}`}
                      currency={tier.currency}
                      values={editing?.values ?? { name: tier.name, description: tier.description, benefits: tier.benefits.join("\n"), monthlyPrice: tier.monthlyInput, yearlyPrice: tier.yearlyInput, trialDays: String(tier.trialDays) }}
                      errors={editing?.fieldErrors ?? {}}
                    />
                    <p className="text-sm text-slate-600">A new price applies to new subscribers; current subscribers keep theirs.</p>
                    <Button type="submit" name="intent" value="update" disabled={busy}>
                      Save tier
                    </Button>
                  </Form>
                </details>
              ) : null}
            </li>
          );
        })}
      </ol>

      {stripe ? (
        <section aria-labelledby="new-tier" className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="new-tier" className="text-lg font-semibold text-slate-900">
            New tier
          </h2>
          <Form method="post" className="mt-4 space-y-4" key={answer?.ok && answer.intent === "create" ? answer.message : "new"}>
            <TierFields prefix="new" currency={currency} values={refused?.id === "new" ? (refused.values ?? {}) : {}} errors={refused?.id === "new" ? refused.fieldErrors : {}} />
            <Button type="submit" name="intent" value="create" disabled={busy}>
              Create tier
            </Button>
          </Form>
        </section>
      ) : null}
    </main>
  );
}
