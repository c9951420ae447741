import { data, redirect } from "react-router";
import { SignInForm } from "~/components/member-sign-in-form";
import { SubscriberPage } from "~/components/subscriber-page";
import { SIGN_IN_LINK_REFUSED, safeNextPath } from "~/domain/members/member-account.schema";
import { creditConversion } from "~/domain/audience/audience-conversions.server";
import { completeSignIn, cookieHeaders, readerHintCookie } from "~/domain/members/member-accounts.server";
import { MEMBER_SESSION_COOKIE } from "~/domain/members/member-auth.server";
import { PREVIEW_HEADERS, previewMeta } from "~/page-meta";
import type { Route } from "./+types/account-verify";

/**
 * /account/verify?token=…&next=… (the sign-in e-mail's link): Better Auth's magic-link check (the
 * token's hash is looked up and consumed at once, so a link works once, for 15 minutes); its session
 * cookie is passed on with the header's hint cookie, and the reader goes to `next` (a path of this
 * site) or /account. A used, expired or edited link is a 400 page with the form to get a new one, and
 * no session. Personal: never cached, counted or indexed.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const next = safeNextPath(url.searchParams.get("next"));
  const token = url.searchParams.get("token") ?? "";
  if (token) {
    const response = await context.memberAuth.api.magicLinkVerify({ query: { token }, headers: request.headers, asResponse: true });
    const setCookies = response.headers.getSetCookie();
    const signedIn = response.ok && setCookies.some((c) => c.startsWith(`${MEMBER_SESSION_COOKIE}=`) || c.startsWith(`__Secure-${MEMBER_SESSION_COOKIE}=`));
    if (signedIn) {
      const body = (await response.json()) as { user: { id: string } };
      const { isNew } = await completeSignIn(context.db, body.user.id);
      // A new member, from their own request: credited to the story and source that brought them (issue 42).
      if (isNew) await creditConversion(context, "member", request);
      throw redirect(next, { headers: cookieHeaders([...setCookies, readerHintCookie(context.env.publicUrl, true)], PREVIEW_HEADERS) });
    }
  }
  return data({ next }, { status: 400, headers: PREVIEW_HEADERS });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export const meta: Route.MetaFunction = ({ matches }) => previewMeta(matches, { title: "Sign-in link expired", path: "/account/sign-in" });

export default function AccountVerify({ loaderData }: Route.ComponentProps) {
  return (
    <SubscriberPage title="This link no longer works">
      <p role="alert" className="rounded-md bg-amber-50 px-4 py-3 font-medium text-amber-900">
        {SIGN_IN_LINK_REFUSED}
      </p>
      <SignInForm next={loaderData.next} />
    </SubscriberPage>
  );
}
