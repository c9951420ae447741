import { redirect } from "react-router";
import { ACCOUNT_PATH, signInPathFor } from "~/domain/members/member-account.schema";
import { signedInMember } from "~/domain/members/member-session.server";
import type { Route } from "./+types/account-billing";

/**
 * /account/billing (issue 40): sends the signed-in member to Stripe's Customer Portal (a 303 to the
 * address Stripe answers), which returns them to /account. "Manage billing" posts here; the
 * payment-failed mail links here (a GET: opening a portal session changes nothing by itself). Without a
 * member session it is the sign-in page, back here after it; without billing (no STRIPE_SECRET_KEY) or a
 * Stripe customer, or when Stripe cannot be reached, it is /account with a note saying so (the cause
 * stays in the log).
 */
async function openPortal({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const member = await signedInMember(request, context);
  if (!member) return redirect(signInPathFor("/account/billing"), { status: 303, headers: { "Cache-Control": "no-store" } });
  if (!context.billing || !member.stripeCustomerId) return redirect(`${ACCOUNT_PATH}?billing=unavailable`, 303);
  let url: string;
  try {
    url = await context.billing.portalUrl(member, `${context.env.publicUrl}${ACCOUNT_PATH}`);
  } catch (error) {
    context.log.error({ err: error, memberId: member.id }, "Stripe's Customer Portal could not be opened");
    return redirect(`${ACCOUNT_PATH}?billing=failed`, 303);
  }
  return redirect(url, { status: 303, headers: { "Cache-Control": "no-store" } });
}

export const loader = (args: Route.LoaderArgs) => openPortal(args);
export const action = (args: Route.ActionArgs) => openPortal(args);
