import { data, Form, useActionData, useNavigation } from "react-router";
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
    <main className="flex flex-1 items-center justify-center bg-slate-50 px-4 py-12">
      <div className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-center text-2xl font-bold text-slate-900">Forgot your password?</h1>
        <p className="mt-2 text-center text-sm text-slate-600">Enter your account's e-mail address and we will send you a link to set a new one.</p>
        {result ? (
          <p role={result.ok ? "status" : "alert"} className={`mt-4 rounded-md p-3 text-sm ${result.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}>
            {result.message}
          </p>
        ) : null}
        <Form method="post" className="mt-6 space-y-4">
          <div className="space-y-2">
            <Label htmlFor="forgot-email">Email</Label>
            <Input id="forgot-email" name="email" type="email" autoComplete="email" required />
          </div>
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Sending..." : "Send reset link"}
          </Button>
        </Form>
        <p className="mt-4 text-center text-sm">
          <a href="/admin/login" className="text-brand-700 underline-offset-4 hover:underline">
            Back to sign in
          </a>
        </p>
      </div>
    </main>
  );
}
