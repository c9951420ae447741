import { data, redirect } from "react-router";
import { signedInMember } from "~/domain/members/member-session.server";
import { isAppError } from "~/lib/app-error";
import type { Route } from "./+types/account-billing";

/**
 * /account/billing (issue 40): opens Stripe's Customer Portal for the signed-in member (the link of the
 * payment-failed mail, and "Manage billing"). Not signed in: to the sign-in page, back here after it.
 * Without Stripe, or for a member who never subscribed: their account page.
 */
async function openPortal({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const member = await signedInMember(request, context);
  if (!member) throw redirect(`/account/sign-in?next=${encodeURIComponent("/account/billing")}`, { status: 303, headers: { "Cache-Control": "no-store" } });
  if (!context.billing || !member.stripeCustomerId) throw redirect("/account", { status: 303 });
  try {
    const url = await context.billing.portalUrl(member, `${context.env.publicUrl}/account`);
    return redirect(url, { status: 303, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (!isAppError(error)) throw error;
    context.log.warn({ err: error }, "could not open Stripe's billing portal");
    throw data({ error: error.message }, { status: error.status, headers: { "Cache-Control": "no-store" } });
  }
}

export const loader = (args: Route.LoaderArgs) => openPortal(args);
export const action = (args: Route.ActionArgs) => openPortal(args);
