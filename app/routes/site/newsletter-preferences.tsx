import { data, Form } from "react-router";
import { NewsletterChoices } from "~/components/newsletter-choices";
import { RouteError } from "~/components/not-found";
import { SUBSCRIBER_LINK_HEADERS, SUBSCRIBER_LINK_NOT_FOUND, SubscriberButton, SubscriberPage } from "~/components/subscriber-page";
import { NEWSLETTERS_FIELD, PREFERENCES_CONFIRM_ANSWER, PREFERENCES_SAVED, PREFERENCES_UNSUBSCRIBED_NOTE, UNSUBSCRIBED_ANSWER } from "~/domain/newsletters/subscribers.schema";
import { preferencesOf, savePreferences, subscriberOfToken } from "~/domain/newsletters/subscribers.server";
import { previewMeta } from "~/page-meta";
import type { Route } from "./+types/newsletter-preferences";

/**
 * /newsletter/preferences/:token (every newsletter's footer): the reader's newsletters as checkboxes,
 * "Save" and "Unsubscribe from all". Saving with none ticked unsubscribes from all. After an
 * unsubscribe the page still opens, but saving ticked newsletters only e-mails a new confirmation
 * link (issue 39). A forged or edited link is a 404. Personal: never cached, counted or indexed.
 */

/** The answer to a save, by what it did. */
const ANSWERS = { saved: PREFERENCES_SAVED, unsubscribed: UNSUBSCRIBED_ANSWER, "confirmation sent": PREFERENCES_CONFIRM_ANSWER } as const;
async function subscriberOf(context: Route.LoaderArgs["context"], token: string) {
  const subscriber = await subscriberOfToken(context.db, context.subscriberSecret, "preferences", token);
  if (!subscriber) throw data(SUBSCRIBER_LINK_NOT_FOUND.title, { status: 404, headers: SUBSCRIBER_LINK_HEADERS });
  return subscriber;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const subscriber = await subscriberOf(context, params.token);
  const newsletters = await preferencesOf(context.db, subscriber);
  return data({ email: subscriber.email, status: subscriber.status, newsletters }, { headers: SUBSCRIBER_LINK_HEADERS });
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const subscriber = await subscriberOf(context, params.token);
  const form = await request.formData();
  const ids = form.get("intent") === "unsubscribe-all" ? [] : form.getAll(NEWSLETTERS_FIELD).filter((v): v is string => typeof v === "string");
  const outcome = await savePreferences(context.db, subscriber, ids);
  return data({ outcome }, { headers: SUBSCRIBER_LINK_HEADERS });
}

export function headers() {
  return SUBSCRIBER_LINK_HEADERS;
}

export const meta: Route.MetaFunction = ({ matches }) => previewMeta(matches, { title: "Newsletter preferences", path: "/newsletter" });

export default function NewsletterPreferences({ loaderData, actionData }: Route.ComponentProps) {
  const { email, status, newsletters } = loaderData;
  const suppressed = status === "bounced" || status === "complained";
  return (
    <SubscriberPage title="Newsletter preferences">
      {actionData ? (
        <p role="status" className="rounded-md bg-green-50 px-4 py-3 font-medium text-green-900">
          {ANSWERS[actionData.outcome]}
        </p>
      ) : null}
      <p>
        The newsletters <strong className="break-all">{email}</strong> receives. Untick one to stop it, tick one to start it.
      </p>
      {suppressed ? <p>Our e-mails to this address could not be delivered, so we no longer send any.</p> : null}
      {status === "unsubscribed" ? <p>{PREFERENCES_UNSUBSCRIBED_NOTE}</p> : null}
      <Form method="post" className="space-y-5">
        <NewsletterChoices newsletters={newsletters} legend="Newsletters" legendClassName="text-sm font-medium text-slate-800" listClassName="mt-3 space-y-3" />
        <div className="flex flex-wrap items-center gap-4">
          <SubscriberButton name="intent" value="save">
            Save
          </SubscriberButton>
          <button type="submit" name="intent" value="unsubscribe-all" className="h-11 rounded-md border border-slate-300 bg-white px-5 text-base font-medium text-slate-900 hover:bg-slate-50">
            Unsubscribe from all
          </button>
        </div>
      </Form>
    </SubscriberPage>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} notFound={SUBSCRIBER_LINK_NOT_FOUND} />;
}
