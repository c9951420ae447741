import { Loader2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Label, Textarea } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import type { ArticleStatusName } from "~/domain/articles/articles.schema";
import {
  ADD_NOTE_INTENT,
  ARTICLE_NOTE_KIND_LABELS,
  ARTICLE_NOTE_KINDS,
  ARTICLE_NOTE_MAX_LENGTH,
  DELETE_NOTE_INTENT,
  type AdminArticleNote,
  type ArticleNoteFieldName,
} from "~/domain/articles/corrections.schema";
import { formatPublishDate, useSiteTimeZone } from "~/lib/dates";
import { refusalNotice, type Refusal } from "~/lib/forms";
import { ConfirmDeleteButton } from "./confirm-dialog";

/**
 * The edit page's "Corrections and updates": dated notes readers see under the byline (decision
 * 0012). Each add or delete is its own request (intent add-note / delete-note), never part of the
 * article form's save; success reloads the page with the "Note added" / "Note deleted" notice.
 */
export function ArticleNotesPanel({ articleStatus, notes }: { articleStatus: ArticleStatusName; notes: AdminArticleNote[] }) {
  const timeZone = useSiteTimeZone();
  const adding = useFetcher<Refusal<ArticleNoteFieldName | "intent">>();
  const deleting = useFetcher<Refusal<"noteId" | "intent">>();
  const formRef = useRef<HTMLFormElement>(null);
  const failure = adding.data;
  const errors = failure?.fieldErrors ?? {};
  const busy = adding.state !== "idle";

  useEffect(() => {
    if (failure) toast.error(...refusalNotice(failure));
  }, [failure]);
  useEffect(() => {
    if (deleting.data) toast.error(...refusalNotice(deleting.data));
  }, [deleting.data]);
  // A note that was added (the answer redirected: no data came back) clears the form.
  const wasBusy = useRef(false);
  useEffect(() => {
    if (busy) wasBusy.current = true;
    else if (wasBusy.current) {
      wasBusy.current = false;
      if (!adding.data) formRef.current?.reset();
    }
  }, [busy, adding.data]);

  return (
    <section aria-labelledby="notes-heading" className="mt-8 space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <div>
        <h2 id="notes-heading" className="text-xl font-semibold text-slate-900">
          Corrections and updates
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Dated notes shown under the byline, newest first. Adding one also shows the article as updated today.
        </p>
      </div>

      {notes.length > 0 ? (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" data-testid="admin-article-notes">
          {notes.map((note) => (
            <li key={note.id} className="flex items-start gap-3 p-3 text-sm">
              <div className="min-w-0 flex-1">
                <p className="font-medium text-slate-900">
                  {ARTICLE_NOTE_KIND_LABELS[note.kind]}, {formatPublishDate(note.createdAt, timeZone)}{" "}
                  <span className="font-normal text-slate-600">by {note.createdByName}</span>
                </p>
                <p className="mt-1 break-words whitespace-pre-line text-slate-800">{note.text}</p>
              </div>
              <ConfirmDeleteButton
                label={`Delete the ${ARTICLE_NOTE_KIND_LABELS[note.kind].toLowerCase()} of ${formatPublishDate(note.createdAt, timeZone)}`}
                title="Delete Note"
                description="Are you sure you want to delete this note? Readers will no longer see it."
                disabled={deleting.state !== "idle"}
                onConfirm={() => deleting.submit({ intent: DELETE_NOTE_INTENT, noteId: note.id }, { method: "post" })}
              />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">No notes yet.</p>
      )}

      {articleStatus === "published" ? (
        <adding.Form ref={formRef} method="post" noValidate className="space-y-3">
          <input type="hidden" name="intent" value={ADD_NOTE_INTENT} />
          <div className="space-y-2">
            <Label htmlFor="note-kind">Kind</Label>
            <select
              id="note-kind"
              name="kind"
              defaultValue="correction"
              aria-invalid={errors.kind ? true : undefined}
              aria-describedby={errors.kind ? "note-kind-error" : undefined}
              className="block h-10 w-full max-w-xs rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900"
            >
              {ARTICLE_NOTE_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {ARTICLE_NOTE_KIND_LABELS[kind]}
                </option>
              ))}
            </select>
            {errors.kind ? (
              <p id="note-kind-error" className="text-sm text-red-700">
                {errors.kind}
              </p>
            ) : null}
          </div>
          <div className="space-y-2">
            <Label htmlFor="note-text">Note *</Label>
            <Textarea
              id="note-text"
              name="text"
              rows={3}
              maxLength={ARTICLE_NOTE_MAX_LENGTH}
              aria-required="true"
              aria-invalid={errors.text ? true : undefined}
              aria-describedby={errors.text ? "note-text-error" : "note-text-hint"}
            />
            {errors.text ? (
              <p id="note-text-error" className="text-sm text-red-700">
                {errors.text}
              </p>
            ) : (
              <p id="note-text-hint" className="text-xs text-slate-600">
                Up to {ARTICLE_NOTE_MAX_LENGTH} characters, shown as plain text.
              </p>
            )}
          </div>
          <Button type="submit" variant="secondary" disabled={busy}>
            {busy ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
            Add note
          </Button>
        </adding.Form>
      ) : (
        <p className="text-sm text-slate-600">Notes can be added once the article is published.</p>
      )}
    </section>
  );
}
