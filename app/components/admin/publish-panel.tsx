import { Loader2, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useEffect, useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { publishBlockers, type PublishBlocker } from "~/domain/articles/articles.schema";
import { formatPublishDate, fromDateTimeLocal, toDateTimeLocal } from "~/lib/dates";
import { PublishPanelNewsletters, type StoryNewsletterOption } from "./send-by-email";

/** What the panel read of the form when it opened: where the story will be and what blocks it. */
export interface PublishPanelFacts {
  slug: string;
  /** The chosen category's name (null: none chosen). */
  categoryName: string | null;
  blockers: PublishBlocker[];
}

/** Reads the article form's current values (the panel opens on what is typed, saved or not). */
export function readPublishFacts(form: HTMLFormElement | null, categories: { id: string; name: string }[]): PublishPanelFacts {
  const data = form ? new FormData(form) : new FormData();
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === "string" ? value : "";
  };
  const categoryId = text("categoryId");
  return {
    slug: text("slug").trim(),
    categoryName: categories.find((c) => c.id === categoryId)?.name ?? null,
    blockers: publishBlockers({
      title: text("title"),
      slug: text("slug"),
      content: text("content"),
      categoryId,
      authorName: text("authorName"),
      authorIds: text("authorIds"),
      featuredImage: text("featuredImage"),
      featuredImageAlt: text("featuredImageAlt"),
    }),
  };
}

/** The panel's sentence of what will happen ("Public at /article/{slug}, on the home page and in {Category}"). */
export function publishOutcome(facts: Pick<PublishPanelFacts, "slug" | "categoryName">, when: string | null): string {
  const where = `/article/${facts.slug || "…"}`;
  const places = facts.categoryName ? `on the home page and in ${facts.categoryName}` : "on the home page (no category chosen: in no section)";
  return when ? `Public on ${when} at ${where}, ${places}.` : `Public at ${where}, ${places}.`;
}

/**
 * The publish panel (decision 0033): "Publish now" or "Schedule" (a date and time in the site's time
 * zone), what will happen in words, what blocks it, and the confirming button ("Publish now" or
 * "Schedule"), disabled while a blocker remains. Its controls belong to the article form (`form`
 * attribute): the confirming button submits the form with intent=publish or intent=schedule and
 * "Publish at" (empty for now). The server checks the same blockers.
 */
export function PublishPanel({
  open,
  onOpenChange,
  formId,
  facts,
  reschedule,
  initialPublishAt,
  timeZone,
  submitting,
  busy,
  newsletters = null,
  postalAddressMissing = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The article form's id (the panel is rendered in a portal, outside the form). */
  formId: string;
  facts: PublishPanelFacts;
  /** "Reschedule…" of a scheduled story: Schedule is chosen, with its current time. */
  reschedule: boolean;
  /** "Publish at" as the form holds it (datetime-local on the site's wall clock, "" for none). */
  initialPublishAt: string;
  timeZone: string;
  /** The form is being submitted by the panel (its button shows progress). */
  submitting: boolean;
  /** An upload is running or the form is otherwise busy: nothing can be confirmed yet. */
  busy: boolean;
  /** "Send by e-mail" (issue 30): the newsletters, for a role that may send (the boxes tick the form's own). */
  newsletters?: readonly StoryNewsletterOption[] | null;
  /** The settings have no postal address for the e-mails' footer: a ticked newsletter shows the warning. */
  postalAddressMissing?: boolean;
}) {
  const ids = useId();
  const [choice, setChoice] = useState<"now" | "schedule">("now");
  const [publishAt, setPublishAt] = useState("");
  // Each opening starts from the story as it stands: a scheduled story's time, else a time an hour ahead.
  useEffect(() => {
    if (!open) return;
    const planned = initialPublishAt ? fromDateTimeLocal(initialPublishAt, timeZone) : null;
    const ahead = planned && planned.getTime() > Date.now();
    setChoice(reschedule ? "schedule" : "now");
    setPublishAt(ahead ? initialPublishAt : toDateTimeLocal(new Date(Date.now() + 60 * 60_000), timeZone));
  }, [open, reschedule, initialPublishAt, timeZone]);

  const at = publishAt ? fromDateTimeLocal(publishAt, timeZone) : null;
  let timeProblem: string | null = null;
  if (choice === "schedule") {
    if (!at) timeProblem = "Choose the date and time to publish it.";
    else if (at.getTime() <= Date.now()) timeProblem = "Choose a time in the future, or publish it now.";
  }
  const blocked = facts.blockers.length > 0 || timeProblem !== null || busy;
  const confirmLabel = choice === "now" ? "Publish now" : "Schedule";

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !submitting && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content
          data-testid="publish-panel"
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="pr-8 text-lg font-semibold text-slate-900">{reschedule ? "Reschedule this story" : "Publish this story"}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-700">Choose when readers see it.</Dialog.Description>
          <Dialog.Close asChild>
            <Button variant="ghost" size="icon-sm" className="absolute top-3 right-3" aria-label="Close" disabled={submitting}>
              <X aria-hidden="true" className="size-4" />
            </Button>
          </Dialog.Close>

          <fieldset className="mt-4 space-y-2">
            <legend className="sr-only">When</legend>
            <label className="flex items-center gap-2 text-sm font-medium text-slate-900">
              <input type="radio" name={`${ids}-when`} checked={choice === "now"} onChange={() => setChoice("now")} className="size-4" />
              Publish now
            </label>
            <label className="flex items-center gap-2 text-sm font-medium text-slate-900">
              <input type="radio" name={`${ids}-when`} checked={choice === "schedule"} onChange={() => setChoice("schedule")} className="size-4" />
              Schedule
            </label>
          </fieldset>

          {choice === "schedule" ? (
            <div className="mt-3 space-y-1">
              <Label htmlFor="publishAt" className="block">
                Publish at
              </Label>
              <Input
                id="publishAt"
                name="publishAt"
                form={formId}
                type="datetime-local"
                value={publishAt}
                onChange={(e) => setPublishAt(e.target.value)}
                className="max-w-xs"
                aria-invalid={timeProblem ? true : undefined}
                aria-describedby={`${ids}-time-hint`}
              />
              <p id={`${ids}-time-hint`} className={timeProblem ? "text-xs font-medium text-red-700" : "text-xs text-slate-600"}>
                {timeProblem ?? `In the site's time zone (${timeZone}).`}
              </p>
            </div>
          ) : (
            // "Publish now": no time (the server publishes at its clock's now).
            <input type="hidden" name="publishAt" form={formId} value="" />
          )}

          <p className="mt-4 rounded-md bg-slate-50 p-3 text-sm text-slate-900" data-testid="publish-outcome">
            {publishOutcome(facts, choice === "schedule" && at && !timeProblem ? formatPublishDate(at, timeZone) : null)}
          </p>

          {newsletters ? <PublishPanelNewsletters options={newsletters} formId={formId} timeZone={timeZone} postalAddressMissing={postalAddressMissing} /> : null}

          {facts.blockers.length > 0 ? (
            <div role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900" data-testid="publish-blockers">
              <p className="font-semibold">Before it can be published:</p>
              <ul className="mt-1 list-disc space-y-1 pl-5">
                {facts.blockers.map((b) => (
                  <li key={b.field}>{b.message}</li>
                ))}
              </ul>
            </div>
          ) : null}

          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <Dialog.Close asChild>
              <Button type="button" variant="outline" disabled={submitting}>
                Cancel
              </Button>
            </Dialog.Close>
            <Button type="submit" form={formId} name="intent" value={choice === "now" ? "publish" : "schedule"} disabled={blocked || submitting}>
              {submitting ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
              {confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
