import { useEffect } from "react";
import { data, Link, useActionData, useFetcher, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { formValuesOfRefusal, NewsletterForm, OutboxNotice, PostalAddressWarning } from "~/components/admin/newsletter-form";
import { Button } from "~/components/ui/button";
import { useAnswerToast } from "~/components/admin/use-answer-toast";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { listCategories } from "~/domain/categories/categories.server";
import { newsletterScheduleLabel, type NewsletterFieldName } from "~/domain/newsletters/newsletter-admin.schema";
import { archiveNewsletter, createNewsletter, listNewslettersForAdmin, postalAddressMissing, readNewsletterForm } from "~/domain/newsletters/newsletter-admin.server";
import { newsletterTransportKind } from "~/domain/newsletters/newsletter-transport.server";
import { AppError } from "~/lib/app-error";
import { formatPublishDate } from "~/lib/dates";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/newsletters";

export type NewslettersActionData = { ok: true; intent: string; message: string } | (Refusal<NewsletterFieldName> & { intent: string; id: string });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "newsletters.manage");
  const [rows, categories, noPostalAddress] = await Promise.all([listNewslettersForAdmin(context.db), listCategories(context.db), postalAddressMissing(context.db)]);
  const timeZone = context.env.TIME_ZONE;
  return {
    outbox: newsletterTransportKind(context.env) === "outbox",
    // No postal address for the e-mails' footer (CAN-SPAM): warned here, before anything is sent.
    postalAddressMissing: noPostalAddress,
    categories: categories.map(({ id, name }) => ({ id, name })),
    newsletters: rows.map((n) => ({
      id: n.id,
      name: n.name,
      slug: n.slug,
      schedule: newsletterScheduleLabel(n),
      isPublic: n.isPublic,
      archived: n.archivedAt !== null,
      subscriberCount: n.subscriberCount,
      lastSend: n.lastSendAt ? formatPublishDate(n.lastSendAt, timeZone) : null,
    })),
  };
}

/** Create a newsletter, archive one (editing is on its own page). */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "newsletters.manage"));
  const form = await request.formData();
  const { intent, id } = formValues(form, ["intent", "id"]);
  const { values, parse } = readNewsletterForm(form);
  try {
    if (intent === "create") {
      const created = await createNewsletter(context.db, actor, parse());
      context.log.info({ newsletterId: created.id, slug: created.slug }, "newsletter created");
      return data<NewslettersActionData>({ ok: true, intent, message: `Newsletter created: ${created.name}` });
    }
    if (intent === "archive") {
      const archived = await archiveNewsletter(context.db, actor, id);
      context.log.info({ newsletterId: archived.id }, "newsletter archived");
      return data<NewslettersActionData>({ ok: true, intent, message: `Newsletter archived: ${archived.name}` });
    }
    throw new AppError("invalid_input", "Unknown action.");
  } catch (error) {
    const answer = refuse<NewsletterFieldName>(error, values);
    return data<NewslettersActionData>({ ...answer.data, intent, id }, answer.init ?? undefined);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Newsletters", path: "/admin/newsletters" });

export default function AdminNewsletters({ loaderData }: Route.ComponentProps) {
  const { newsletters, categories, outbox, postalAddressMissing } = loaderData;
  const answer = useActionData<typeof action>();
  const archiver = useFetcher<NewslettersActionData>({ key: "newsletter-archive" });
  const busy = useNavigation().state !== "idle";

  useAnswerToast(answer, (answer) => (answer.intent === "create" && answer.code !== "missing_fields" ? "Please correct the highlighted fields." : answer.error));
  useEffect(() => {
    if (archiver.state !== "idle" || !archiver.data) return;
    if (archiver.data.ok) toast.success(archiver.data.message);
    else toast.error("Error", archiver.data.error);
  }, [archiver.state, archiver.data]);

  const refused = answer && !answer.ok && answer.intent === "create" ? answer : null;

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader title="Newsletters" description="Stories go out per article when an editor chooses them; a digest goes on its schedule." />
      {outbox ? <OutboxNotice /> : null}
      {postalAddressMissing ? <PostalAddressWarning className="mb-4" /> : null}

      <details className="mb-6 rounded-lg border border-slate-200 bg-white p-4" open={refused ? true : undefined}>
        <summary className="cursor-pointer font-semibold text-slate-900">New newsletter</summary>
        <div className="mt-4">
          <NewsletterForm
            key={answer?.ok && answer.intent === "create" ? answer.message : "new"}
            prefix="new"
            intent="create"
            values={formValuesOfRefusal(refused?.values)}
            errors={refused?.fieldErrors ?? {}}
            categories={categories}
            submitLabel="Create newsletter"
            busy={busy}
          />
        </div>
      </details>

      <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Newsletters, with their subscribers and last send</caption>
          <thead className="bg-slate-50 text-slate-800">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Name</th>
              <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Kind</th>
              <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Public</th>
              <th scope="col" className="px-4 py-3 text-right font-semibold max-md:px-2">Subscribers</th>
              <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Last send</th>
              <th scope="col" className="px-4 py-3 text-right font-semibold max-md:px-2">Actions</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {newsletters.map((n) => (
              <tr key={n.id} className={n.archived ? "bg-slate-50 text-slate-600" : undefined}>
                <td className="px-4 py-3 max-md:px-2">
                  <Link to={`/admin/newsletters/${n.id}`} className="font-medium text-slate-900 underline">
                    {n.name}
                  </Link>
                  {n.archived ? <span className="ml-2 text-xs font-semibold text-slate-600 uppercase">Archived</span> : null}
                </td>
                <td className="px-4 py-3 max-md:px-2">{n.schedule}</td>
                <td className="px-4 py-3 max-md:px-2">{n.isPublic ? "Public" : "Not public"}</td>
                <td className="px-4 py-3 text-right tabular-nums max-md:px-2" data-testid="newsletter-subscribers">
                  {n.subscriberCount}
                </td>
                <td className="px-4 py-3 whitespace-nowrap max-md:px-2">{n.lastSend ?? "Never"}</td>
                <td className="px-4 py-3 max-md:px-2">
                  <div className="flex items-center justify-end gap-1">
                    <Button asChild variant="ghost" size="sm">
                      <Link to={`/admin/newsletters/${n.id}#settings`}>
                        {n.archived ? "Sends" : "Edit"}
                        <span className="sr-only"> {n.name}</span>
                      </Link>
                    </Button>
                    {n.archived ? null : (
                      <ConfirmDialog
                        trigger={
                          <Button variant="ghost-destructive" size="sm">
                            Archive<span className="sr-only"> {n.name}</span>
                          </Button>
                        }
                        title="Archive Newsletter"
                        description={`Archive “${n.name}”? It leaves the sign-up forms and the publish panel; its subscribers and sends are kept.`}
                        confirmLabel="Archive"
                        onConfirm={() => archiver.submit({ intent: "archive", id: n.id }, { method: "post" })}
                      />
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </main>
  );
}
