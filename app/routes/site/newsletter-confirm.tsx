import { data, Form, Link, redirect } from "react-router";
import { RouteError } from "~/components/not-found";
import { SUBSCRIBER_LINK_HEADERS, SUBSCRIBER_LINK_NOT_FOUND, SubscriberButton, SubscriberPage } from "~/components/subscriber-page";
import { subscriberToken } from "~/domain/newsletters/subscriber-tokens.server";
import { CONFIRM_BUTTON, CONFIRMED_ANSWER, subscriberPath } from "~/domain/newsletters/subscribers.schema";
import { confirmSubscriber, subscriberOfToken } from "~/domain/newsletters/subscribers.server";
import { previewMeta } from "~/page-meta";
import type { Route } from "./+types/newsletter-confirm";

/**
 * /newsletter/confirm/:token, the confirmation e-mail's link. Its GET only shows the "Confirm
 * subscription" button and changes nothing (mail scanners follow links); the button's POST confirms.
 * A forged, edited or expired link is a 404. Personal: never cached, counted or indexed.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const subscriber = await subscriberOfToken(context.db, context.subscriberSecret, "confirm", params.token);
  if (!subscriber) throw data(SUBSCRIBER_LINK_NOT_FOUND.title, { status: 404, headers: SUBSCRIBER_LINK_HEADERS });
  const active = subscriber.status === "active";
  // An active subscriber's page links their preferences (the link came to their inbox, as every newsletter's does).
  const preferencesPath = active ? subscriberPath("preferences", subscriberToken(context.subscriberSecret, "preferences", subscriber)) : null;
  return data({ email: subscriber.email, active, preferencesPath }, { headers: SUBSCRIBER_LINK_HEADERS });
}

export async function action({ params, context }: Route.ActionArgs) {
  const subscriber = await subscriberOfToken(context.db, context.subscriberSecret, "confirm", params.token);
  if (!subscriber) throw data(SUBSCRIBER_LINK_NOT_FOUND.title, { status: 404, headers: SUBSCRIBER_LINK_HEADERS });
  const confirmed = await confirmSubscriber(context.db, subscriber);
  // A re-subscription gets a new key, which voids this very link: the page after the POST (its loader
  // runs again) is the new key's, or it would be the 404 page.
  if (confirmed.tokenKey !== subscriber.tokenKey) {
    throw redirect(subscriberPath("confirm", subscriberToken(context.subscriberSecret, "confirm", confirmed)), { status: 303, headers: SUBSCRIBER_LINK_HEADERS });
  }
  return data({ confirmed: true, preferencesPath: subscriberPath("preferences", subscriberToken(context.subscriberSecret, "preferences", confirmed)) }, { headers: SUBSCRIBER_LINK_HEADERS });
}

export function headers() {
  return SUBSCRIBER_LINK_HEADERS;
}

export const meta: Route.MetaFunction = ({ matches }) => previewMeta(matches, { title: "Confirm your subscription", path: "/newsletter" });

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.confirmed || loaderData.active) {
    const preferencesPath = actionData?.preferencesPath ?? loaderData.preferencesPath;
    return (
      <SubscriberPage title="Confirm your subscription">
        <p role="status" className="text-lg font-medium text-slate-900">
          {CONFIRMED_ANSWER}
        </p>
        {preferencesPath ? (
          <p>
            <Link to={preferencesPath} className="font-medium text-brand-700 underline underline-offset-4">
              Manage your preferences
            </Link>
          </p>
        ) : null}
      </SubscriberPage>
    );
  }
  return (
    <SubscriberPage title="Confirm your subscription">
      <p>
        Press the button to confirm that <strong className="break-all">{loaderData.email}</strong> should receive our newsletter.
      </p>
      <Form method="post">
        <SubscriberButton>{CONFIRM_BUTTON}</SubscriberButton>
      </Form>
    </SubscriberPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} notFound={SUBSCRIBER_LINK_NOT_FOUND} />;
}
