import { data, Form, Link } from "react-router";
import { SubscriberButton, SubscriberPage } from "~/components/subscriber-page";
import { ACCOUNT_PATH, EMAIL_CHANGED, EMAIL_CHANGE_LINK_REFUSED, EMAIL_CHANGE_TAKEN } from "~/domain/members/member-account.schema";
import { confirmEmailChange, cookieHeaders } from "~/domain/members/member-accounts.server";
import { PREVIEW_HEADERS, previewMeta } from "~/page-meta";
import type { Route } from "./+types/account-email";

/**
 * /account/email?token=… (the link mailed to a member's NEW address): its GET only shows the address
 * and a "Use this address" button, and changes nothing (mail scanners follow links); the button's POST
 * makes the change through Better Auth (signature, age, and the member still having the old address:
 * the link works once). No session needed: the link came to the new inbox. Refused links are a 400,
 * an address another member took meanwhile a 409. Personal: never cached, counted or indexed.
 */

/** The new address the link names, for the page's text only (Better Auth checks the token on POST). */
function newAddressOf(token: string): string | null {
  try {
    const payload = JSON.parse(atob((token.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/"))) as { updateTo?: unknown };
    return typeof payload.updateTo === "string" ? payload.updateTo : null;
  } catch {
    return null;
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const email = newAddressOf(token);
  return data({ token, email }, { status: email ? 200 : 400, headers: PREVIEW_HEADERS });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const token = String(form.get("token") ?? "");
  const outcome = await confirmEmailChange({ db: context.db, memberAuth: context.memberAuth }, token, request.headers);
  if (outcome.ok) return data({ done: true as const, message: EMAIL_CHANGED }, { headers: cookieHeaders(outcome.setCookies, PREVIEW_HEADERS) });
  return data(
    { done: false as const, message: outcome.reason === "taken" ? EMAIL_CHANGE_TAKEN : EMAIL_CHANGE_LINK_REFUSED },
    { status: outcome.reason === "taken" ? 409 : 400, headers: PREVIEW_HEADERS },
  );
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

export const meta: Route.MetaFunction = ({ matches }) => previewMeta(matches, { title: "Confirm your new e-mail address", path: "/account/email" });

export default function AccountEmail({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData) {
    return (
      <SubscriberPage title="Your e-mail address">
        <p role={actionData.done ? "status" : "alert"} className={actionData.done ? "rounded-md bg-green-50 px-4 py-3 font-medium text-green-900" : "rounded-md bg-amber-50 px-4 py-3 font-medium text-amber-900"}>
          {actionData.message}
        </p>
        <p>
          <Link to={ACCOUNT_PATH} className="font-medium text-brand-700 underline underline-offset-4">
            Go to your account
          </Link>
        </p>
      </SubscriberPage>
    );
  }
  if (!loaderData.email) {
    return (
      <SubscriberPage title="Your e-mail address">
        <p role="alert" className="rounded-md bg-amber-50 px-4 py-3 font-medium text-amber-900">
          {EMAIL_CHANGE_LINK_REFUSED}
        </p>
      </SubscriberPage>
    );
  }
  return (
    <SubscriberPage title="Confirm your new e-mail address">
      <p>
        Press the button to sign in with <strong className="break-all">{loaderData.email}</strong> from now on.
      </p>
      <Form method="post">
        <input type="hidden" name="token" value={loaderData.token} />
        <SubscriberButton>Use this address</SubscriberButton>
      </Form>
    </SubscriberPage>
  );
}
