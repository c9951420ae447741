import { redirect } from "react-router";
import { ACCOUNT_PATH, signInPathFor } from "~/domain/members/member-account.schema";
import { signedInMember } from "~/domain/members/member-session.server";
import type { Route } from "./+types/account-billing";

/**
 * /account's "Manage billing" (issue 40): a POST sends the signed-in member to Stripe's Customer Portal
 * (a 303 to the address Stripe answers), which returns them to /account. Without a member session it
 * is the sign-in page; without billing (no STRIPE_SECRET_KEY) or a Stripe customer, or when Stripe
 * cannot be reached, it is /account with a note saying so (the cause stays in the log).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const member = await signedInMember(request, context);
  if (!member) return redirect(signInPathFor(ACCOUNT_PATH), 303);
  if (!context.billing || !member.stripeCustomerId) return redirect(`${ACCOUNT_PATH}?billing=unavailable`, 303);
  let url: string;
  try {
    url = await context.billing.portalUrl(member, `${context.env.publicUrl}${ACCOUNT_PATH}`);
  } catch (error) {
    context.log.error({ err: error, memberId: member.id }, "Stripe's Customer Portal could not be opened");
    return redirect(`${ACCOUNT_PATH}?billing=failed`, 303);
  }
  return redirect(url, 303);
}

/** Opening the portal is a POST only (a session of Stripe's is made for it); a GET is /account. */
export function loader() {
  return redirect(ACCOUNT_PATH);
}
