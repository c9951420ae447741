import { data, Form, Link } from "react-router";
import { RouteError } from "~/components/not-found";
import { SUBSCRIBER_LINK_HEADERS, SUBSCRIBER_LINK_NOT_FOUND, SubscriberButton, SubscriberPage } from "~/components/subscriber-page";
import { subscriberToken } from "~/domain/newsletters/subscriber-tokens.server";
import { subscriberPath, UNSUBSCRIBED_ANSWER } from "~/domain/newsletters/subscribers.schema";
import { subscriberOfToken, unsubscribeSubscriber } from "~/domain/newsletters/subscribers.server";
import { previewMeta } from "~/page-meta";
import type { Route } from "./+types/newsletter-unsubscribe";

/**
 * /newsletter/unsubscribe/:token, the List-Unsubscribe URL of every newsletter e-mail (RFC 8058). A
 * POST unsubscribes at once, with no sign-in, cookie or origin: a mail provider's one-click
 * (`List-Unsubscribe=One-Click`) and this page's button alike, answered 200. A GET (a reader who opened
 * the link) shows the "Unsubscribe" button and the way to the preferences. `?send=<id>` names the send
 * the link came in, so that send counts the unsubscribe it caused. A forged or edited link is a 404.
 */
async function subscriberOf(context: Route.LoaderArgs["context"], token: string) {
  const subscriber = await subscriberOfToken(context.db, context.subscriberSecret, "unsubscribe", token);
  if (!subscriber) throw data(SUBSCRIBER_LINK_NOT_FOUND.title, { status: 404, headers: SUBSCRIBER_LINK_HEADERS });
  return subscriber;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const subscriber = await subscriberOf(context, params.token);
  return data(
    {
      email: subscriber.email,
      unsubscribed: subscriber.status !== "active" && subscriber.status !== "pending",
      preferencesPath: subscriberPath("preferences", subscriberToken(context.subscriberSecret, "preferences", subscriber)),
    },
    { headers: SUBSCRIBER_LINK_HEADERS },
  );
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const subscriber = await subscriberOf(context, params.token);
  const sendId = new URL(request.url).searchParams.get("send") ?? undefined;
  await unsubscribeSubscriber(context.db, subscriber.id, { sendId });
  context.log.info({ subscriberId: subscriber.id, sendId }, "newsletter unsubscribe");
  return data({ unsubscribed: true }, { headers: SUBSCRIBER_LINK_HEADERS });
}

export function headers() {
  return SUBSCRIBER_LINK_HEADERS;
}

export const meta: Route.MetaFunction = ({ matches }) => previewMeta(matches, { title: "Unsubscribe", path: "/newsletter" });

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { email, unsubscribed, preferencesPath } = loaderData;
  return (
    <SubscriberPage title="Unsubscribe">
      {actionData?.unsubscribed || unsubscribed ? (
        <p role="status" className="text-lg font-medium text-slate-900">
          {UNSUBSCRIBED_ANSWER}
        </p>
      ) : (
        <>
          <p>
            Press the button to stop every newsletter to <strong className="break-all">{email}</strong>.
          </p>
          <Form method="post">
            <input type="hidden" name="List-Unsubscribe" value="One-Click" />
            <SubscriberButton>Unsubscribe</SubscriberButton>
          </Form>
        </>
      )}
      <p>
        <Link to={preferencesPath} className="font-medium text-brand-700 underline underline-offset-4">
          Manage your preferences
        </Link>{" "}
        to choose which newsletters you receive instead.
      </p>
    </SubscriberPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} notFound={SUBSCRIBER_LINK_NOT_FOUND} />;
}
