import { data, redirect } from "react-router";
import { SignInForm } from "~/components/member-sign-in-form";
import { SubscriberPage } from "~/components/subscriber-page";
import { SIGN_IN_ANSWER, SIGNED_OUT_EVERYWHERE, safeNextPath } from "~/domain/members/member-account.schema";
import { cookieHeaders, readerHintCookie, requestSignInLink } from "~/domain/members/member-accounts.server";
import { signedInMember } from "~/domain/members/member-session.server";
import { isAppError } from "~/lib/app-error";
import { clientIpOf } from "~/lib/client-address.server";
import { PREVIEW_HEADERS, previewMeta } from "~/page-meta";
import type { Route } from "./+types/account-sign-in";

/**
 * /account/sign-in (the header's "Sign in"): an e-mail address, and a sign-in link is mailed to it.
 * The answer is the same page for a known and an unknown address (an unknown one becomes a free member
 * when its link is used). `?next=/path` is where the link leads after signing in (a path of this site;
 * anything else is /account). A reader already signed in goes straight there. Personal: never cached,
 * counted or indexed.
 */

const SIGNED_OUT_NOTES: Record<string, string> = { "1": "You are signed out.", everywhere: SIGNED_OUT_EVERYWHERE, deleted: "Your account has been deleted." };

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const next = safeNextPath(url.searchParams.get("next"));
  const member = await signedInMember(request, context);
  if (member) throw redirect(next, { headers: cookieHeaders([readerHintCookie(context.env.publicUrl, true)], PREVIEW_HEADERS) });
  return data({ next, note: SIGNED_OUT_NOTES[url.searchParams.get("signed-out") ?? ""] ?? null }, { headers: PREVIEW_HEADERS });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const email = String(form.get("email") ?? "");
  const next = safeNextPath(String(form.get("next") ?? ""));
  try {
    const outcome = await requestSignInLink({ db: context.db, memberAuth: context.memberAuth }, { email, next, clientIp: clientIpOf(request), headers: request.headers });
    // What happened stays in the log (never on the page): the answer is one for every address.
    context.log.debug({ outcome }, "member sign-in request");
    return data({ sent: true as const }, { headers: PREVIEW_HEADERS });
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "upstream_failed") context.log.error({ err: error.cause }, "a member's sign-in link could not be mailed");
    return data({ sent: false as const, error: error.message, field: error.field ?? null, email }, { status: error.status, headers: PREVIEW_HEADERS });
  }
}

export function headers() {
  return PREVIEW_HEADERS;
}

export const meta: Route.MetaFunction = ({ matches }) => previewMeta(matches, { title: "Sign in", path: "/account/sign-in" });

export default function AccountSignIn({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SubscriberPage title="Sign in">
      {loaderData.note && !actionData ? (
        <p role="status" className="rounded-md bg-green-50 px-4 py-3 font-medium text-green-900">
          {loaderData.note}
        </p>
      ) : null}
      {actionData?.sent ? (
        <p role="status" className="rounded-md bg-green-50 px-4 py-3 font-medium text-green-900">
          {SIGN_IN_ANSWER}
        </p>
      ) : (
        <>
          <p>Enter your e-mail address and we will send you a link to sign in, no password needed. New here? The same link creates your free account.</p>
          <SignInForm next={loaderData.next} error={actionData?.sent === false ? actionData.error : null} email={actionData?.sent === false ? actionData.email : undefined} />
        </>
      )}
    </SubscriberPage>
  );
}
