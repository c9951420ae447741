import { data, Form, Link, redirect } from "react-router";
import { SubscriberPage } from "~/components/subscriber-page";
import { ACCOUNT_DELETED, ACCOUNT_PATH, DELETE_CONFIRM_REQUIRED, signInPathFor } from "~/domain/members/member-account.schema";
import { cookieHeaders, signedOutCookies } from "~/domain/members/member-accounts.server";
import { eraseMember } from "~/domain/members/member-erasure.server";
import { signedInMember } from "~/domain/members/member-session.server";
import { isAppError } from "~/lib/app-error";
import { PREVIEW_HEADERS, previewMeta } from "~/page-meta";
import type { Route } from "./+types/account-delete";

/**
 * /account/delete, "Delete my account"'s confirmation step: the page says what goes and what stays, a
 * box to tick and the button. The POST cancels a paid subscription first (if Stripe refuses, nothing
 * is erased and the page says so), then erases the member (eraseMember: the same function as the
 * admin's delete), ends their sessions and clears the header's hint. Never cached, counted or indexed.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = await signedInMember(request, context);
  if (!member) throw redirect(signInPathFor("/account/delete"), { headers: PREVIEW_HEADERS });
  return data({ email: member.email }, { headers: PREVIEW_HEADERS });
}

export async function action({ request, context }: Route.ActionArgs) {
  const member = await signedInMember(request, context);
  if (!member) throw redirect(signInPathFor("/account/delete"), { status: 303, headers: PREVIEW_HEADERS });
  const form = await request.formData();
  if (form.get("confirm") !== "yes") return data({ deleted: false as const, error: DELETE_CONFIRM_REQUIRED }, { status: 400, headers: PREVIEW_HEADERS });
  try {
    await eraseMember(context.db, context.billing, member.id);
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "upstream_failed") context.log.error({ err: error.cause, memberId: member.id }, "a member's subscriptions could not be canceled before their erasure");
    return data({ deleted: false as const, error: error.message }, { status: error.status, headers: PREVIEW_HEADERS });
  }
  // The sessions are gone with the member; Better Auth's sign-out answer clears this browser's cookie.
  const signOut = await context.memberAuth.api.signOut({ headers: request.headers, asResponse: true });
  const cookies = [...signOut.headers.getSetCookie(), ...signedOutCookies(context.env.publicUrl)];
  return data({ deleted: true as const, error: null }, { headers: cookieHeaders(cookies, PREVIEW_HEADERS) });
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

export const meta: Route.MetaFunction = ({ matches }) => previewMeta(matches, { title: "Delete my account", path: "/account/delete" });

export default function AccountDelete({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.deleted) {
    return (
      <SubscriberPage title="Account deleted">
        <p role="status" className="rounded-md bg-green-50 px-4 py-3 font-medium text-green-900">
          {ACCOUNT_DELETED}
        </p>
      </SubscriberPage>
    );
  }
  return (
    <SubscriberPage title="Delete my account">
      {actionData?.error ? (
        <p role="alert" className="rounded-md bg-red-50 px-4 py-3 text-red-800">
          {actionData.error}
        </p>
      ) : null}
      <p>
        Deleting the account of <strong className="break-all">{loaderData.email}</strong> erases your name, your address, your newsletters and your reading history, and signs you out everywhere. A paid
        subscription is canceled first, at once. We keep only what the law requires of a business: the records of past payments, without your name or address.
      </p>
      <p>This cannot be undone. You can sign up again later with the same address, as a new reader.</p>
      <Form method="post" className="space-y-4">
        <label className="flex items-start gap-3">
          <input type="checkbox" name="confirm" value="yes" required className="mt-1 size-4 accent-red-700" />
          <span>I understand that my account will be deleted.</span>
        </label>
        <div className="flex flex-wrap items-center gap-4">
          <button type="submit" className="h-11 rounded-md bg-red-700 px-5 text-base font-medium text-white hover:bg-red-800">
            Delete my account
          </button>
          <Link to={ACCOUNT_PATH} className="font-medium text-brand-700 underline underline-offset-4">
            Keep my account
          </Link>
        </div>
      </Form>
    </SubscriberPage>
  );
}
