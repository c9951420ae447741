import { useEffect } from "react";
import { data, Form, useActionData, useFetcher, useNavigation } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDeleteButton } from "~/components/admin/confirm-dialog";
import { Pagination } from "~/components/pagination";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { useAnswerToast } from "~/components/admin/use-answer-toast";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { parseRedirectsCsv } from "~/domain/redirects/redirects-csv.server";
import { REDIRECTS_PAGE_SIZE, redirectFormSchema, type RedirectFieldName } from "~/domain/redirects/redirects.schema";
import { createRedirect, deleteRedirect, importRedirectRows, listRedirects, updateRedirect } from "~/domain/redirects/redirects.server";
import { AppError } from "~/lib/app-error";
import { formatPublishDate } from "~/lib/dates";
import { formValues, parseForm, refuse, type Refusal } from "~/lib/forms";
import { pageCountOrRedirect, pageFromUrl } from "~/lib/pagination";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/redirects";

type RedirectIntent = "create" | "update" | "delete" | "import";
/** The CSV import's report: what was saved, and each line that was not. */
export interface ImportReport {
  added: number;
  updated: number;
  unchanged: number;
  problems: { line: number; reason: string }[];
}
/** What the screen's forms answer: done (with the import's report), or the refusal with the row it concerns (`id`: "new" for the add form). */
export type RedirectActionData =
  | { ok: true; intent: RedirectIntent; message: string; report?: ImportReport }
  | (Refusal<RedirectFieldName | "file"> & { id: string; intent: string });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "redirects.manage");
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").slice(0, 200);
  const page = pageFromUrl(request.url);
  const { rows, total } = await listRedirects(context.db, { search, page });
  const pageCount = pageCountOrRedirect(request.url, page, total, REDIRECTS_PAGE_SIZE);
  const timeZone = context.env.TIME_ZONE;
  return {
    search,
    page,
    pageCount,
    total,
    redirects: rows.map((row) => ({
      id: String(row.id),
      fromPath: row.fromPath,
      toPath: row.toPath,
      statusCode: row.statusCode,
      hits: row.hits,
      lastHit: row.lastHitAt ? formatPublishDate(row.lastHitAt, timeZone) : null,
      source: row.source,
    })),
  };
}

const idOf = (value: string) => (/^\d{1,15}$/.test(value) ? Number(value) : 0);
const importSummary = (r: ImportReport) =>
  `${r.added} added, ${r.updated} changed, ${r.unchanged} unchanged${r.problems.length > 0 ? `; ${r.problems.length} ${r.problems.length === 1 ? "line" : "lines"} not imported` : ""}.`;

/** Add, edit, delete and import (issue 29). A change reloads this process's table before answering, so the next request meets it. */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "redirects.manage"));
  const form = await request.formData();
  const { intent, id, ...values } = formValues(form, ["intent", "id", "fromPath", "toPath", "statusCode"]);
  try {
    let answer: RedirectActionData;
    if (intent === "create" || intent === "update") {
      const input = parseForm(redirectFormSchema, values);
      if (intent === "create") await createRedirect(context.db, actor, input);
      else await updateRedirect(context.db, actor, idOf(id), input);
      context.log.info({ from: input.fromPath, to: input.toPath }, intent === "create" ? "redirect added" : "redirect changed");
      answer = { ok: true, intent, message: intent === "create" ? `Redirect added: ${input.fromPath} → ${input.toPath}` : "Redirect saved" };
    } else if (intent === "delete") {
      await deleteRedirect(context.db, actor, idOf(id));
      answer = { ok: true, intent, message: "Redirect deleted" };
    } else if (intent === "import") {
      const file = form.get("file");
      if (!(file instanceof File) || file.size === 0) throw new AppError("invalid_input", "Choose a CSV file to import.", { field: "file" });
      const parsed = parseRedirectsCsv(await file.text());
      const saved = parsed.rows.length > 0 ? await importRedirectRows(context.db, actor, parsed.rows) : { added: 0, updated: 0, unchanged: 0, problems: [] };
      const report = { ...saved, problems: [...parsed.problems, ...saved.problems].sort((a, b) => a.line - b.line) };
      context.log.info({ added: report.added, updated: report.updated, refused: report.problems.length }, "redirects imported");
      answer = { ok: true, intent, message: `Import finished: ${importSummary(report)}`, report };
    } else {
      throw new AppError("invalid_input", "Unknown action.");
    }
    await context.redirects?.reload();
    return data<RedirectActionData>(answer);
  } catch (error) {
    const answer = refuse<RedirectFieldName | "file">(error, values);
    return data<RedirectActionData>({ ...answer.data, id: intent === "create" ? "new" : id, intent }, answer.init ?? undefined);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Redirects", path: "/admin/redirects" });

const selectClass = "h-10 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900";

/** The fields of the add form and of each row's edit form. */
function RedirectFields({ prefix, values, errors }: { prefix: string; values?: { fromPath?: string; toPath?: string; statusCode?: string }; errors: Partial<Record<string, string>> }) {
  const field = (name: "fromPath" | "toPath", label: string, placeholder: string) => (
    <div className="min-w-0 flex-1">
      <label htmlFor={`${prefix}-${name}`} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <Input
        id={`${prefix}-${name}`}
        name={name}
        defaultValue={values?.[name]}
        placeholder={placeholder}
        required
        maxLength={2048}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${prefix}-${name}-error` : undefined}
      />
      {errors[name] ? (
        <p id={`${prefix}-${name}-error`} className="mt-1 text-sm text-red-700">
          {errors[name]}
        </p>
      ) : null}
    </div>
  );
  return (
    <>
      {field("fromPath", "Old path", "/2019/05/some-story/")}
      {field("toPath", "New path or URL", "/article/some-story")}
      <div>
        <label htmlFor={`${prefix}-statusCode`} className="mb-1 block text-sm font-medium text-slate-800">
          Status
        </label>
        <select id={`${prefix}-statusCode`} name="statusCode" defaultValue={values?.statusCode ?? "301"} className={selectClass}>
          <option value="301">301 permanent</option>
          <option value="302">302 temporary</option>
        </select>
      </div>
    </>
  );
}

export default function AdminRedirects({ loaderData }: Route.ComponentProps) {
  const { redirects, search, page, pageCount, total } = loaderData;
  const answer = useActionData<typeof action>();
  const deleter = useFetcher<RedirectActionData>({ key: "redirect-delete" });
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";

  useAnswerToast(answer);
  useEffect(() => {
    if (deleter.state !== "idle" || !deleter.data) return;
    if (deleter.data.ok) toast.success("Redirect deleted");
    else toast.error("Error", deleter.data.error);
  }, [deleter.state, deleter.data]);

  const refusedFor = (id: string) => (answer && !answer.ok && answer.id === id ? answer : null);
  const added = refusedFor("new");
  const importRefusal = answer && !answer.ok && answer.intent === "import" ? answer : null;
  const report = answer?.ok && answer.report ? answer.report : null;
  const basePath = search ? `/admin/redirects?q=${encodeURIComponent(search)}` : "/admin/redirects";

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader
        title="Redirects"
        action={
          <Button asChild variant="outline">
            <a href="/api/admin/redirects.csv" download>
              Export CSV
            </a>
          </Button>
        }
      />
      <p className="mb-4 text-sm text-slate-700">
        An old address answers with a redirect to its new one before any page does, for readers and search engines alike. A trailing slash makes no
        difference; an old address may carry a query (/?p=123).
      </p>

      <section aria-labelledby="add-redirect" className="mb-6 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="add-redirect" className="mb-3 font-semibold text-slate-900">
          Add a redirect
        </h2>
        <Form method="post" className="flex flex-wrap items-start gap-3 max-md:flex-col max-md:items-stretch">
          <input type="hidden" name="intent" value="create" />
          <RedirectFields prefix="new" values={added?.values} errors={added?.fieldErrors ?? {}} key={answer?.ok && answer.intent === "create" ? answer.message : "new"} />
          <Button type="submit" disabled={busy} className="md:mt-6">
            Add redirect
          </Button>
        </Form>
      </section>

      <section aria-labelledby="import-redirects" className="mb-6 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="import-redirects" className="mb-1 font-semibold text-slate-900">
          Import CSV
        </h2>
        <p className="mb-3 text-sm text-slate-700">
          A header line <code>from,to,status</code>, then one redirect a line (status 301 or 302; empty is 301). Good lines are saved together; an old
          address already listed is changed to the file&apos;s new address; each bad line is listed below with its reason.
        </p>
        <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="import" />
          <label htmlFor="redirects-file" className="sr-only">
            CSV file
          </label>
          <input
            id="redirects-file"
            type="file"
            name="file"
            accept=".csv,text/csv"
            required
            className="max-w-full text-sm text-slate-800"
            aria-invalid={importRefusal ? true : undefined}
            aria-describedby={importRefusal ? "redirects-file-error" : undefined}
          />
          <Button type="submit" variant="outline" disabled={busy}>
            Import CSV
          </Button>
        </Form>
        {importRefusal ? (
          <p id="redirects-file-error" className="mt-2 text-sm text-red-700">
            {importRefusal.error}
          </p>
        ) : null}
        {report ? (
          <div role="status" className="mt-3 text-sm text-slate-800">
            <p>Import finished: {importSummary(report)}</p>
            {report.problems.length > 0 ? (
              <ul className="mt-2 list-disc pl-5 text-red-700">
                {report.problems.slice(0, 200).map((problem) => (
                  <li key={`${problem.line}-${problem.reason}`}>
                    Line {problem.line}: {problem.reason}
                  </li>
                ))}
                {report.problems.length > 200 ? <li>… and {report.problems.length - 200} more.</li> : null}
              </ul>
            ) : null}
          </div>
        ) : null}
      </section>

      <Form method="get" role="search" className="mb-3 flex flex-wrap items-center gap-2">
        <label htmlFor="redirects-search" className="sr-only">
          Search redirects
        </label>
        <Input id="redirects-search" type="search" name="q" defaultValue={search} placeholder="Search old or new paths" className="max-w-sm" />
        <Button type="submit" variant="outline">
          Search
        </Button>
        <span className="text-sm text-slate-700">
          {total === 1 ? "1 redirect" : `${total} redirects`}
          {search ? ` matching “${search}”` : ""}
        </span>
      </Form>

      {redirects.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">
          {search ? "No redirect matches this search." : "No redirects yet. Add one above, or import a CSV file."}
        </p>
      ) : (
        <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Redirects, newest first, with their hits</caption>
            <thead className="bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">From</th>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">To</th>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Status</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold max-md:px-2">Hits</th>
                <th scope="col" className="px-4 py-3 font-semibold max-md:px-2">Last hit</th>
                <th scope="col" className="px-4 py-3 text-right font-semibold max-md:px-2">Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {redirects.map((row) => {
                const refused = refusedFor(row.id);
                return (
                  <tr key={row.id} className="align-top">
                    <td className="min-w-36 px-4 py-3 font-mono text-xs break-all text-slate-900 max-md:px-2">{row.fromPath}</td>
                    <td className="min-w-36 px-4 py-3 font-mono text-xs break-all text-slate-900 max-md:px-2">{row.toPath}</td>
                    <td className="px-4 py-3 tabular-nums max-md:px-2">{row.statusCode}</td>
                    <td className="px-4 py-3 text-right tabular-nums max-md:px-2" data-testid="redirect-hits">
                      {row.hits}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-700 max-md:px-2">{row.lastHit ?? "Never"}</td>
                    <td className="px-4 py-3 max-md:px-2">
                      <div className="flex items-start justify-end gap-1">
                        <details className="group" open={refused ? true : undefined}>
                          <summary className="cursor-pointer list-none rounded-md px-2 py-2 text-sm font-medium text-slate-800 underline hover:bg-slate-100">
                            Edit<span className="sr-only"> {row.fromPath}</span>
                          </summary>
                          <Form method="post" className="mt-2 flex w-72 max-w-[80vw] flex-col gap-2">
                            <input type="hidden" name="intent" value="update" />
                            <input type="hidden" name="id" value={row.id} />
                            <RedirectFields
                              prefix={`edit-${row.id}`}
                              values={refused?.values ?? { fromPath: row.fromPath, toPath: row.toPath, statusCode: String(row.statusCode) }}
                              errors={refused?.fieldErrors ?? {}}
                            />
                            <Button type="submit" disabled={busy}>
                              Save redirect
                            </Button>
                          </Form>
                        </details>
                        <ConfirmDeleteButton
                          label={`Delete redirect ${row.fromPath}`}
                          title="Delete Redirect"
                          description={`Delete the redirect from ${row.fromPath} to ${row.toPath}? The old address will no longer lead anywhere.`}
                          onConfirm={() => deleter.submit({ intent: "delete", id: row.id }, { method: "post" })}
                        />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pagination basePath={basePath} page={page} pageCount={pageCount} className="mt-6" />
    </main>
  );
}
