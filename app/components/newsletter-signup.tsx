import { useId, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { FORM_STARTED_FIELD, HONEYPOT_FIELD } from "~/domain/comments/comments.schema";
import {
  NEWSLETTERS_FIELD,
  SIGNUP_ACTION,
  SIGNUP_ANSWER,
  SIGNUP_HEADING,
  type NewsletterChoice,
  type SignupOutcome,
} from "~/domain/newsletters/subscribers.schema";
import { cn } from "~/lib/cn";

/**
 * The newsletter sign-up (issue 30): "Get our newsletter", an "Email address" field, the newsletters
 * to choose when there is more than one (one is implied), "Subscribe". A plain form posting to
 * /newsletter, so it works without JavaScript (the answer is then /newsletter's page); with it, the
 * same form is sent by a fetcher and the answer shows in place. The page around it may be cached: the
 * form carries nothing of one visitor, only the page's signed "shown at" stamp (as the comment form).
 */
export function NewsletterSignup({
  newsletters,
  source,
  formStarted,
  outcome,
  tone = "light",
  description = "The stories that matter, in your inbox. No spam: unsubscribe in one click.",
  className,
  children,
}: {
  /** The public newsletters, in order. */
  newsletters: NewsletterChoice[];
  /** The page the form is on ("/", "/newsletter", "/article/{slug}"): the consent record. */
  source: string;
  /** The page's signed "shown at" stamp (app/lib/form-timer.server.ts). */
  formStarted: string;
  /** The answer of a sign-up posted without JavaScript (on /newsletter). */
  outcome?: SignupOutcome;
  /** "dark": the home page's closing band. */
  tone?: "light" | "dark";
  description?: string;
  className?: string;
  /** Shown below the form, inside the block (the home page's links into the site). */
  children?: ReactNode;
}) {
  const id = useId();
  const fetcher = useFetcher<SignupOutcome>();
  const answer = fetcher.data ?? outcome;
  const refused = answer && !answer.ok ? answer : undefined;
  const kept = refused?.values;
  const busy = fetcher.state !== "idle";
  const dark = tone === "dark";
  const emailError = refused?.fieldErrors.email;
  const choiceError = refused?.fieldErrors.newsletters;
  const formError = refused && !emailError && !choiceError ? refused.error : undefined;
  const keptChoices = kept?.newsletters?.split(",");
  // No public newsletter (every one is private or archived): nothing to sign up for.
  if (newsletters.length === 0) return children ? <div className={className}>{children}</div> : null;

  return (
    <section aria-labelledby={`${id}-heading`} className={cn("rounded-2xl px-6 py-10", dark ? "bg-slate-900 text-white" : "border border-slate-200 bg-slate-50", className)}>
      <div className="mx-auto max-w-xl text-center">
        <h2 id={`${id}-heading`} className={cn("font-serif font-bold", dark ? "text-3xl" : "text-2xl")}>
          {SIGNUP_HEADING}
        </h2>
        <p className={cn("mt-2", dark ? "text-slate-300" : "text-slate-600")}>{description}</p>
      </div>
      {answer?.ok ? (
        <p role="status" className={cn("mx-auto mt-6 max-w-xl rounded-md px-4 py-3 text-center font-medium", dark ? "bg-white/10 text-white" : "bg-green-50 text-green-900")}>
          {SIGNUP_ANSWER}
        </p>
      ) : (
        <fetcher.Form method="post" action={SIGNUP_ACTION} className="mx-auto mt-6 max-w-xl space-y-4 text-left" aria-busy={busy}>
          <input type="hidden" name="source" value={source} />
          <input type="hidden" name={FORM_STARTED_FIELD} value={formStarted} />
          {/* The honeypot: off screen, out of the tab order and hidden from assistive technology (the comment form's). */}
          <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
            <label htmlFor={`${id}-website`}>Leave this field empty</label>
            <input id={`${id}-website`} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>
          {newsletters.length > 1 ? (
            <fieldset>
              <legend className={cn("text-sm font-medium", dark ? "text-white" : "text-slate-800")}>Newsletters</legend>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                {newsletters.map((n, i) => (
                  <label key={n.id} className={cn("flex items-start gap-2 text-sm", dark ? "text-slate-100" : "text-slate-800")}>
                    <input
                      type="checkbox"
                      name={NEWSLETTERS_FIELD}
                      value={n.id}
                      defaultChecked={keptChoices ? keptChoices.includes(n.id) : i === 0}
                      aria-describedby={choiceError ? `${id}-choice-error` : undefined}
                      className="mt-0.5 size-4 accent-brand-700"
                    />
                    <span>{n.name}</span>
                  </label>
                ))}
              </div>
              {choiceError ? (
                <p id={`${id}-choice-error`} className={cn("mt-1 text-sm", dark ? "text-amber-300" : "text-red-700")}>
                  {choiceError}
                </p>
              ) : null}
            </fieldset>
          ) : null}
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="flex-1 space-y-1.5">
              <label htmlFor={`${id}-email`} className={cn("text-sm font-medium", dark ? "text-white" : "text-slate-800")}>
                Email address
              </label>
              <input
                id={`${id}-email`}
                name="email"
                type="email"
                autoComplete="email"
                required
                maxLength={254}
                defaultValue={kept?.email}
                aria-invalid={emailError ? true : undefined}
                aria-describedby={emailError ? `${id}-email-error` : undefined}
                className="h-11 w-full rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900 placeholder:text-slate-500"
              />
            </div>
            <button
              type="submit"
              disabled={busy}
              className={cn(
                "h-11 rounded-md px-6 text-base font-medium disabled:opacity-60",
                dark ? "bg-amber-400 text-slate-900 hover:bg-amber-300" : "bg-brand-700 text-white hover:bg-brand-800",
              )}
            >
              Subscribe
            </button>
          </div>
          {emailError ? (
            <p id={`${id}-email-error`} className={cn("text-sm", dark ? "text-amber-300" : "text-red-700")}>
              {emailError}
            </p>
          ) : null}
          {formError ? (
            <p role="alert" className={cn("text-sm", dark ? "text-amber-300" : "text-red-700")}>
              {formError}
            </p>
          ) : null}
        </fetcher.Form>
      )}
      {children}
    </section>
  );
}
