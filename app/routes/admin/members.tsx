import { data, Form, Link, useActionData, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { useAnswerToast } from "~/components/admin/use-answer-toast";
import { useNoticeToast } from "~/components/admin/use-notice-toast";
import { FilterSelect } from "~/components/admin/filter-select";
import { Pagination } from "~/components/pagination";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { can } from "~/domain/accounts/roles";
import { listMembers, listTierChoices } from "~/domain/members/members-admin.server";
import {
  formatMoney,
  IMPORT_NEEDS_DRY_RUN,
  MEMBER_STATUS_LABELS,
  MEMBER_STATUSES,
  memberFilterOf,
  memberFilterQuery,
  MEMBERS_PAGE_SIZE,
  NEWSLETTER_NONE,
  NEWSLETTER_UNSUBSCRIBED,
  TIER_ANY_PAID,
  TIER_FREE,
} from "~/domain/members/members-admin.schema";
import { listNewslettersForAdmin } from "~/domain/newsletters/newsletter-admin.server";
import { CONSENT_REQUIRED } from "~/domain/newsletters/subscribers-admin.schema";
import { importSubscribers, type SubscriberImportReport } from "~/domain/newsletters/subscribers-admin.server";
import { csvDigest, parseSubscribersCsv } from "~/domain/newsletters/subscribers-csv.server";
import { AppError } from "~/lib/app-error";
import { formatCardDate } from "~/lib/dates";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { pageCountOrRedirect, pageFromUrl } from "~/lib/pagination";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/members";

export type MembersActionData =
  | { ok: true; intent: string; message: string; report: SubscriberImportReport; digest: string; fileName: string }
  | (Refusal<"file" | "consent"> & { intent: string });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "members.view");
  const url = new URL(request.url);
  const filter = memberFilterOf(url.searchParams);
  const page = pageFromUrl(request.url);
  const billing = can(user.role, "members.billing");
  const timeZone = context.env.TIME_ZONE;
  const [{ rows, total }, newsletters, tiers] = await Promise.all([
    listMembers(context.db, filter, page, { billing, timeZone }),
    listNewslettersForAdmin(context.db),
    listTierChoices(context.db),
  ]);
  const pageCount = pageCountOrRedirect(request.url, page, total, MEMBERS_PAGE_SIZE);
  const currency = context.env.CURRENCY;
  return {
    filter,
    page,
    pageCount,
    total,
    // Import and export: admins only (the server refuses the others whatever this shows).
    canManage: can(user.role, "members.manage"),
    billing,
    newsletters: newsletters.map((n) => ({ id: n.id, name: n.name, archived: n.archivedAt !== null })),
    tiers,
    members: rows.map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      status: row.memberStatus,
      tiers: row.tiers,
      newsletters: row.newsletters,
      createdAt: formatCardDate(row.createdAt, timeZone),
      // Editors never receive an amount: the loader leaves it out, not the screen.
      ...(billing && row.monthlyAmount !== undefined ? { monthly: row.monthlyAmount > 0 ? `${formatMoney(row.monthlyAmount, currency)}/mo` : "—" } : {}),
    })),
  };
}

/** Import a members CSV: a dry run, then the import of the same file (admins: members.manage, enforced before anything is read). */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "members.manage"));
  const form = await request.formData();
  const { intent, consent, dryRunOf } = formValues(form, ["intent", "consent", "dryRunOf"]);
  try {
    if (intent !== "dry-run" && intent !== "import") throw new AppError("invalid_input", "Unknown action.");
    if (consent !== "on") throw new AppError("invalid_input", CONSENT_REQUIRED, { field: "consent" });
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new AppError("invalid_input", "Choose a CSV file to import.", { field: "file" });
    const text = await file.text();
    const digest = csvDigest(text);
    const dryRun = intent === "dry-run";
    if (!dryRun && dryRunOf !== digest) throw new AppError("invalid_input", IMPORT_NEEDS_DRY_RUN, { field: "file" });
    const parsed = parseSubscribersCsv(text);
    const report = await importSubscribers(context.db, actor, parsed.rows, { consent: true, fileProblems: parsed.problems, dryRun, activity: "members.import" });
    if (!dryRun) context.log.info({ added: report.added, updated: report.updated, unchanged: report.unchanged, skipped: report.skipped.length, refused: report.problems.length }, "members imported");
    return data<MembersActionData>({ ok: true, intent, message: `${dryRun ? "Dry run" : "Import finished"}: ${importSummary(report)}`, report, digest, fileName: file.name });
  } catch (error) {
    const answer = refuse<"file" | "consent">(error);
    return data<MembersActionData>({ ...answer.data, intent }, answer.init ?? undefined);
  }
}

function importSummary(r: SubscriberImportReport) {
  const verb = r.dryRun ? ["would be added", "would be updated", "unchanged", "would be skipped"] : ["added", "updated", "unchanged", "skipped"];
  const refused = r.problems.length > 0 ? `; ${r.problems.length} ${r.problems.length === 1 ? "line" : "lines"} cannot be imported` : "";
  return `${r.added} ${verb[0]}, ${r.updated} ${verb[1]}, ${r.unchanged} ${verb[2]}, ${r.skipped.length} ${verb[3]}${refused}.`;
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Members", path: "/admin/members" });

const ACTION_LABELS = { create: "Add", update: "Update", unchanged: "Unchanged", skip: "Skip" } as const;

export default function AdminMembers({ loaderData }: Route.ComponentProps) {
  const { members, filter, page, pageCount, total, canManage, billing, newsletters, tiers } = loaderData;
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  useNoticeToast();

  useAnswerToast(answer);

  const refusal = answer && !answer.ok ? answer : null;
  const report = answer?.ok ? answer : null;
  // The import button carries the dry run's fingerprint: the server imports only the file it was shown.
  const dryRun = report?.report.dryRun ? report : null;
  const query = memberFilterQuery(filter);
  const basePath = query.size ? `/admin/members?${query}` : "/admin/members";
  const filtered = query.size > 0;

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Members"
        description="Readers with an account: newsletter subscribers, free and paying members."
        action={
          canManage ? (
            <Button asChild variant="outline">
              <a href={query.size ? `/api/admin/members.csv?${query}` : "/api/admin/members.csv"} download>
                Export CSV
              </a>
            </Button>
          ) : undefined
        }
      />

      <Form method="get" role="search" className="mb-3 flex flex-wrap items-end gap-3" aria-label="Filter members">
        <div className="max-w-full space-y-1">
          <label htmlFor="members-search" className="block text-sm font-medium text-slate-800">
            Search
          </label>
          <Input id="members-search" type="search" name="q" defaultValue={filter.search} placeholder="E-mail or name" className="max-w-xs" />
        </div>
        <FilterSelect
          id="members-tier"
          name="tier"
          label="Tier"
          value={filter.tier}
          allLabel="Any tier"
          options={[[TIER_FREE, "Free"] as const, [TIER_ANY_PAID, "Any paid tier"] as const, ...tiers.map((t) => [t.id, t.archived ? `${t.name} (archived)` : t.name] as const)]}
        />
        <FilterSelect
          id="members-status"
          name="status"
          label="Status"
          value={filter.status}
          allLabel="Any status"
          options={MEMBER_STATUSES.map((s) => [s, MEMBER_STATUS_LABELS[s]] as const)}
        />
        <FilterSelect
          id="members-newsletter"
          name="newsletter"
          label="Newsletter"
          value={filter.newsletter}
          allLabel="Any"
          options={[
            ...newsletters.map((n) => [n.id, `Subscribed to ${n.archived ? `${n.name} (archived)` : n.name}`] as const),
            [NEWSLETTER_NONE, "On no newsletter"] as const,
            [NEWSLETTER_UNSUBSCRIBED, "Unsubscribed"] as const,
          ]}
        />
        <div className="w-40 space-y-1">
          <label htmlFor="members-from" className="block text-sm font-medium text-slate-800">
            Signed up from
          </label>
          <Input id="members-from" type="date" name="from" defaultValue={filter.from ?? ""} />
        </div>
        <div className="w-40 space-y-1">
          <label htmlFor="members-to" className="block text-sm font-medium text-slate-800">
            to
          </label>
          <Input id="members-to" type="date" name="to" defaultValue={filter.to ?? ""} />
        </div>
        {filter.state ? <input type="hidden" name="state" value={filter.state} /> : null}
        <Button type="submit" variant="outline">
          Filter
        </Button>
        <span className="text-sm text-slate-700" data-testid="members-total" role="status">
          {total === 1 ? "1 member" : `${total} members`}
        </span>
      </Form>

      {members.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">{filtered ? "No member matches these filters." : "No members yet."}</p>
      ) : (
        <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Members, newest first</caption>
            <thead className="bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Member</th>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Status</th>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Tier</th>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2 max-sm:hidden">Newsletters</th>
                {billing ? <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Pays</th> : null}
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2 max-sm:hidden">Signed up</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {members.map((row) => (
                <tr key={row.id} className="align-top" data-testid="member-row">
                  <td className="min-w-40 px-4 py-3 break-all max-md:px-2">
                    <Link to={`/admin/members/${row.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                      {row.email}
                    </Link>
                    {row.name ? <span className="block text-xs break-normal text-slate-600">{row.name}</span> : null}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap max-md:px-2">{MEMBER_STATUS_LABELS[row.status]}</td>
                  <td className="px-4 py-3 max-md:px-2">{row.tiers.length ? row.tiers.join(", ") : "Free"}</td>
                  <td className="min-w-32 px-4 py-3 max-md:px-2 max-sm:hidden">{row.newsletters.length ? row.newsletters.join(", ") : "None"}</td>
                  {billing ? (
                    <td className="px-4 py-3 whitespace-nowrap max-md:px-2" data-testid="member-amount">
                      {"monthly" in row ? row.monthly : "—"}
                    </td>
                  ) : null}
                  <td className="px-4 py-3 whitespace-nowrap text-slate-700 max-md:px-2 max-sm:hidden">{row.createdAt}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination basePath={basePath} page={page} pageCount={pageCount} className="mt-6" />

      {canManage ? (
        <section aria-labelledby="import-members" className="mt-8 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="import-members" className="mb-1 font-semibold text-slate-900">
            Import CSV
          </h2>
          <p className="mb-3 text-sm text-slate-700">
            Ghost&rsquo;s members export, Substack&rsquo;s subscriber export, or a file with an <code>email</code> column (and optionally <code>name</code> and{" "}
            <code>newsletters</code>). A dry run shows what would be added, updated or skipped, and why; then import the same file. Running it again changes
            nothing. Complimentary plans go to the tier the file names, else to the first paid tier; a paying member keeps their Stripe customer and their
            subscription arrives from Stripe. Nobody who unsubscribed, bounced, complained or was erased is added back.
          </p>
          <Form method="post" encType="multipart/form-data" className="flex flex-col gap-3">
            {dryRun ? <input type="hidden" name="dryRunOf" value={dryRun.digest} /> : null}
            <div>
              <label htmlFor="members-file" className="mb-1 block text-sm font-medium text-slate-800">
                CSV file
              </label>
              <input
                id="members-file"
                type="file"
                name="file"
                accept=".csv,text/csv"
                required
                className="max-w-full text-sm text-slate-800"
                aria-invalid={refusal?.fieldErrors.file ? true : undefined}
                aria-describedby={refusal?.fieldErrors.file ? "members-file-error" : undefined}
              />
              {refusal?.fieldErrors.file ? (
                <p id="members-file-error" className="mt-1 text-sm text-red-700">
                  {refusal.fieldErrors.file}
                </p>
              ) : null}
            </div>
            <div>
              <label className="inline-flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="consent"
                  className="size-4"
                  defaultChecked={Boolean(dryRun)}
                  aria-invalid={refusal?.fieldErrors.consent ? true : undefined}
                  aria-describedby={refusal?.fieldErrors.consent ? "members-consent-error" : undefined}
                />
                These people agreed to receive it
              </label>
              {refusal?.fieldErrors.consent ? (
                <p id="members-consent-error" className="mt-1 text-sm text-red-700">
                  {refusal.fieldErrors.consent}
                </p>
              ) : null}
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" name="intent" value="dry-run" variant="outline" disabled={busy}>
                Dry run
              </Button>
              <Button type="submit" name="intent" value="import" disabled={busy || !dryRun}>
                Import
              </Button>
            </div>
          </Form>
          {report ? <ImportReport report={report.report} summary={report.message} fileName={report.fileName} /> : null}
        </section>
      ) : null}
    </main>
  );
}

function ImportReport({ report, summary, fileName }: { report: SubscriberImportReport; summary: string; fileName: string }) {
  const shown = report.lines.filter((l) => l.action !== "unchanged").slice(0, 200);
  return (
    <div role="status" className="mt-4 text-sm text-slate-800" data-testid="import-report">
      <p className="font-medium">
        {fileName}: {summary}
      </p>
      {report.dryRun ? <p className="text-slate-700">Nothing has been written yet: check the lines below, then choose Import.</p> : null}
      {report.problems.length > 0 ? (
        <ul className="mt-2 list-disc pl-5 text-red-700" aria-label="Lines that cannot be imported">
          {report.problems.slice(0, 200).map((problem) => (
            <li key={`${problem.line}-${problem.reason}`}>
              Line {problem.line}: {problem.reason}
            </li>
          ))}
          {report.problems.length > 200 ? <li>… and {report.problems.length - 200} more.</li> : null}
        </ul>
      ) : null}
      {shown.length > 0 ? (
        <ul className="mt-2 list-disc pl-5 text-slate-700" aria-label="What each line does">
          {shown.map((l) => (
            <li key={l.line}>
              Line {l.line}: {ACTION_LABELS[l.action]} {l.email}
              {l.notes.length ? ` (${l.notes.join("; ")})` : ""}
            </li>
          ))}
          {report.lines.length > shown.length + report.unchanged ? <li>… and more.</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
