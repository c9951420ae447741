import { useEffect } from "react";
import { data, redirect, useActionData, useFetcher, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { formValuesOfRefusal, NewsletterForm, OutboxNotice, PostalAddressWarning } from "~/components/admin/newsletter-form";
import { Button } from "~/components/ui/button";
import { useAnswerToast } from "~/components/admin/use-answer-toast";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { listCategories } from "~/domain/categories/categories.server";
import { newsletterScheduleLabel, SEND_STATE_LABELS, type NewsletterFieldName } from "~/domain/newsletters/newsletter-admin.schema";
import { archiveNewsletter, newsletterForAdmin, postalAddressMissing, readNewsletterForm, updateNewsletter } from "~/domain/newsletters/newsletter-admin.server";
import { cancelSend, sendsOfNewsletter } from "~/domain/newsletters/newsletter-sends.server";
import { newsletterTransportKind } from "~/domain/newsletters/newsletter-transport.server";
import { AppError } from "~/lib/app-error";
import { formatPublishDate } from "~/lib/dates";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/newsletter";

type NewsletterActionData = { ok: true; intent: string; message: string } | (Refusal<NewsletterFieldName> & { intent: string });

/** How many sends the page lists (newest first). */
const SENDS_SHOWN = 100;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "newsletters.manage");
  const newsletter = await newsletterForAdmin(context.db, params.id);
  if (!newsletter) throw data({ error: "This newsletter no longer exists." }, { status: 404 });
  const [sends, categories, noPostalAddress] = await Promise.all([
    sendsOfNewsletter(context.db, newsletter.id, { limit: SENDS_SHOWN }),
    listCategories(context.db),
    postalAddressMissing(context.db),
  ]);
  const timeZone = context.env.TIME_ZONE;
  const when = (date: Date | null) => (date ? formatPublishDate(date, timeZone) : null);
  const categoryNames = new Map(categories.map((c) => [c.id, c.name]));
  return {
    outbox: newsletterTransportKind(context.env) === "outbox",
    // No postal address for the e-mails' footer (CAN-SPAM): warned here, before anything is sent.
    postalAddressMissing: noPostalAddress,
    categories: categories.map(({ id, name }) => ({ id, name })),
    newsletter: {
      id: newsletter.id,
      name: newsletter.name,
      slug: newsletter.slug,
      description: newsletter.description,
      isPublic: newsletter.isPublic,
      senderName: newsletter.senderName ?? "",
      replyTo: newsletter.replyTo ?? "",
      kind: newsletter.kind,
      schedule: newsletterScheduleLabel(newsletter),
      digestFrequency: newsletter.digestFrequency ?? "daily",
      digestWeekday: String(newsletter.digestWeekday ?? 1),
      digestTime: newsletter.digestTime ?? "07:00",
      digestCategoryIds: newsletter.digestCategoryIds ?? [],
      digestCategories: (newsletter.digestCategoryIds ?? []).map((id) => categoryNames.get(id)).filter((name): name is string => Boolean(name)),
      trackEngagement: newsletter.trackEngagement,
      archived: newsletter.archivedAt !== null,
      subscriberCount: newsletter.subscriberCount,
    },
    sends: sends.map((s) => ({
      id: s.id,
      kind: s.kind,
      status: s.status,
      subject: s.subject,
      articleTitle: s.articleTitle,
      createdAt: when(s.createdAt),
      finishedAt: when(s.finishedAt),
      recipients: s.recipients,
      accepted: s.accepted,
      failed: s.failed,
      bounced: s.bounced,
      complaints: s.complaints,
      unsubscribes: s.unsubscribes,
      opens: s.opens,
      clicks: s.clicks,
      mayBeDuplicate: s.mayBeDuplicate,
      note: s.note,
    })),
  };
}

/** Edit the settings, archive, cancel a send. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireCapability(request, context, "newsletters.manage");
  const actor = actorOf(user);
  const form = await request.formData();
  const { intent, sendId } = formValues(form, ["intent", "sendId"]);
  const { values, parse } = readNewsletterForm(form);
  try {
    if (intent === "update") {
      const saved = await updateNewsletter(context.db, actor, params.id, parse());
      context.log.info({ newsletterId: saved.id }, "newsletter changed");
      return data<NewsletterActionData>({ ok: true, intent, message: "Newsletter saved" });
    }
    if (intent === "archive") {
      await archiveNewsletter(context.db, actor, params.id);
      context.log.info({ newsletterId: params.id }, "newsletter archived");
      return redirect("/admin/newsletters");
    }
    if (intent === "cancel-send") {
      const newsletter = await newsletterForAdmin(context.db, params.id);
      const send = newsletter ? (await sendsOfNewsletter(context.db, newsletter.id, { limit: 1000 })).find((s) => s.id === sendId) : undefined;
      if (!send) throw new AppError("not_found", "This send no longer exists.");
      const { cancelled } = await cancelSend(context.db, send.id, actor);
      context.log.info({ sendId: send.id, cancelled }, "newsletter send cancelled");
      return data<NewsletterActionData>({ ok: true, intent, message: `Send cancelled: ${cancelled} ${cancelled === 1 ? "message" : "messages"} will not go out.` });
    }
    throw new AppError("invalid_input", "Unknown action.");
  } catch (error) {
    const answer = refuse<NewsletterFieldName>(error, values);
    return data<NewsletterActionData>({ ...answer.data, intent }, answer.init ?? undefined);
  }
}

export const meta: Route.MetaFunction = ({ matches, data: loaderData, params }) =>
  backOfficeMeta(matches, { title: loaderData?.newsletter.name ?? "Newsletter", path: `/admin/newsletters/${params.id}` });

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold text-slate-600 uppercase">{label}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  );
}

export default function AdminNewsletter({ loaderData }: Route.ComponentProps) {
  const { newsletter, sends, categories, outbox, postalAddressMissing } = loaderData;
  const answer = useActionData<typeof action>();
  const canceller = useFetcher<NewsletterActionData>({ key: "send-cancel" });
  const archiver = useFetcher<NewsletterActionData>({ key: "newsletter-archive-one" });
  const busy = useNavigation().state !== "idle";

  useAnswerToast(answer, (answer) => (answer.intent === "update" && answer.code === "invalid_input" && Object.keys(answer.fieldErrors).length > 0 ? "Please correct the highlighted fields." : answer.error));
  useEffect(() => {
    for (const fetcher of [canceller, archiver]) {
      if (fetcher.state !== "idle" || !fetcher.data) continue;
      if (fetcher.data.ok) toast.success(fetcher.data.message);
      else toast.error("Error", fetcher.data.error);
    }
  }, [canceller.state, canceller.data, archiver.state, archiver.data, canceller, archiver]);

  const refused = answer && !answer.ok && answer.intent === "update" ? answer : null;
  const tracking = newsletter.trackEngagement || sends.some((s) => s.opens !== null);
  const settingsValues = refused
    ? formValuesOfRefusal(refused.values)
    : {
        name: newsletter.name,
        description: newsletter.description,
        isPublic: newsletter.isPublic,
        senderName: newsletter.senderName,
        replyTo: newsletter.replyTo,
        kind: newsletter.kind,
        digestFrequency: newsletter.digestFrequency,
        digestWeekday: newsletter.digestWeekday,
        digestTime: newsletter.digestTime,
        digestCategoryIds: newsletter.digestCategoryIds,
        trackEngagement: newsletter.trackEngagement,
      };

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title={newsletter.name}
        description={newsletter.description || undefined}
        back={{ to: "/admin/newsletters", label: "Back to Newsletters" }}
        action={
          newsletter.archived ? null : (
            <ConfirmDialog
              trigger={<Button variant="outline">Archive</Button>}
              title="Archive Newsletter"
              description={`Archive “${newsletter.name}”? It leaves the sign-up forms and the publish panel; its subscribers and sends are kept.`}
              confirmLabel="Archive"
              onConfirm={() => archiver.submit({ intent: "archive" }, { method: "post" })}
            />
          )
        }
      />
      {outbox ? <OutboxNotice /> : null}
      {postalAddressMissing && !newsletter.archived ? <PostalAddressWarning className="mb-4" /> : null}

      <section aria-labelledby="newsletter-settings" id="settings" className="mb-6 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="newsletter-settings" className="mb-3 font-semibold text-slate-900">
          Settings{newsletter.archived ? " (archived)" : ""}
        </h2>
        <dl className="grid grid-cols-2 gap-4 text-sm md:grid-cols-4">
          <Fact label="Kind">{newsletter.schedule}</Fact>
          <Fact label="Public">{newsletter.isPublic ? "Public" : "Not public"}</Fact>
          <Fact label="Subscribers">{newsletter.subscriberCount}</Fact>
          <Fact label="Tracking">{newsletter.trackEngagement ? "Opens and clicks tracked" : "Off"}</Fact>
          <Fact label="Sender name">{newsletter.senderName || "The site's name"}</Fact>
          <Fact label="Reply-to">{newsletter.replyTo || "None"}</Fact>
          <Fact label="Address">{newsletter.slug}</Fact>
          {newsletter.kind === "digest" ? <Fact label="Categories">{newsletter.digestCategories.length ? newsletter.digestCategories.join(", ") : "Every category"}</Fact> : null}
        </dl>
        {newsletter.archived ? null : (
          <details className="mt-4" open={refused ? true : undefined}>
            <summary className="cursor-pointer text-sm font-medium text-slate-800 underline">Edit settings</summary>
            <div className="mt-4">
              <NewsletterForm
                key={refused ? "refused" : JSON.stringify(settingsValues)}
                prefix="edit"
                intent="update"
                values={settingsValues}
                errors={refused?.fieldErrors ?? {}}
                categories={categories}
                submitLabel="Save newsletter"
                busy={busy}
              />
            </div>
          </details>
        )}
      </section>

      <section aria-labelledby="newsletter-sends">
        <h2 id="newsletter-sends" className="mb-3 text-xl font-semibold text-slate-900">
          Sends
        </h2>
        {sends.length === 0 ? (
          <p className="rounded-lg border border-slate-200 bg-white py-12 text-center text-slate-700">
            {newsletter.kind === "digest"
              ? `Nothing sent yet. This digest goes out ${newsletter.schedule.replace(/^Daily/, "daily").replace(/^Weekly/, "weekly")}.`
              : "Nothing sent yet: choose this newsletter under “Send by e-mail” when publishing a story."}
          </p>
        ) : (
          <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Sends of this newsletter, newest first</caption>
              <thead className="bg-slate-50 text-slate-800">
                <tr>
                  <th scope="col" className="px-3 py-3 font-semibold">Send</th>
                  <th scope="col" className="px-3 py-3 font-semibold">State</th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">Recipients</th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">Accepted</th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">Failed</th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">Bounced</th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">Complaints</th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold">Unsubscribes</th>
                  {tracking ? (
                    <>
                      <th scope="col" className="px-3 py-3 text-right font-semibold">Opens</th>
                      <th scope="col" className="px-3 py-3 text-right font-semibold">Clicks</th>
                    </>
                  ) : null}
                  <th scope="col" className="px-3 py-3 text-right font-semibold">Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {sends.map((s) => (
                  <tr key={s.id} className="align-top" data-testid="newsletter-send">
                    <td className="min-w-48 px-3 py-3">
                      <p className="font-medium text-slate-900">{s.articleTitle ?? s.subject}</p>
                      <p className="text-xs text-slate-600">
                        {s.kind === "digest" ? "Digest" : "Story"} · {s.createdAt}
                        {s.finishedAt && s.finishedAt !== s.createdAt ? ` · finished ${s.finishedAt}` : ""}
                      </p>
                      {s.note ? <p className="text-xs text-slate-700">{s.note}</p> : null}
                      {s.mayBeDuplicate > 0 ? (
                        <p className="text-xs text-amber-800">
                          {s.mayBeDuplicate === 1 ? "1 recipient" : `${s.mayBeDuplicate} recipients`} may have been sent twice
                        </p>
                      ) : null}
                    </td>
                    <td className="px-3 py-3 whitespace-nowrap">{SEND_STATE_LABELS[s.status] ?? s.status}</td>
                    <td className="px-3 py-3 text-right tabular-nums">{s.recipients}</td>
                    <td className="px-3 py-3 text-right tabular-nums">{s.accepted}</td>
                    <td className="px-3 py-3 text-right tabular-nums">{s.failed}</td>
                    <td className="px-3 py-3 text-right tabular-nums">{s.bounced}</td>
                    <td className="px-3 py-3 text-right tabular-nums">{s.complaints}</td>
                    <td className="px-3 py-3 text-right tabular-nums">{s.unsubscribes}</td>
                    {tracking ? (
                      <>
                        <td className="px-3 py-3 text-right tabular-nums">{s.opens ?? "—"}</td>
                        <td className="px-3 py-3 text-right tabular-nums">{s.clicks ?? "—"}</td>
                      </>
                    ) : null}
                    <td className="px-3 py-3 text-right">
                      {s.status === "queued" || s.status === "sending" ? (
                        <ConfirmDialog
                          trigger={
                            <Button variant="ghost-destructive" size="sm">
                              Cancel send<span className="sr-only"> {s.articleTitle ?? s.subject}</span>
                            </Button>
                          }
                          title="Cancel Send"
                          description={`Stop “${s.articleTitle ?? s.subject}”? What has not gone yet will not be sent; it cannot be sent again.`}
                          confirmLabel="Cancel send"
                          cancelLabel="Keep sending"
                          onConfirm={() => canceller.submit({ intent: "cancel-send", sendId: s.id }, { method: "post" })}
                        />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}
