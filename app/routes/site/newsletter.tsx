import { data } from "react-router";
import { NewsletterSignup } from "~/components/newsletter-signup";
import { FORM_STARTED_FIELD, HONEYPOT_FIELD } from "~/domain/comments/comments.schema";
import { NEWSLETTERS_FIELD, SIGNUP_ANSWER, SIGNUP_FIELDS, type SignupField, type SignupOutcome } from "~/domain/newsletters/subscribers.schema";
import { signUp, signupChoices } from "~/domain/newsletters/subscribers.server";
import { creditConversion } from "~/domain/audience/audience-conversions.server";
import { isAppError } from "~/lib/app-error";
import { clientIpOf } from "~/lib/client-address.server";
import { formValues, refusalOf } from "~/lib/forms";
import { pageMeta } from "~/page-meta";
import { rootDataFromMatches } from "~/root";
import type { Route } from "./+types/newsletter";

/**
 * /newsletter: every public newsletter with its description, and the sign-up form. Its POST is where
 * every sign-up form posts (the home page's, each article's, this page's): the answer is this page
 * with "Check your inbox to confirm your subscription." whatever the address, or the form again with
 * the field's error. The page itself is a cached reader page; the POST's answer is the sender's alone.
 */
export async function loader({ context }: Route.LoaderArgs) {
  return {
    newsletters: await signupChoices(context.db),
    // The form's signed "shown at" stamp (a cached page's is older, never younger).
    signupFormStarted: context.commentSpam.formTimer.issue(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const noStore = { "Cache-Control": "no-store" };
  const form = await request.formData();
  const values = formValues(form, [...SIGNUP_FIELDS, HONEYPOT_FIELD, FORM_STARTED_FIELD]);
  const newsletterIds = form.getAll(NEWSLETTERS_FIELD).filter((v): v is string => typeof v === "string");
  try {
    const outcome = await signUp(
      context.db,
      { email: values.email, newsletterIds, source: values.source, honeypot: values[HONEYPOT_FIELD], formStarted: values[FORM_STARTED_FIELD], clientIp: clientIpOf(request) },
      context.commentSpam,
    );
    // What happened stays in the log (never on the page): the answer is one for every address.
    context.log.debug({ outcome }, "newsletter sign-up");
    // A subscription waiting for its confirmation: credited to the story and source that brought it (issue 42).
    if (outcome === "confirmation sent") await creditConversion(context, "newsletter", request);
    return data<SignupOutcome>({ ok: true, message: SIGNUP_ANSWER }, { headers: noStore });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const refusal = refusalOf<SignupField>(error);
    return data<SignupOutcome>(
      { ok: false, error: refusal.error, fieldErrors: refusal.fieldErrors, values: { email: values.email, newsletters: newsletterIds.join(",") } },
      { status: error.status, headers: noStore },
    );
  }
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const siteName = rootDataFromMatches(matches)?.settings.siteName ?? "Frontpage";
  return pageMeta(matches, {
    title: "Newsletters",
    description: `Get ${siteName}'s stories by e-mail: our newsletters, and how to sign up.`,
    path: "/newsletter",
  });
};

export default function NewsletterPage({ loaderData, actionData }: Route.ComponentProps) {
  const { newsletters, signupFormStarted } = loaderData;
  return (
    <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-10">
      <h1 className="font-serif text-3xl font-bold text-slate-900 sm:text-4xl">Newsletters</h1>
      <p className="mt-3 text-slate-700">Our journalism, delivered to your inbox. Sign up below: we send you an e-mail to confirm your address first.</p>
      {newsletters.length > 0 ? (
        <ul className="mt-8 space-y-4" aria-label="Our newsletters">
          {newsletters.map((n) => (
            <li key={n.id} className="rounded-lg border border-slate-200 bg-white p-5">
              <h2 className="text-lg font-semibold text-slate-900">{n.name}</h2>
              {n.description ? <p className="mt-1 text-slate-700">{n.description}</p> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-8 text-slate-700">There is no newsletter to sign up for at the moment.</p>
      )}
      {newsletters.length > 0 ? <NewsletterSignup className="mt-10" newsletters={newsletters} source="/newsletter" formStarted={signupFormStarted} outcome={actionData} /> : null}
    </main>
  );
}
