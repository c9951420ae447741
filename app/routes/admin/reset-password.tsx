import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import { AccountCard, NewPasswordFields } from "~/components/admin/account-forms";
import { Button } from "~/components/ui/button";
import { errorMessageOf } from "~/domain/accounts/auth-answer";
import { handleAuthRequest, RESET_PASSWORD_PATH } from "~/domain/accounts/auth-handler.server";
import { CLIENT_IP_HEADER } from "~/lib/client-address.server";
import { formValues } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/reset-password";

export function meta({ matches }: Route.MetaArgs) {
  return backOfficeMeta(matches, { title: "Set a new password", path: "/admin/reset-password" });
}

/** Better Auth sends the e-mailed link here with ?token=… (or ?error=INVALID_TOKEN for an old or used one). */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const valid = /^[A-Za-z0-9_-]{10,200}$/.test(token) && !url.searchParams.get("error");
  return { token: valid ? token : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { token, newPassword, confirmPassword } = formValues(await request.formData(), ["token", "newPassword", "confirmPassword"]);
  if (!newPassword || !confirmPassword) return data({ ok: false, message: "Enter the new password twice." }, { status: 400 });
  if (newPassword !== confirmPassword) return data({ ok: false, message: "The two new passwords are not the same." }, { status: 400 });
  const headers = new Headers({ "content-type": "application/json" });
  for (const name of ["origin", "user-agent", CLIENT_IP_HEADER]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  const response = await handleAuthRequest(
    new Request(new URL(RESET_PASSWORD_PATH, request.url), { method: "POST", headers, body: JSON.stringify({ token, newPassword }) }),
    context,
  );
  if (!response.ok) return data({ ok: false, message: await errorMessageOf(response) }, { status: response.status });
  return { ok: true, message: "Your password has been changed, and every session of your account has been signed out. Sign in with the new password." };
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const askAgain = Boolean(token && !result?.ok);
  return (
    <AccountCard
      title="Set a new password"
      result={result}
      back={askAgain ? { href: "/admin/forgot-password", label: "Ask for a new link" } : { href: "/admin/login", label: "Sign in" }}
    >
      {!token ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-900">
          This password reset link is not valid any more: it was used already, or it is too old. Ask for a new one.
        </p>
      ) : result?.ok ? null : (
        <Form method="post" className="mt-6 space-y-4">
          <input type="hidden" name="token" value={token} />
          <NewPasswordFields idPrefix="reset" />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Saving..." : "Set new password"}
          </Button>
        </Form>
      )}
    </AccountCard>
  );
}
