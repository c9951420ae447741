import type { ReactNode } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { NewsletterChoices } from "~/components/newsletter-choices";
import { NEWSLETTERS_FIELD, PREFERENCES_CONFIRM_ANSWER, PREFERENCES_SAVED, UNSUBSCRIBED_ANSWER } from "~/domain/newsletters/subscribers.schema";
import { preferencesOf } from "~/domain/newsletters/subscribers.server";
import { ACCOUNT_PATH, BILLING_FAILED, BILLING_UNAVAILABLE, EMAIL_CHANGE_ANSWER, NAME_MAX_LENGTH, NAME_SAVED, SIGN_IN_PATH, signInPathFor } from "~/domain/members/member-account.schema";
import {
  cookieHeaders,
  plansOf,
  readerHintCookie,
  renameMember,
  requestEmailChange,
  saveMemberNewsletters,
  signedOutCookies,
  signOutEverywhere,
  type MemberPlan,
} from "~/domain/members/member-accounts.server";
import { signedInMember, type Member } from "~/domain/members/member-session.server";
import { READER_HINT_COOKIE, cookieValue } from "~/domain/members/reader-cookies";
import { isAppError } from "~/lib/app-error";
import { formatArticleDate as formatDate } from "~/lib/dates";
import { PREVIEW_HEADERS, previewMeta } from "~/page-meta";
import type { Route } from "./+types/account";

/**
 * /account: the signed-in member's own page (issue 40): their e-mail (changed through a link mailed to
 * the new address), name, newsletters (the preferences page's rules; its signed links keep working),
 * plan and renewal date, "Manage billing" (Stripe's Customer Portal, when billing is on and they have a
 * Stripe customer), sign out here or everywhere, and the way to "Delete my account". Without a member
 * session it is the sign-in page (and a stale hint cookie is cleared). Never cached, counted or indexed.
 */

type Context = Route.LoaderArgs["context"];

/** The signed-in member, or the sign-in page (clearing the header's hint, which said otherwise). */
async function requireMember(request: Request, context: Context): Promise<Member> {
  const member = await signedInMember(request, context);
  if (member) return member;
  const stale = cookieValue(request.headers.get("cookie"), READER_HINT_COOKIE) !== null;
  throw redirect(signInPathFor(ACCOUNT_PATH), { headers: cookieHeaders(stale ? [readerHintCookie(context.env.publicUrl, false)] : [], PREVIEW_HEADERS) });
}

const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);
const serializePlan = (plan: MemberPlan) =>
  plan.kind === "paid"
    ? { ...plan, renewsOn: isoOrNull(plan.renewsOn), endsOn: isoOrNull(plan.endsOn) }
    : plan.kind === "complimentary"
      ? { ...plan, until: isoOrNull(plan.until) }
      : plan;

/** The answer to saving the newsletters, by what it did (the preferences page's texts). */
const NEWSLETTER_ANSWERS = { saved: PREFERENCES_SAVED, unsubscribed: UNSUBSCRIBED_ANSWER, "confirmation sent": PREFERENCES_CONFIRM_ANSWER } as const;

const BILLING_NOTES: Record<string, string> = { failed: BILLING_FAILED, unavailable: BILLING_UNAVAILABLE };

export async function loader({ request, context }: Route.LoaderArgs) {
  const member = await requireMember(request, context);
  const [newsletters, plans] = await Promise.all([preferencesOf(context.db, member), plansOf(context.db, member)]);
  const billingNote = BILLING_NOTES[new URL(request.url).searchParams.get("billing") ?? ""] ?? null;
  return data(
    {
      email: member.email,
      name: member.name ?? "",
      status: member.status,
      newsletters,
      plans: plans.map(serializePlan),
      canManageBilling: Boolean(context.billing && member.stripeCustomerId),
      billingNote,
    },
    // Each visit renews the header's hint for the session's lifetime (the session is renewed by use too).
    { headers: cookieHeaders([readerHintCookie(context.env.publicUrl, true)], PREVIEW_HEADERS) },
  );
}

type Intent = "email" | "name" | "newsletters" | "sign-out" | "sign-out-everywhere";
type ActionAnswer = { intent: Intent; ok: true; message: string } | { intent: Intent; ok: false; error: string; value?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const member = await requireMember(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "") as Intent;
  const answer = (body: ActionAnswer, status = 200) => data(body, { status, headers: PREVIEW_HEADERS });
  try {
    switch (intent) {
      case "email":
        await requestEmailChange({ db: context.db, memberAuth: context.memberAuth }, member, String(form.get("email") ?? ""), request.headers);
        return answer({ intent, ok: true, message: EMAIL_CHANGE_ANSWER });
      case "name":
        await renameMember(context.db, member.id, String(form.get("name") ?? ""));
        return answer({ intent, ok: true, message: NAME_SAVED });
      case "newsletters": {
        const ids = form.getAll(NEWSLETTERS_FIELD).filter((v): v is string => typeof v === "string");
        const outcome = await saveMemberNewsletters(context.db, member, ids);
        return answer({ intent, ok: true, message: NEWSLETTER_ANSWERS[outcome] });
      }
      case "sign-out": {
        const response = await context.memberAuth.api.signOut({ headers: request.headers, asResponse: true });
        const cookies = [...response.headers.getSetCookie(), ...signedOutCookies(context.env.publicUrl)];
        throw redirect(`${SIGN_IN_PATH}?signed-out=1`, { status: 303, headers: cookieHeaders(cookies, PREVIEW_HEADERS) });
      }
      case "sign-out-everywhere": {
        const cleared = await signOutEverywhere({ db: context.db, memberAuth: context.memberAuth }, member.id, request.headers);
        const cookies = [...cleared, ...signedOutCookies(context.env.publicUrl)];
        throw redirect(`${SIGN_IN_PATH}?signed-out=everywhere`, { status: 303, headers: cookieHeaders(cookies, PREVIEW_HEADERS) });
      }
      default:
        return answer({ intent, ok: false, error: "This form is not one of your account's." }, 400);
    }
  } catch (error) {
    if (!isAppError(error)) throw error;
    return answer({ intent, ok: false, error: error.message, value: String(form.get(intent === "email" ? "email" : "name") ?? "") }, error.status);
  }
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

export const meta: Route.MetaFunction = ({ matches }) => previewMeta(matches, { title: "Your account", path: ACCOUNT_PATH });

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="border-t border-slate-200 pt-6">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3 space-y-3">{children}</div>
    </section>
  );
}

function Answer({ answer, intent }: { answer: ActionAnswer | undefined; intent: Intent }) {
  if (!answer || answer.intent !== intent) return null;
  return answer.ok ? (
    <p role="status" className="rounded-md bg-green-50 px-4 py-3 font-medium text-green-900">
      {answer.message}
    </p>
  ) : (
    <p role="alert" id={`${intent}-error`} className="rounded-md bg-red-50 px-4 py-3 text-red-800">
      {answer.error}
    </p>
  );
}

const primary = "h-11 rounded-md bg-brand-700 px-5 text-base font-medium text-white hover:bg-brand-800 disabled:opacity-60";
const secondary = "h-11 shrink-0 whitespace-nowrap rounded-md border border-slate-300 bg-white px-5 text-base font-medium text-slate-900 hover:bg-slate-50";
const field = "h-11 w-full rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900";

function formatMoney(amount: number, currency: string) {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);
}

function PlanLine({ plan }: { plan: ReturnType<typeof serializePlan> }) {
  if (plan.kind === "free") return <p className="text-slate-900">Free</p>;
  if (plan.kind === "complimentary")
    return (
      <p>
        <span className="font-medium text-slate-900">{plan.tierName}</span> · Complimentary{" "}
        {plan.until ? <>until {formatDate(plan.until)}</> : <>with no end date</>}
      </p>
    );
  return (
    <p>
      <span className="font-medium text-slate-900">{plan.tierName}</span> · {formatMoney(plan.amount, plan.currency)} a {plan.cadence === "year" ? "year" : "month"}
      {plan.renewsOn ? <> · renews on {formatDate(plan.renewsOn)}</> : null}
      {plan.endsOn ? <> · ends on {formatDate(plan.endsOn)}</> : null}
      {plan.status === "past_due" || plan.status === "unpaid" ? <span className="block text-sm text-amber-800">Your last payment failed: update your payment method in Manage billing.</span> : null}
    </p>
  );
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { email, name, newsletters, plans, canManageBilling, billingNote, status } = loaderData;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const suppressed = status === "bounced" || status === "complained";
  return (
    <main className="mx-auto w-full max-w-xl flex-1 px-4 py-12">
      <h1 className="font-serif text-3xl font-bold text-slate-900">Your account</h1>
      <div className="mt-8 space-y-8 text-slate-700">
        <Section title="E-mail" id="account-email">
          <p>
            You sign in with <strong className="break-all text-slate-900">{email}</strong>.
          </p>
          <Answer answer={actionData} intent="email" />
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="email" />
            <label htmlFor="new-email" className="block text-sm font-medium text-slate-800">
              New e-mail address
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input id="new-email" name="email" type="email" required maxLength={254} autoComplete="email" className={field} defaultValue={actionData?.intent === "email" && !actionData.ok ? actionData.value : undefined} />
              <button type="submit" className={secondary} disabled={busyIntent === "email"}>
                Change e-mail
              </button>
            </div>
            <p className="text-sm text-slate-600">We send a link to the new address; the change is made when you open it.</p>
          </Form>
        </Section>

        <Section title="Name" id="account-name">
          <Answer answer={actionData} intent="name" />
          <Form method="post" className="space-y-3">
            <input type="hidden" name="intent" value="name" />
            <label htmlFor="member-name" className="block text-sm font-medium text-slate-800">
              Your name
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input id="member-name" name="name" type="text" maxLength={NAME_MAX_LENGTH} autoComplete="name" className={field} defaultValue={name} key={name} />
              <button type="submit" className={secondary} disabled={busyIntent === "name"}>
                Save name
              </button>
            </div>
          </Form>
        </Section>

        <Section title="Newsletters" id="account-newsletters">
          <Answer answer={actionData} intent="newsletters" />
          {suppressed ? <p>Our e-mails to this address could not be delivered, so we no longer send any.</p> : null}
          {newsletters.length === 0 ? (
            <p>There is no newsletter to sign up for at the moment.</p>
          ) : (
            <Form method="post" className="space-y-4">
              <input type="hidden" name="intent" value="newsletters" />
              <NewsletterChoices newsletters={newsletters} legend="Newsletters you receive" legendClassName="sr-only" listClassName="space-y-3" />
              <button type="submit" className={secondary} disabled={busyIntent === "newsletters"}>
                Save newsletters
              </button>
            </Form>
          )}
        </Section>

        <Section title="Plan" id="account-plan">
          {billingNote ? (
            <p role="alert" className="rounded-md bg-red-50 px-4 py-3 text-red-800">
              {billingNote}
            </p>
          ) : null}
          {plans.map((plan, i) => (
            <PlanLine key={i} plan={plan} />
          ))}
          <div className="flex flex-wrap gap-3">
            {plans.some((p) => p.kind === "paid") ? null : (
              <Link to="/subscribe" className={`${primary} inline-flex items-center`}>
                See plans
              </Link>
            )}
            {canManageBilling ? (
              <Form method="post" action="/account/billing" reloadDocument>
                <button type="submit" className={secondary}>
                  Manage billing
                </button>
              </Form>
            ) : null}
          </div>
        </Section>

        <Section title="Sign out" id="account-sign-out">
          <Form method="post" className="flex flex-wrap gap-3">
            <button type="submit" name="intent" value="sign-out" className={secondary}>
              Sign out
            </button>
            <button type="submit" name="intent" value="sign-out-everywhere" className={secondary}>
              Sign out everywhere
            </button>
          </Form>
          <p className="text-sm text-slate-600">&ldquo;Sign out everywhere&rdquo; ends your sessions on every device, this one included.</p>
        </Section>

        <Section title="Delete my account" id="account-delete">
          <p>Your account, your newsletters and your reading history are erased. A paid subscription is canceled first.</p>
          <Link to="/account/delete" className="inline-flex h-11 items-center rounded-md border border-red-300 px-5 font-medium text-red-800 hover:bg-red-50">
            Delete my account
          </Link>
        </Section>
      </div>
    </main>
  );
}
