import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useActionData, useNavigate, useNavigation, useRevalidator, useSubmit } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDialog } from "~/components/admin/confirm-dialog";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { importFollowUps, importOfFile, listImports, pinStickyChoice, startImport, startMediaRetry } from "~/domain/import/import-admin.server";
import { importReport, type ImportSummary } from "~/domain/import/import-engine.server";
import { AppError } from "~/lib/app-error";
import { formatCommentDate, useSiteTimeZone } from "~/lib/dates";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import { formatCount, formatQuantity } from "~/lib/numbers";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/import";

/** Notes shown on the screen; the downloaded report holds them all. */
const NOTES_SHOWN = 200;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "import.run");
  const url = new URL(request.url);
  const imports = await listImports(context.db);
  const wanted = url.searchParams.get("id");
  const selectedId = wanted && isUuid(wanted) ? wanted : imports[0]?.id;
  const report = selectedId ? await importReport(context.db, selectedId) : null;
  const selected = report ? imports.find((i) => i.id === report.id) : undefined;
  const followUp = report?.dryRun && selected ? await importOfFile(context.db, selected.filePath) : null;
  return {
    imports: imports.map((i) => ({ id: i.id, fileName: i.fileName, kind: i.kind, dryRun: i.dryRun, retryMedia: i.retryMedia, status: i.status, createdAt: i.createdAt.toISOString() })),
    selected: report
      ? {
          ...report,
          notes: report.notes.slice(0, NOTES_SHOWN),
          noteCount: report.notes.length,
          redirects: report.redirects.length,
          phase: selected?.phase ?? null,
          done: selected?.done ?? 0,
          total: selected?.total ?? 0,
        }
      : null,
    followUpId: followUp?.id ?? null,
    followUps: report ? await importFollowUps(context.db, report) : null,
    refused: url.searchParams.get("refused")?.slice(0, 500) ?? null,
  };
}

type ImportActionData = { ok: true; id: string; intent: "start" | "retry-media" } | Refusal<"id" | "pinSticky">;

/**
 * "Start import" of a finished dry run, with its choice of pinning sticky posts, and "Retry missing
 * images" of a finished import (the upload itself goes to /api/admin/imports: it streams).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "import.run"));
  const { intent, id, pinSticky } = formValues(await request.formData(), ["intent", "id", "pinSticky"]);
  try {
    if ((intent !== "start" && intent !== "retry-media") || !isUuid(id)) throw new AppError("invalid_input", "Unknown action.");
    if (intent === "retry-media") {
      const retry = await startMediaRetry(context.db, id, actor);
      context.log.info({ importId: retry, of: id }, "missing images retry started");
      return data<ImportActionData>({ ok: true, id: retry, intent });
    }
    const started = await startImport(context.db, id, actor, { pinSticky: pinStickyChoice(pinSticky) });
    context.log.info({ importId: started, dryRunId: id }, "import started");
    return data<ImportActionData>({ ok: true, id: started, intent });
  } catch (error) {
    return refuse<"id" | "pinSticky">(error);
  }
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Import", path: "/admin/import" });

/** "3 sticky posts would become top stories". */
const stickyLine = (n: number) => `${formatQuantity(n, "sticky post")} would become ${n === 1 ? "a top story" : "top stories"}`;

const STATUS_LABEL = { waiting: "Waiting to start", running: "Running", done: "Finished", failed: "Failed" } as const;
const KIND_LABEL = { wordpress: "WordPress", ghost: "Ghost" } as const;

function SummaryTable({ summary, dryRun, retryMedia }: { summary: ImportSummary; dryRun: boolean; retryMedia: boolean }) {
  // Counts an import made before issue 39 did not keep are left out, not shown as 0.
  const kept = (label: string, value: number | undefined): [string, number][] => (value === undefined ? [] : [[label, value]]);
  const rows: [string, number][] = retryMedia
    ? [["Images fetched", summary.images], ["Images still missing", summary.missingImages ?? 0], ...kept("Images without alt text", summary.imagesWithoutAlt)]
    : [
        ["Posts", summary.posts],
        ["Pages", summary.pages],
        ["Comments", summary.comments],
        ["New authors", summary.authors],
        ["New categories", summary.categories],
        ["Images", summary.images],
        ...kept("Images that could not be fetched", summary.missingImages),
        ...kept("Images without alt text", summary.imagesWithoutAlt),
        ...kept("Sticky posts", summary.sticky),
        ...(dryRun ? [] : kept("Pinned as top stories", summary.sticky === undefined ? undefined : (summary.pinned ?? 0))),
        ["Redirects from old addresses", summary.redirects],
        ["Already imported before", summary.unchanged],
        ["Skipped", summary.skipped],
      ];
  return (
    <table className="w-full max-w-md text-left text-sm">
      <caption className="sr-only">{retryMedia ? "What the retry brought in" : dryRun ? "What the import would bring in" : "What the import brought in"}</caption>
      <tbody className="divide-y divide-slate-200">
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row" className="py-1.5 pr-4 font-normal text-slate-700">
              {label}
            </th>
            <td className="py-1.5 text-right font-medium tabular-nums text-slate-900">{formatCount(value ?? 0)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function AdminImport({ loaderData }: Route.ComponentProps) {
  const { imports, selected, followUpId, followUps, refused } = loaderData;
  const timeZone = useSiteTimeZone();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const submit = useSubmit();
  const revalidator = useRevalidator();
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(refused);
  const fileInput = useRef<HTMLInputElement>(null);
  const live = selected && (selected.status === "waiting" || selected.status === "running");

  // Progress, live: the screen reads the import again every second while it waits or runs.
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 1000);
    return () => clearInterval(timer);
  }, [live, revalidator]);

  useEffect(() => {
    if (!answer) return;
    if (answer.ok) {
      toast.success(answer.intent === "retry-media" ? "Retry of the missing images started" : "Import started");
      navigate(`/admin/import?id=${answer.id}`);
    } else toast.error("Error", answer.error);
  }, [answer, navigate]);
  // "Pin sticky posts as top stories" in the Start import dialog: the site's default until changed.
  const [pinSticky, setPinSticky] = useState<boolean | null>(null);
  const pinStickyChecked = pinSticky ?? followUps?.pinStickyByDefault ?? false;
  const sticky = selected?.summary.sticky ?? 0;

  async function upload(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!file) {
      setUploadError("Choose an export file first.");
      return;
    }
    setUploading(true);
    setUploadError(null);
    try {
      const body = new FormData();
      body.append("file", file);
      const response = await fetch("/api/admin/imports", { method: "POST", body, headers: { Accept: "application/json" }, credentials: "same-origin" });
      const result = (await response.json().catch(() => null)) as { url?: string; error?: string } | null;
      if (!response.ok || !result?.url) throw new Error(result?.error || `The upload failed (HTTP ${response.status}).`);
      toast.success("Export uploaded: dry run started");
      navigate(result.url);
    } catch (error) {
      setUploadError((error as Error).message);
    } finally {
      setUploading(false);
    }
  }

  const percent = selected && selected.total > 0 ? Math.round((100 * selected.done) / selected.total) : 0;

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader title="Import" />
      <p className="mb-6 max-w-3xl text-sm text-slate-700">
        Move a WordPress site (its WXR export: Tools → Export → All content) or a Ghost site (Settings → Labs → Export your content) in: posts, pages,
        authors, categories, tags, images and comments, with a redirect from every old address. A dry run reads the whole file first and reports what
        it would bring in and what it cannot convert; nothing is written until you start the import. Running an import again adds only what is new.
      </p>

      <section aria-labelledby="upload-heading" className="mb-8 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="upload-heading" className="mb-3 text-base font-semibold text-slate-900">
          Upload an export
        </h2>
        <Form method="post" action="/api/admin/imports" encType="multipart/form-data" reloadDocument onSubmit={upload} className="flex flex-wrap items-end gap-3">
          <div className="min-w-0">
            <label htmlFor="import-file" className="mb-1 block text-sm font-medium text-slate-800">
              Export file (.xml or .json)
            </label>
            <input
              ref={fileInput}
              id="import-file"
              name="file"
              type="file"
              accept=".xml,.json,application/xml,text/xml,application/json"
              required
              aria-invalid={uploadError ? true : undefined}
              aria-describedby={uploadError ? "import-file-error" : undefined}
              className="block w-full max-w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-2"
            />
          </div>
          <Button type="submit" disabled={uploading}>
            {uploading ? "Uploading…" : "Upload and run a dry run"}
          </Button>
        </Form>
        {uploadError ? (
          <p id="import-file-error" role="alert" className="mt-2 text-sm text-red-700">
            {uploadError}
          </p>
        ) : null}
        <p className="mt-2 text-xs text-slate-700">
          Images are fetched from the old site&apos;s addresses. For a very large site, or to take images from a copy of wp-content/uploads, run{" "}
          <code>npm run import</code> on the server (see docs/import.md).
        </p>
      </section>

      {selected ? (
        <section aria-labelledby="selected-heading" className="mb-8 rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="selected-heading" className="text-base font-semibold break-words text-slate-900">
            {selected.retryMedia ? "Retry of the missing images" : selected.dryRun ? "Dry run" : "Import"} of {selected.fileName} ({KIND_LABEL[selected.kind]})
          </h2>
          <p className="mt-1 text-sm text-slate-800" role="status">
            <strong>{STATUS_LABEL[selected.status]}</strong>
            {live && selected.phase ? ` — ${selected.phase}` : null}
            {selected.finishedAt ? ` — ended ${formatCommentDate(selected.finishedAt, timeZone)}` : null}
          </p>
          {live ? (
            <div className="mt-3 max-w-md">
              <progress className="h-3 w-full" max={Math.max(selected.total, 1)} value={selected.done} aria-label="Stories done" />
              <p className="mt-1 text-sm tabular-nums text-slate-800">
                {formatCount(selected.done)} of {formatCount(selected.total)} stories ({percent}%)
              </p>
            </div>
          ) : null}
          {selected.error ? (
            <p role="alert" className="mt-3 text-sm text-red-700">
              {selected.error}
            </p>
          ) : null}

          <div className="mt-4">
            <SummaryTable summary={selected.summary} dryRun={selected.dryRun} retryMedia={selected.retryMedia} />
          </div>

          {selected.dryRun && followUps && followUps.stickyPosts.length > 0 ? (
            <div className="mt-4">
              <h3 id="sticky-heading" className="mb-1 text-sm font-semibold text-slate-900">
                Sticky posts
              </h3>
              <p className="text-sm text-slate-800">
                {stickyLine(sticky)} if you choose so when you start the import (
                {followUps.pinStickyByDefault ? "chosen to begin with: this site has no story yet" : "not chosen to begin with: this site has stories"}):
              </p>
              <ul aria-labelledby="sticky-heading" className="mt-1 list-disc pl-5 text-sm break-words text-slate-800">
                {followUps.stickyPosts.map((what) => (
                  <li key={what}>{what}</li>
                ))}
              </ul>
            </div>
          ) : null}

          {followUps && followUps.missingImages > 0 ? (
            <div className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3">
              <p className="text-sm text-slate-900">
                {formatQuantity(followUps.missingImages, "image")} of this site could not be fetched: each story links to the image&apos;s old
                address instead, until it is fetched.
              </p>
              <Form method="post" className="mt-2">
                <input type="hidden" name="intent" value="retry-media" />
                <input type="hidden" name="id" value={selected.id} />
                <Button type="submit" variant="outline" disabled={navigation.state !== "idle"}>
                  Retry missing images
                </Button>
              </Form>
            </div>
          ) : null}

          {followUps && selected.summary.imagesWithoutAlt ? (
            <div className="mt-4">
              <h3 className="mb-1 text-sm font-semibold text-slate-900">Images without alt text</h3>
              <p className="text-sm text-slate-800">
                {formatQuantity(selected.summary.imagesWithoutAlt, "image")} {selected.summary.imagesWithoutAlt === 1 ? "has" : "have"} no alt text: the old
                site had none, and none was made up.{" "}
                {followUps.withoutAlt.total > 0
                  ? `Describe them for readers who cannot see them: ${formatQuantity(followUps.withoutAlt.total, "story still shows one", "stories still show one")}.`
                  : "Every one has been described since."}
              </p>
              {followUps.withoutAlt.stories.length > 0 ? (
                <ul aria-label="Stories with images without alt text" className="mt-1 space-y-1 text-sm text-slate-800">
                  {followUps.withoutAlt.stories.map((story) => (
                    <li key={story.editPath} className="break-words">
                      <Link to={story.editPath} className="text-brand-700 underline">
                        {story.title}
                      </Link>{" "}
                      ({formatQuantity(story.images, "image")})
                    </li>
                  ))}
                </ul>
              ) : null}
              {followUps.withoutAlt.total > followUps.withoutAlt.stories.length ? (
                <p className="mt-1 text-xs text-slate-700">The first {followUps.withoutAlt.stories.length}; the report names every one.</p>
              ) : null}
            </div>
          ) : null}

          <div className="mt-4 flex flex-wrap gap-3">
            <Button asChild variant="outline">
              <a href={`/api/admin/imports/${selected.id}/report`} download>
                Download the report
              </a>
            </Button>
            {selected.dryRun && selected.status === "done" && !followUpId ? (
              <ConfirmDialog
                trigger={<Button disabled={navigation.state !== "idle"}>Start import</Button>}
                title="Import this site now?"
                description={`${formatQuantity(selected.summary.posts, "post")} and ${formatQuantity(selected.summary.pages, "page")} come in. Those published on the old site are public here at once, and their old addresses redirect to them. Running it again later adds only what is new.`}
                confirmLabel="Start import"
                onConfirm={() => submit({ intent: "start", id: selected.id, pinSticky: sticky > 0 && pinStickyChecked ? "yes" : "no" }, { method: "post" })}
              >
                {sticky > 0 ? (
                  <div className="mt-4 space-y-1">
                    <label className="flex items-start gap-2 text-sm font-medium text-slate-800">
                      <input
                        type="checkbox"
                        checked={pinStickyChecked}
                        onChange={(event) => setPinSticky(event.target.checked)}
                        aria-describedby="pin-sticky-hint"
                        className="mt-0.5 size-4 shrink-0 rounded border-slate-300"
                      />
                      Pin sticky posts as top stories
                    </label>
                    <p id="pin-sticky-hint" className="text-xs text-slate-700">
                      {stickyLine(sticky)} on the home page, after those pinned there now.
                    </p>
                  </div>
                ) : null}
              </ConfirmDialog>
            ) : null}
            {followUpId ? (
              <Button asChild variant="link">
                <Link to={`/admin/import?id=${followUpId}`}>See this file&apos;s import</Link>
              </Button>
            ) : null}
          </div>

          <h3 className="mt-6 mb-2 text-sm font-semibold text-slate-900">
            Notes ({formatCount(selected.noteCount)}){selected.noteCount > selected.notes.length ? `: the first ${selected.notes.length}, the report has all` : null}
          </h3>
          {selected.notes.length === 0 ? (
            <p className="text-sm text-slate-700">Nothing to report.</p>
          ) : (
            <ul className="max-h-96 space-y-1 overflow-y-auto text-sm text-slate-800">
              {selected.notes.map((note, i) => (
                <li key={i} className="break-words">
                  <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">{note.kind}</span>
                  <span className="font-medium">{note.what}</span>: {note.message}
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}

      <section aria-labelledby="history-heading">
        <h2 id="history-heading" className="mb-3 text-base font-semibold text-slate-900">
          Earlier imports
        </h2>
        {imports.length === 0 ? (
          <p className="text-sm text-slate-700">No import yet.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50 text-slate-800">
                <tr>
                  <th scope="col" className="px-4 py-2 font-semibold">File</th>
                  <th scope="col" className="px-4 py-2 font-semibold">Kind</th>
                  <th scope="col" className="px-4 py-2 font-semibold">Status</th>
                  <th scope="col" className="px-4 py-2 font-semibold">Uploaded</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {imports.map((row) => (
                  <tr key={row.id}>
                    <td className="min-w-40 px-4 py-2 break-all">
                      <Link to={`/admin/import?id=${row.id}`} className="text-brand-700 underline" aria-current={row.id === selected?.id ? "true" : undefined}>
                        {row.fileName}
                      </Link>
                    </td>
                    <td className="px-4 py-2">
                      {KIND_LABEL[row.kind]}
                      {row.dryRun ? ", dry run" : row.retryMedia ? ", missing images" : ""}
                    </td>
                    <td className="px-4 py-2">{STATUS_LABEL[row.status]}</td>
                    <td className="px-4 py-2 whitespace-nowrap">{formatCommentDate(row.createdAt, timeZone)}</td>
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
