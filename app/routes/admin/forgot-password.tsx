import { data, Form, useActionData, useNavigation } from "react-router";
import { AccountCard } from "~/components/admin/account-forms";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { postToAuth, REQUEST_PASSWORD_RESET_PATH } from "~/domain/accounts/auth-handler.server";
import { errorMessageOf } from "~/domain/accounts/auth-answer";
import { PASSWORD_RESET_MINUTES } from "~/domain/accounts/auth.server";
import { formValues } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/forgot-password";

export function meta({ matches }: Route.MetaArgs) {
  return backOfficeMeta(matches, { title: "Forgot your password?", path: "/admin/forgot-password" });
}

/** The same words whether or not an account has this address: nobody learns who has one here. */
const SENT = `If an account uses that address, we have sent it a link to set a new password. The link works once, for ${PASSWORD_RESET_MINUTES} minutes.`;

export async function action({ request, context }: Route.ActionArgs) {
  const { email } = formValues(await request.formData(), ["email"]);
  const address = email.trim();
  if (!address) return data({ ok: false, message: "Enter the e-mail address of your account." }, { status: 400 });
  const response = await postToAuth(request, context, REQUEST_PASSWORD_RESET_PATH, { email: address, redirectTo: "/admin/reset-password" });
  // Too many requests, or an address that is not one, is said; anything else gets the same answer.
  if (response.status === 429 || response.status === 400) return data({ ok: false, message: await errorMessageOf(response) }, { status: response.status });
  if (!response.ok) context.log.warn({ status: response.status }, "password reset request failed");
  return { ok: true, message: SENT };
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <AccountCard
      title="Forgot your password?"
      intro="Enter your account's e-mail address and we will send you a link to set a new one."
      result={result}
      back={{ href: "/admin/login", label: "Back to sign in" }}
    >
      <Form method="post" className="mt-6 space-y-4">
        <div className="space-y-2">
          <Label htmlFor="forgot-email">Email</Label>
          <Input id="forgot-email" name="email" type="email" autoComplete="email" required />
        </div>
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? "Sending..." : "Send reset link"}
        </Button>
      </Form>
    </AccountCard>
  );
}
