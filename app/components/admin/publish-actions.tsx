import { Eye, Loader2 } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { pendingVersionNote, type ArticleStatusName } from "~/domain/articles/articles.schema";
import { SUBMIT_INTENT } from "~/domain/articles/review.schema";
import { formatPublishDate } from "~/lib/dates";
import { ConfirmDialog } from "./confirm-dialog";
import { PreviewShareLink } from "./preview-share-link";
import { PublishPanel, readPublishFacts, type PublishPanelFacts } from "./publish-panel";
import type { StoryNewsletterOption } from "./send-by-email";

/** The texts of the confirmations of "Unpublish…" and "Discard changes" (decision 0033). */
export const UNPUBLISH_PROMPT = {
  title: "Take this story off the site?",
  description:
    "Readers will no longer see it: it leaves the home page, its section, search and the feeds. It becomes a draft that you can publish again.",
  confirm: "Unpublish",
} as const;
export const DISCARD_PROMPT = {
  title: "Discard the changes saved for later?",
  description: "The form goes back to the story as readers see it. The discarded version stays in History.",
  confirm: "Discard changes",
} as const;

/**
 * The edit form's status line: the story's status, "Changes saved {time}, not yet public" for a
 * published story's pending version, Preview and its shareable link, History (`history`) and the
 * autosave's indicator (`autosave`).
 */
export function PublishStatusLine({
  articleId,
  statusText,
  pendingSavedAt,
  timeZone,
  history,
  autosave,
}: {
  articleId: string;
  statusText: string;
  /** When the pending version was last saved (ISO), or null without one. */
  pendingSavedAt: string | null;
  timeZone: string;
  history: ReactNode;
  autosave: ReactNode;
}) {
  return (
    <div className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-slate-800">
      <span data-testid="article-status">
        Status: <span className="font-semibold">{statusText}</span>
      </span>
      {pendingSavedAt ? (
        <span data-testid="pending-note" className="rounded bg-amber-100 px-2 py-0.5 font-medium text-amber-950">
          {pendingVersionNote(formatPublishDate(pendingSavedAt, timeZone))}
        </span>
      ) : null}
      <Link to={`/admin/articles/preview/${articleId}`} className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline">
        <Eye aria-hidden="true" className="size-4" />
        Preview
      </Link>
      <PreviewShareLink articleId={articleId} />
      {history}
      {autosave}
    </div>
  );
}

/**
 * The article form's buttons by the story's state (decision 0033), inside the form:
 * - new or draft: "Save Draft" and "Publish…" (the publish panel); an author: "Save Draft" and "Submit for review";
 * - published: "Save for later" (the pending version), "Update Article" (publishes the form),
 *   "Unpublish…" (confirmed) and, with a pending version, "Discard changes" (confirmed);
 * - scheduled: "Update Article" (keeps its time), "Reschedule…" (the panel) and "Unpublish…".
 * The first submit button is the form's default (Enter in a field): always the one that publishes
 * nothing new. Ctrl/Cmd+S presses the saving button of the state (Save Draft, Save for later;
 * Update Article for a scheduled story, which keeps it off the site until its time).
 */
export function PublishActions({
  mode,
  status,
  canPublish,
  hasPending,
  resubmit,
  publishAt,
  publishAtError,
  categories,
  formRef,
  formId,
  timeZone,
  busy,
  failure,
  onIntent,
  newsletters = null,
  postalAddressMissing = false,
}: {
  mode: "create" | "edit";
  status: ArticleStatusName | undefined;
  canPublish: boolean;
  hasPending: boolean;
  /** An author's draft already submitted once: "Submit again". */
  resubmit: boolean;
  /** "Publish at" as stored (datetime-local on the site's wall clock, "" for none): sent back by the other buttons. */
  publishAt: string;
  publishAtError?: string;
  categories: { id: string; name: string }[];
  formRef: RefObject<HTMLFormElement | null>;
  formId: string;
  timeZone: string;
  /** An upload is running: nothing is submitted. */
  busy: boolean;
  /** The action's last refusal (its identity changes with each answer): the panel closes to show it. */
  failure: unknown;
  /** "Send by e-mail" (issue 30): shown in the publish panel too, for a role that may send. */
  newsletters?: readonly StoryNewsletterOption[] | null;
  /** The settings have no postal address: the panel warns when a newsletter is ticked. */
  postalAddressMissing?: boolean;
  /** Submits an intent without the form's fields ("unpublish", "discard-pending"). */
  onIntent: (intent: "unpublish" | "discard-pending") => void;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const submittedIntent = submitting ? navigation.formData?.get("intent") : null;
  const [panel, setPanel] = useState<{ open: boolean; facts: PublishPanelFacts }>({
    open: false,
    facts: { slug: "", categoryName: null, blockers: [] },
  });
  useEffect(() => setPanel((p) => ({ ...p, open: false })), [failure]);
  const openPanel = () => setPanel({ open: true, facts: readPublishFacts(formRef.current, categories) });

  const published = status === "published";
  const scheduled = status === "scheduled";
  const isDraft = mode === "create" || status === "draft";
  const saveButton = useRef<HTMLButtonElement>(null);

  // Ctrl/Cmd+S saves without publishing (and without the browser's "Save page" dialog).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== "s") return;
      event.preventDefault();
      const button = saveButton.current;
      if (!button || button.disabled || panel.open || !formRef.current) return;
      formRef.current.requestSubmit(button);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [formRef, panel.open]);

  const disabled = submitting || busy;
  const spinner = (intent: string) => (submittedIntent === intent ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null);

  // The ways out (Cancel, Unpublish…, Discard changes) on the left; the saving button beside the primary
  // action on the right, the primary last. On a phone the saving pair comes first, each half the row.
  const side = "max-sm:flex-1";
  return (
    <div className="space-y-2">
      {/* The stored "Publish at", sent back by every button but the panel's (which sends its own). */}
      {panel.open ? null : <input type="hidden" name="publishAt" value={publishAt} />}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
        <div className="flex flex-wrap gap-3">
          <Button asChild variant="outline" className={side}>
            <Link to="/admin/articles">Cancel</Link>
          </Button>
          {(published || scheduled) && canPublish ? (
            <ConfirmDialog
              title={UNPUBLISH_PROMPT.title}
              description={UNPUBLISH_PROMPT.description}
              confirmLabel={UNPUBLISH_PROMPT.confirm}
              onConfirm={() => onIntent("unpublish")}
              trigger={
                <Button type="button" variant="outline" className={side} disabled={submitting}>
                  Unpublish…
                </Button>
              }
            />
          ) : null}
          {published && canPublish && hasPending ? (
            <ConfirmDialog
              title={DISCARD_PROMPT.title}
              description={DISCARD_PROMPT.description}
              confirmLabel={DISCARD_PROMPT.confirm}
              onConfirm={() => onIntent("discard-pending")}
              trigger={
                <Button type="button" variant="outline" className={side} disabled={submitting}>
                  Discard changes
                </Button>
              }
            />
          ) : null}
        </div>
        <div className="flex flex-wrap gap-3">
          {isDraft ? (
            <>
              <Button ref={saveButton} type="submit" name="intent" value="draft" variant="secondary" className={side} disabled={disabled}>
                {spinner("draft")}
                {submittedIntent === "draft" ? "Saving..." : "Save Draft"}
              </Button>
              {canPublish ? (
                <Button type="button" className={side} onClick={openPanel} disabled={disabled}>
                  Publish…
                </Button>
              ) : (
                <Button type="submit" name="intent" value={SUBMIT_INTENT} className={side} disabled={disabled}>
                  {spinner(SUBMIT_INTENT)}
                  {submittedIntent === SUBMIT_INTENT ? "Submitting..." : resubmit ? "Submit again" : "Submit for review"}
                </Button>
              )}
            </>
          ) : null}
          {published && canPublish ? (
            <>
              <Button ref={saveButton} type="submit" name="intent" value="save-for-later" variant="secondary" className={side} disabled={disabled}>
                {spinner("save-for-later")}
                {submittedIntent === "save-for-later" ? "Saving..." : "Save for later"}
              </Button>
              <Button type="submit" name="intent" value="publish" className={side} disabled={disabled}>
                {spinner("publish")}
                {submittedIntent === "publish" ? "Updating..." : "Update Article"}
              </Button>
            </>
          ) : null}
          {scheduled && canPublish ? (
            <>
              <Button type="button" variant="secondary" className={side} onClick={openPanel} disabled={disabled}>
                Reschedule…
              </Button>
              <Button ref={saveButton} type="submit" name="intent" value="publish" className={side} disabled={disabled}>
                {spinner("publish")}
                {submittedIntent === "publish" && !panel.open ? "Updating..." : "Update Article"}
              </Button>
            </>
          ) : null}
        </div>
      </div>
      {publishAtError ? (
        <p id="publishAt-error" className="text-sm text-red-700">
          {publishAtError}
        </p>
      ) : null}
      {canPublish ? (
        <PublishPanel
          open={panel.open}
          onOpenChange={(open) => setPanel((p) => ({ ...p, open }))}
          formId={formId}
          facts={panel.facts}
          reschedule={scheduled}
          initialPublishAt={publishAt}
          timeZone={timeZone}
          newsletters={newsletters}
          postalAddressMissing={postalAddressMissing}
          submitting={submitting && (submittedIntent === "publish" || submittedIntent === "schedule")}
          busy={busy}
        />
      ) : null}
    </div>
  );
}
