import { useEffect } from "react";
import { data, Form, useActionData, useFetcher, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDeleteButton } from "~/components/admin/confirm-dialog";
import { FilterSelect } from "~/components/admin/filter-select";
import { Pagination } from "~/components/pagination";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { can } from "~/domain/accounts/roles";
import { listNewslettersForAdmin } from "~/domain/newsletters/newsletter-admin.server";
import { deleteSubscriber, importSubscribers, listSubscribers, type SubscriberImportReport } from "~/domain/newsletters/subscribers-admin.server";
import {
  CONSENT_REQUIRED,
  isSubscriberState,
  SUBSCRIBER_STATE_LABELS,
  SUBSCRIBER_STATES,
  SUBSCRIBERS_PAGE_SIZE,
} from "~/domain/newsletters/subscribers-admin.schema";
import { parseSubscribersCsv } from "~/domain/newsletters/subscribers-csv.server";
import { AppError } from "~/lib/app-error";
import { formatPublishDate } from "~/lib/dates";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { pageCountOrRedirect, pageFromUrl } from "~/lib/pagination";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/subscribers";

export type SubscribersActionData = { ok: true; intent: string; message: string; report?: SubscriberImportReport } | (Refusal<"file" | "consent"> & { intent: string });

const STATE_LABELS: Record<string, string> = SUBSCRIBER_STATE_LABELS;

/** The list's filters as read from the address. */
function filterOf(url: URL) {
  const status = url.searchParams.get("status") ?? "";
  return {
    search: (url.searchParams.get("q") ?? "").trim().slice(0, 200),
    newsletterId: url.searchParams.get("newsletter") || null,
    status: isSubscriberState(status) ? status : null,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "subscribers.view");
  const url = new URL(request.url);
  const filter = filterOf(url);
  const page = pageFromUrl(request.url);
  const [{ rows, total }, newsletters] = await Promise.all([listSubscribers(context.db, filter, page), listNewslettersForAdmin(context.db)]);
  const pageCount = pageCountOrRedirect(request.url, page, total, SUBSCRIBERS_PAGE_SIZE);
  const timeZone = context.env.TIME_ZONE;
  return {
    filter,
    page,
    pageCount,
    total,
    // Import, export and delete: admins only (the server refuses the others whatever this shows).
    canManage: can(user.role, "subscribers.manage"),
    newsletters: newsletters.map((n) => ({ id: n.id, name: n.name, archived: n.archivedAt !== null })),
    subscribers: rows.map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      status: row.status,
      newsletters: row.newsletters,
      consent: row.consentSource ? `${row.consentSource}${row.consentAt ? `, ${formatPublishDate(row.consentAt, timeZone)}` : ""}` : null,
      createdAt: formatPublishDate(row.createdAt, timeZone),
    })),
  };
}

const importSummary = (r: SubscriberImportReport) =>
  `${r.added} added, ${r.updated} already subscribed, ${r.skipped.length} skipped${r.problems.length > 0 ? `; ${r.problems.length} ${r.problems.length === 1 ? "line" : "lines"} not imported` : ""}.`;

/** Import a CSV, delete a person: admins only (subscribers.manage), enforced here before anything is read. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "subscribers.manage"));
  const form = await request.formData();
  const { intent, id, consent } = formValues(form, ["intent", "id", "consent"]);
  try {
    if (intent === "import") {
      if (consent !== "on") throw new AppError("invalid_input", CONSENT_REQUIRED, { field: "consent" });
      const file = form.get("file");
      if (!(file instanceof File) || file.size === 0) throw new AppError("invalid_input", "Choose a CSV file to import.", { field: "file" });
      const parsed = parseSubscribersCsv(await file.text());
      const report = await importSubscribers(context.db, actor, parsed.rows, { consent: true, fileProblems: parsed.problems });
      context.log.info({ added: report.added, updated: report.updated, skipped: report.skipped.length, refused: report.problems.length }, "subscribers imported");
      return data<SubscribersActionData>({ ok: true, intent, message: `Import finished: ${importSummary(report)}`, report });
    }
    if (intent === "delete") {
      await deleteSubscriber(context.db, actor, id);
      context.log.info({ subscriberId: id }, "subscriber erased");
      return data<SubscribersActionData>({ ok: true, intent, message: "Subscriber deleted" });
    }
    throw new AppError("invalid_input", "Unknown action.");
  } catch (error) {
    const answer = refuse<"file" | "consent">(error);
    return data<SubscribersActionData>({ ...answer.data, intent }, answer.init ?? undefined);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Subscribers", path: "/admin/subscribers" });

export default function AdminSubscribers({ loaderData }: Route.ComponentProps) {
  const { subscribers, filter, page, pageCount, total, canManage, newsletters } = loaderData;
  const answer = useActionData<typeof action>();
  const deleter = useFetcher<SubscribersActionData>({ key: "subscriber-delete" });
  const busy = useNavigation().state !== "idle";

  useEffect(() => {
    if (!answer) return;
    if (answer.ok) toast.success(answer.message);
    else toast.error("Error", answer.error);
  }, [answer]);
  useEffect(() => {
    if (deleter.state !== "idle" || !deleter.data) return;
    if (deleter.data.ok) toast.success(deleter.data.message);
    else toast.error("Error", deleter.data.error);
  }, [deleter.state, deleter.data]);

  const importRefusal = answer && !answer.ok && answer.intent === "import" ? answer : null;
  const report = answer?.ok && answer.report ? answer.report : null;
  const query = new URLSearchParams();
  if (filter.search) query.set("q", filter.search);
  if (filter.newsletterId) query.set("newsletter", filter.newsletterId);
  if (filter.status) query.set("status", filter.status);
  const basePath = query.size ? `/admin/subscribers?${query}` : "/admin/subscribers";
  const filtered = Boolean(filter.search || filter.newsletterId || filter.status);

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Subscribers"
        action={
          canManage ? (
            <Button asChild variant="outline">
              <a href={query.size ? `/api/admin/subscribers.csv?${query}` : "/api/admin/subscribers.csv"} download>
                Export CSV
              </a>
            </Button>
          ) : undefined
        }
      />

      {canManage ? (
        <section aria-labelledby="import-subscribers" className="mb-6 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="import-subscribers" className="mb-1 font-semibold text-slate-900">
            Import CSV
          </h2>
          <p className="mb-3 text-sm text-slate-700">
            A header line naming an address column (<code>email</code>, <code>e-mail</code> or <code>address</code>), and optionally <code>name</code> and{" "}
            <code>newsletters</code> (their names or addresses, separated by ; or |; empty: every public newsletter). Every line is checked first; the good
            ones are imported together and each bad line is listed with its reason. Someone who once unsubscribed, bounced or complained is not
            resubscribed, and someone erased at their request is not added back.
          </p>
          <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3">
            <input type="hidden" name="intent" value="import" />
            <div className="flex flex-wrap items-center gap-3">
              <label htmlFor="subscribers-file" className="sr-only">
                CSV file
              </label>
              <input
                id="subscribers-file"
                type="file"
                name="file"
                accept=".csv,text/csv"
                required
                className="max-w-full text-sm text-slate-800"
                aria-invalid={importRefusal?.fieldErrors.file ? true : undefined}
                aria-describedby={importRefusal?.fieldErrors.file ? "subscribers-file-error" : undefined}
              />
            </div>
            <div>
              <label className="inline-flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="consent"
                  className="size-4"
                  aria-invalid={importRefusal?.fieldErrors.consent ? true : undefined}
                  aria-describedby={importRefusal?.fieldErrors.consent ? "subscribers-consent-error" : undefined}
                />
                These people agreed to receive it
              </label>
              {importRefusal?.fieldErrors.consent ? (
                <p id="subscribers-consent-error" className="mt-1 text-sm text-red-700">
                  {importRefusal.fieldErrors.consent}
                </p>
              ) : null}
            </div>
            <div>
              <Button type="submit" variant="outline" disabled={busy}>
                Import CSV
              </Button>
            </div>
          </Form>
          {importRefusal && !importRefusal.fieldErrors.consent ? (
            <p id="subscribers-file-error" className="mt-2 text-sm text-red-700">
              {importRefusal.error}
            </p>
          ) : null}
          {report ? (
            <div role="status" className="mt-3 text-sm text-slate-800">
              <p>Import finished: {importSummary(report)}</p>
              {report.problems.length > 0 ? (
                <ul className="mt-2 list-disc pl-5 text-red-700" aria-label="Lines not imported">
                  {report.problems.slice(0, 200).map((problem) => (
                    <li key={`${problem.line}-${problem.reason}`}>
                      Line {problem.line}: {problem.reason}
                    </li>
                  ))}
                  {report.problems.length > 200 ? <li>… and {report.problems.length - 200} more.</li> : null}
                </ul>
              ) : null}
              {report.skipped.length > 0 ? (
                <ul className="mt-2 list-disc pl-5 text-slate-700" aria-label="Skipped">
                  {report.skipped.slice(0, 200).map((skip) => (
                    <li key={skip.line}>
                      Line {skip.line}: {skip.email} skipped: {skip.reason}
                    </li>
                  ))}
                  {report.skipped.length > 200 ? <li>… and {report.skipped.length - 200} more.</li> : null}
                </ul>
              ) : null}
            </div>
          ) : null}
        </section>
      ) : null}

      <Form method="get" role="search" className="mb-3 flex flex-wrap items-end gap-3">
        <div className="space-y-1">
          <label htmlFor="subscribers-search" className="block text-sm font-medium text-slate-800">
            Address
          </label>
          <Input id="subscribers-search" type="search" name="q" defaultValue={filter.search} placeholder="Search by address" className="max-w-sm" />
        </div>
        <FilterSelect
          id="subscribers-newsletter"
          name="newsletter"
          label="Newsletter"
          value={filter.newsletterId}
          allLabel="All newsletters"
          options={newsletters.map((n) => [n.id, n.archived ? `${n.name} (archived)` : n.name] as const)}
        />
        <FilterSelect
          id="subscribers-status"
          name="status"
          label="State"
          value={filter.status}
          allLabel="Any state"
          options={SUBSCRIBER_STATES.map((s) => [s, STATE_LABELS[s]!] as const)}
        />
        <Button type="submit" variant="outline">
          Filter
        </Button>
        <span className="text-sm text-slate-700" data-testid="subscribers-total">
          {total === 1 ? "1 subscriber" : `${total} subscribers`}
        </span>
      </Form>

      {subscribers.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">
          {filtered ? "No subscriber matches these filters." : "No subscribers yet."}
        </p>
      ) : (
        <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Subscribers, newest first</caption>
            <thead className="bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Address</th>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">State</th>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Newsletters</th>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Consent</th>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Signed up</th>
                {canManage ? <th scope="col" className="px-4 py-3 text-right font-semibold max-md:px-2">Actions</th> : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {subscribers.map((row) => (
                <tr key={row.id} className="align-top" data-testid="subscriber-row">
                  <td className="min-w-40 px-4 py-3 break-all max-md:px-2">
                    <span className="text-slate-900">{row.email}</span>
                    {row.name ? <span className="block text-xs break-normal text-slate-600">{row.name}</span> : null}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap max-md:px-2">{STATE_LABELS[row.status] ?? row.status}</td>
                  <td className="min-w-32 px-4 py-3 max-md:px-2">{row.newsletters.length ? row.newsletters.join(", ") : "None"}</td>
                  <td className="min-w-32 px-4 py-3 text-slate-700 max-md:px-2">{row.consent ?? "—"}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-700 max-md:px-2">{row.createdAt}</td>
                  {canManage ? (
                    <td className="px-4 py-3 text-right max-md:px-2">
                      <ConfirmDeleteButton
                        label={`Delete subscriber ${row.email}`}
                        title="Delete Subscriber"
                        description={`Erase ${row.email} for good? Their subscriptions and their address in past sends are removed; only a hash is kept, so an import cannot add them back.`}
                        onConfirm={() => deleter.submit({ intent: "delete", id: row.id }, { method: "post" })}
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination basePath={basePath} page={page} pageCount={pageCount} className="mt-6" />
    </main>
  );
}
