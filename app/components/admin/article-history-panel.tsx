import { History, Loader2, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import {
  REVISIONS_KEPT_NOTE,
  type ArticleHistoryAnswer,
  type FieldComparison,
  type RevisionComparison,
  type RevisionFields,
  type RevisionSummary,
} from "~/domain/articles/article-revisions.schema";
import { ARTICLE_STATUS_LABELS } from "~/domain/articles/articles.schema";
import { cn } from "~/lib/cn";
import { formatPublishDate, useSiteTimeZone } from "~/lib/dates";
import type { Refusal } from "~/lib/forms";

type Answer<Fields> = ArticleHistoryAnswer<Fields> | Refusal;

/** When a revision was saved, in the site's time zone ("Nov 23, 2026 at 3:04 PM"). */
const savedAtLabel = (revision: RevisionSummary, timeZone: string) => formatPublishDate(revision.savedAt, timeZone);

/**
 * Struck text is only in the current version, highlighted text only in the chosen one: what restoring
 * would remove and add.
 */
function Comparison({ label, comparison }: { label: string; comparison: FieldComparison }) {
  return (
    <div className="space-y-1">
      <h4 className="text-sm font-semibold text-slate-900">{label}</h4>
      {!comparison.changed ? (
        <p className="text-sm text-slate-600">No change.</p>
      ) : comparison.parts === null ? (
        <p className="text-sm text-slate-700">Changed too much to compare word by word.</p>
      ) : (
        <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-900">
          {comparison.parts.map((part, i) =>
            part.side === "both" ? (
              <span key={i}>{part.value}</span>
            ) : part.side === "current" ? (
              <del key={i} className="bg-red-100 px-0.5 text-red-900 decoration-red-800">
                <span className="sr-only">[removed: </span>
                {part.value}
                <span className="sr-only">]</span>
              </del>
            ) : (
              <ins key={i} className="bg-green-100 px-0.5 text-green-900 no-underline">
                <span className="sr-only">[added: </span>
                {part.value}
                <span className="sr-only">]</span>
              </ins>
            ),
          )}
        </p>
      )}
    </div>
  );
}

/** The article form's History: the saves of one article (decision 0011). */
export function ArticleHistoryPanel({
  articleId,
  restoreDisabled,
  onRestore,
}: {
  articleId: string;
  /** True while something in the form cannot be replaced (an upload running). */
  restoreDisabled?: boolean;
  onRestore: (fields: RevisionFields, revision: RevisionSummary) => void;
}) {
  return (
    <HistoryPanel
      historyUrl={`/admin/articles/edit/${articleId}/history`}
      note="Each save of this article, newest first."
      buttons="Save Draft, Save for later, Update Article"
      after="“Saved for later” marks changes to a published story that readers did not see."
      restoreDisabled={restoreDisabled}
      onRestore={onRestore}
    />
  );
}

/**
 * The edit form's "History": a dialog listing the saves that `historyUrl` answers (newest first, who
 * and when in the site's time zone). Choosing one shows what differs from the current version;
 * "Restore this version" hands its fields to the form (`onRestore`) without saving anything. Articles
 * and pages (issue 29) both use it, each with its own resource route and fields.
 */
export function HistoryPanel<Fields>({
  historyUrl,
  note,
  buttons,
  after,
  restoreDisabled,
  onRestore,
}: {
  /** The resource route answering the list and, with `?revision=`, one revision compared. */
  historyUrl: string;
  /** The dialog's first sentence: what is listed. */
  note: string;
  /** The form's saving buttons, as the note names them. */
  buttons: string;
  /** A sentence after the note, if any. */
  after?: string;
  /** True while something in the form cannot be replaced (an upload running). */
  restoreDisabled?: boolean;
  onRestore: (fields: Fields, revision: RevisionSummary) => void;
}) {
  const timeZone = useSiteTimeZone();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);
  const list = useFetcher<Answer<Fields>>();
  const compare = useFetcher<Answer<Fields>>();
  const comparisonHeading = useRef<HTMLHeadingElement>(null);
  const base = historyUrl;

  const revisions = list.data && list.data.ok && "revisions" in list.data ? list.data.revisions : null;
  const listError = list.data && !list.data.ok ? list.data.error : null;
  const comparison: RevisionComparison<Fields> | null =
    compare.data && compare.data.ok && "comparison" in compare.data && compare.data.comparison.revision.id === chosen ? compare.data.comparison : null;
  const compareError = compare.data && !compare.data.ok ? compare.data.error : null;

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      setChosen(null);
      // Read afresh at each opening: saves and autosaves since the page loaded are listed.
      void list.load(base);
    }
  }

  function choose(id: string) {
    setChosen(id);
    void compare.load(`${base}?revision=${encodeURIComponent(id)}`);
  }

  // The comparison takes the keyboard's attention once it arrives.
  useEffect(() => {
    if (comparison) comparisonHeading.current?.focus();
  }, [comparison]);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <Button type="button" variant="outline" size="sm">
          <History aria-hidden="true" className="size-4" />
          History
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-5xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-xl sm:max-h-[calc(100dvh-4rem)]"
          aria-describedby="history-note"
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 p-4 sm:px-6">
            <div>
              <Dialog.Title className="text-lg font-semibold text-slate-900">History</Dialog.Title>
              <p id="history-note" className="mt-1 text-sm text-slate-700">
                {note} {REVISIONS_KEPT_NOTE} Restoring a version fills the form; nothing is saved until you press a saving button ({buttons}).
                {after ? ` ${after}` : null}
              </p>
            </div>
            <Dialog.Close asChild>
              <Button type="button" variant="ghost" size="icon" aria-label="Close history">
                <X aria-hidden="true" className="size-5" />
              </Button>
            </Dialog.Close>
          </div>

          <div className="grid min-h-0 flex-1 grid-rows-[minmax(0,auto)_minmax(0,1fr)] md:grid-cols-[18rem_minmax(0,1fr)] md:grid-rows-1">
            <section aria-label="Saved versions" className="max-h-[40dvh] overflow-y-auto border-b border-slate-200 p-2 md:max-h-none md:border-r md:border-b-0">
              {list.state === "loading" && !revisions ? (
                <p className="flex items-center gap-2 p-2 text-sm text-slate-700">
                  <Loader2 aria-hidden="true" className="size-4 animate-spin" />
                  Loading history…
                </p>
              ) : listError ? (
                <p className="p-2 text-sm text-red-700">{listError}</p>
              ) : revisions && revisions.length === 0 ? (
                <p className="p-2 text-sm text-slate-700">No saves recorded yet.</p>
              ) : (
                <ol className="space-y-1" data-testid="revision-list">
                  {revisions?.map((revision) => (
                    <li key={revision.id}>
                      <button
                        type="button"
                        onClick={() => choose(revision.id)}
                        aria-current={chosen === revision.id ? "true" : undefined}
                        className={cn(
                          "w-full rounded-md px-3 py-2 text-left text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-700",
                          chosen === revision.id && "bg-brand-50 ring-1 ring-brand-700",
                        )}
                      >
                        <span className="block font-medium text-slate-900">{savedAtLabel(revision, timeZone)}</span>
                        <span className="block text-slate-700">by {revision.savedByName}</span>
                        <span className="block text-xs text-slate-600">
                          {revision.pending ? "Saved for later" : ARTICLE_STATUS_LABELS[revision.status]}
                          {revision.autosave ? " · Autosave" : ""} · {revision.title}
                        </span>
                      </button>
                    </li>
                  ))}
                </ol>
              )}
            </section>

            <section aria-label="Compared with the current version" className="min-h-0 overflow-y-auto p-4 sm:px-6">
              {!chosen ? (
                <p className="text-sm text-slate-700">Choose a version to see what differs from the current one.</p>
              ) : compareError ? (
                <p className="text-sm text-red-700">{compareError}</p>
              ) : !comparison ? (
                <p className="flex items-center gap-2 text-sm text-slate-700">
                  <Loader2 aria-hidden="true" className="size-4 animate-spin" />
                  Loading version…
                </p>
              ) : (
                <div className="space-y-4">
                  <div>
                    <h3 ref={comparisonHeading} tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-none">
                      Version of {savedAtLabel(comparison.revision, timeZone)}
                    </h3>
                    <p className="text-sm text-slate-700">
                      Saved by {comparison.revision.savedByName} · {ARTICLE_STATUS_LABELS[comparison.revision.status]}
                    </p>
                    <p className="mt-2 text-xs text-slate-600">
                      Compared with the current version: <del className="bg-red-100 text-red-900">struck text</del> is only in the current
                      version, <ins className="bg-green-100 text-green-900 no-underline">highlighted text</ins> only in this one.
                    </p>
                  </div>
                  <Comparison label="Title" comparison={comparison.changes.title} />
                  {comparison.changes.excerpt ? <Comparison label="Excerpt" comparison={comparison.changes.excerpt} /> : null}
                  <Comparison label="Content" comparison={comparison.changes.body} />
                  {comparison.otherChanges.length > 0 ? (
                    <p className="text-sm text-slate-800">Also different: {comparison.otherChanges.join(", ")}.</p>
                  ) : null}
                  <Button
                    type="button"
                    disabled={restoreDisabled}
                    onClick={() => {
                      onRestore(comparison.revision.fields, comparison.revision);
                      setOpen(false);
                    }}
                  >
                    Restore this version
                  </Button>
                  {restoreDisabled ? <p className="text-xs text-slate-600">Wait until the upload has finished.</p> : null}
                </div>
              )}
            </section>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
