import { Form, useNavigation } from "react-router";
import { SubscriberButton } from "./subscriber-page";

/** The e-mail form that sends a sign-in link (here, and on a refused link's page). */
export function SignInForm({ next, error, email }: { next: string; error?: string | null; email?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === "/account/sign-in";
  return (
    <Form method="post" action="/account/sign-in" className="space-y-4" aria-busy={busy}>
      <input type="hidden" name="next" value={next} />
      <div className="space-y-1.5">
        <label htmlFor="sign-in-email" className="text-sm font-medium text-slate-800">
          Email address
        </label>
        <input
          id="sign-in-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          defaultValue={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "sign-in-email-error" : undefined}
          className="h-11 w-full rounded-md border border-slate-300 bg-white px-3 text-base text-slate-900 placeholder:text-slate-500"
        />
        {error ? (
          <p id="sign-in-email-error" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
      <SubscriberButton>{busy ? "Sending…" : "Send me a sign-in link"}</SubscriberButton>
    </Form>
  );
}
