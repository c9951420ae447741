import { Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import { LIVE_HEADLINE_MAX, type AdminLiveUpdate, type LiveIntent, type LivePanelData, type LiveUpdateFieldName } from "~/domain/live/live-admin.schema";
import { formatPublishDate, useSiteTimeZone } from "~/lib/dates";
import { refusalNotice, type Refusal } from "~/lib/forms";
import type { AuthorChoice } from "./author-picker";
import { ConfirmDialog } from "./confirm-dialog";
import { FieldError } from "./field-error";
import { StoryField } from "./story-field";

// The "Live updates" panel (issue 31): a live story's state ("Live since …", "End live coverage",
// "Restart live coverage"), the form that posts an update, and the updates newest first with their
// actions. Every request goes to admin/articles/live/:id through a fetcher and answers the panel's new
// data, so the edit page shows it without reloading (and without resetting) the article form.

type Answer = { ok: true; intent: LiveIntent; panel: LivePanelData } | Refusal<LiveUpdateFieldName | "intent" | "updateId">;

const DONE: Record<LiveIntent, string> = {
  post: "Update posted",
  edit: "Update saved",
  delete: "Update deleted",
  pin: "Update pinned",
  unpin: "Update unpinned",
  start: "Live coverage started",
  end: "Live coverage ended",
  restart: "Live coverage restarted",
};

/** A fetcher of the panel: on success the panel takes the answer's data and a toast says what was done; a refusal is an "Error" toast. */
function useLiveFetcher(onPanel: (panel: LivePanelData) => void, onSuccess?: () => void) {
  const fetcher = useFetcher<Answer>();
  const handled = useRef<Answer | undefined>(undefined);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    const answer = fetcher.data;
    if (answer.ok) {
      onPanel(answer.panel);
      toast.success(DONE[answer.intent] ?? "Done");
      onSuccess?.();
    } else {
      toast.error(...refusalNotice(answer, { marksFields: true }));
    }
  });
  return fetcher;
}

const pathOf = (articleId: string) => `/admin/articles/live/${articleId}`;

export function LiveUpdatesPanel({
  initial,
  authors,
  headingLevel = "h2",
  standalone = false,
}: {
  initial: LivePanelData;
  authors: AuthorChoice[];
  headingLevel?: "h2" | "h3";
  /** On its own screen (no outer card heading: the page's h1 says "Live updates"). */
  standalone?: boolean;
}) {
  const [panel, setPanel] = useState(initial);
  // A page that reloads its data (the live screen after its own action) brings the newest.
  useEffect(() => setPanel(initial), [initial]);
  const timeZone = useSiteTimeZone();
  const { story } = panel;
  const Heading = headingLevel;
  const action = pathOf(story.id);
  const [editing, setEditing] = useState<string | null>(null);

  return (
    <section
      id="live-updates"
      aria-labelledby="live-updates-heading"
      className={`${standalone ? "" : "mt-8 "}space-y-5 rounded-lg border border-slate-200 bg-white p-4 sm:p-6`}
      data-testid="live-updates-panel"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <Heading id="live-updates-heading" className={standalone ? "sr-only" : "text-xl font-semibold text-slate-900"}>
            Live updates
          </Heading>
          <LiveStateLine story={story} timeZone={timeZone} />
        </div>
        {panel.mayManage ? <LiveStateControl story={story} action={action} onPanel={setPanel} /> : null}
      </div>

      {panel.mayPost ? (
        <UpdateForm mode="post" action={action} authors={authors} defaultAuthorId={panel.defaultAuthorId} onPanel={setPanel} />
      ) : story.live ? null : (
        <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700">
          {story.endedAt ? "Live coverage has ended. Restart it to post updates." : "This story is not live."}
        </p>
      )}

      <div className="space-y-2">
        <h3 className="text-sm font-semibold tracking-wide text-slate-600 uppercase">
          {panel.updates.length === 1 ? "1 update" : `${panel.updates.length} updates`}
        </h3>
        {panel.updates.length === 0 ? (
          <p className="text-sm text-slate-600">No updates yet.</p>
        ) : (
          <ol className="divide-y divide-slate-200 rounded-md border border-slate-200" data-testid="admin-live-updates">
            {panel.updates.map((update) =>
              editing === update.id ? (
                <li key={update.id} className="p-3" data-testid="admin-live-update">
                  <UpdateForm
                    mode="edit"
                    update={update}
                    action={action}
                    authors={authors}
                    defaultAuthorId={update.authorId}
                    onPanel={setPanel}
                    onDone={() => setEditing(null)}
                    onCancel={() => setEditing(null)}
                  />
                </li>
              ) : (
                <UpdateItem
                  key={update.id}
                  update={update}
                  action={action}
                  timeZone={timeZone}
                  mayPin={panel.mayManage}
                  onEdit={() => setEditing(update.id)}
                  onPanel={setPanel}
                />
              ),
            )}
          </ol>
        )}
      </div>
    </section>
  );
}

/** "Live since {time}", "Live coverage ended {time}", or that the story is not live. */
function LiveStateLine({ story, timeZone }: { story: LivePanelData["story"]; timeZone: string }) {
  if (story.live && story.startedAt) {
    return (
      <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-800" data-testid="live-state">
        <span className="rounded bg-red-700 px-1.5 py-0.5 text-xs font-bold tracking-wide text-white">LIVE</span>
        Live since {formatPublishDate(story.startedAt, timeZone)}
      </p>
    );
  }
  if (story.endedAt) {
    return (
      <p className="mt-1 text-sm text-slate-800" data-testid="live-state">
        Live coverage ended {formatPublishDate(story.endedAt, timeZone)}
      </p>
    );
  }
  return (
    <p className="mt-1 text-sm text-slate-700" data-testid="live-state">
      This story is not live.
    </p>
  );
}

/** "End live coverage" (after a confirm) on a live story, "Restart live coverage" on an ended one, "Start live coverage" on one never live: editors and admins. */
function LiveStateControl({ story, action, onPanel }: { story: LivePanelData["story"]; action: string; onPanel: (panel: LivePanelData) => void }) {
  const fetcher = useLiveFetcher(onPanel);
  const busy = fetcher.state !== "idle";
  if (story.live) {
    return (
      <ConfirmDialog
        trigger={
          <Button variant="outline" disabled={busy}>
            {busy ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
            End live coverage
          </Button>
        }
        title="End live coverage?"
        description="The story stops being live: its page says “Live coverage has ended” and the LIVE badge goes. The updates stay, and you can restart it."
        confirmLabel="End live coverage"
        onConfirm={() => fetcher.submit({ intent: "end" }, { method: "post", action })}
      />
    );
  }
  if (story.endedAt) {
    return (
      <Button variant="outline" disabled={busy} onClick={() => fetcher.submit({ intent: "restart" }, { method: "post", action })}>
        {busy ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
        Restart live coverage
      </Button>
    );
  }
  return (
    <Button variant="outline" disabled={busy} onClick={() => fetcher.submit({ intent: "start" }, { method: "post", action })}>
      {busy ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
      Start live coverage
    </Button>
  );
}

/** One update in the list: its time, author, marks, text, and the actions the signed-in role may take. */
function UpdateItem({
  update,
  action,
  timeZone,
  mayPin,
  onEdit,
  onPanel,
}: {
  update: AdminLiveUpdate;
  action: string;
  timeZone: string;
  mayPin: boolean;
  onEdit: () => void;
  onPanel: (panel: LivePanelData) => void;
}) {
  const fetcher = useLiveFetcher(onPanel);
  const busy = fetcher.state !== "idle";
  const send = (intent: LiveIntent) => fetcher.submit({ intent, updateId: update.id }, { method: "post", action });
  const when = formatPublishDate(update.createdAt, timeZone);
  const images = (update.contentDoc?.content ?? []).filter((b) => b.type === "storyImage").length;
  const embeds = (update.contentDoc?.content ?? []).filter((b) => b.type === "embed").length;
  return (
    <li className="space-y-2 p-3 text-sm" data-testid="admin-live-update" data-update-id={update.id}>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-slate-700">
        <time dateTime={update.createdAt} className="font-medium text-slate-900">
          {when}
        </time>
        <span aria-hidden="true">·</span>
        <span>{update.authorName ?? "Newsroom"}</span>
        {update.pinned ? <Mark tone="amber">Pinned</Mark> : null}
        {update.keyEvent ? <Mark tone="red">Key event</Mark> : null}
        {update.editedAt ? <Mark tone="slate">Edited</Mark> : null}
      </div>
      {update.headline ? <p className="text-base font-semibold break-words text-slate-900">{update.headline}</p> : null}
      {update.content ? <p className="line-clamp-6 break-words whitespace-pre-line text-slate-800">{update.content}</p> : null}
      {images + embeds > 0 ? (
        <p className="text-xs text-slate-600">
          {[images ? (images === 1 ? "1 image" : `${images} images`) : "", embeds ? (embeds === 1 ? "1 embed" : `${embeds} embeds`) : ""].filter(Boolean).join(", ")}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {update.mayChange ? (
          <Button type="button" variant="outline" size="sm" disabled={busy} onClick={onEdit} aria-label={`Edit the update of ${when}`}>
            Edit
          </Button>
        ) : null}
        {mayPin ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() => send(update.pinned ? "unpin" : "pin")}
            aria-label={`${update.pinned ? "Unpin" : "Pin"} the update of ${when}`}
          >
            {update.pinned ? "Unpin" : "Pin"}
          </Button>
        ) : null}
        {update.mayChange ? (
          <ConfirmDialog
            trigger={
              <Button type="button" variant="ghost-destructive" size="sm" disabled={busy} aria-label={`Delete the update of ${when}`}>
                Delete
              </Button>
            }
            title="Delete update?"
            description="Readers will no longer see this update; open pages drop it at once."
            onConfirm={() => send("delete")}
          />
        ) : null}
        {busy ? <Loader2 aria-label="Working…" className="size-4 animate-spin self-center text-slate-600" /> : null}
      </div>
    </li>
  );
}

function Mark({ tone, children }: { tone: "red" | "amber" | "slate"; children: string }) {
  const colors = { red: "bg-red-50 text-red-800 ring-red-200", amber: "bg-amber-50 text-amber-900 ring-amber-200", slate: "bg-slate-100 text-slate-800 ring-slate-200" };
  return <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${colors[tone]}`}>{children}</span>;
}

/** The update form: "Post update" on top of the panel, or an update's own form once "Edit" is pressed. */
function UpdateForm({
  mode,
  update,
  action,
  authors,
  defaultAuthorId,
  onPanel,
  onDone,
  onCancel,
}: {
  mode: "post" | "edit";
  update?: AdminLiveUpdate;
  action: string;
  authors: AuthorChoice[];
  defaultAuthorId: string | null;
  onPanel: (panel: LivePanelData) => void;
  onDone?: () => void;
  onCancel?: () => void;
}) {
  // Plain ids (the editor names its writing area by the label's id, set when it is made).
  const id = mode === "post" ? "live-post" : `live-edit-${update?.id ?? ""}`;
  // A posted update empties the form: a new key starts its fields (and the editor) afresh.
  const [round, setRound] = useState(0);
  const [uploads, setUploads] = useState(0);
  const fetcher = useLiveFetcher(onPanel, () => {
    if (mode === "post") setRound((n) => n + 1);
    onDone?.();
  });
  const busy = fetcher.state !== "idle";
  const failure = fetcher.data && !fetcher.data.ok ? fetcher.data : undefined;
  const errors = failure?.fieldErrors ?? {};
  const bodyError = errors.contentDoc ?? errors.content;
  const f = (name: string) => `${id}-${name}`;

  return (
    <fetcher.Form key={round} method="post" action={action} noValidate className="space-y-4" data-testid={mode === "post" ? "live-update-form" : "live-update-edit-form"}>
      <input type="hidden" name="intent" value={mode} />
      {update ? <input type="hidden" name="updateId" value={update.id} /> : null}
      <div className="space-y-2">
        <Label htmlFor={f("headline")}>Headline</Label>
        <Input
          id={f("headline")}
          name="headline"
          maxLength={LIVE_HEADLINE_MAX}
          defaultValue={update?.headline ?? ""}
          aria-invalid={errors.headline ? true : undefined}
          aria-describedby={errors.headline ? f("headline-error") : f("headline-hint")}
        />
        {errors.headline ? (
          <FieldError id={f("headline-error")} message={errors.headline} />
        ) : (
          <p id={f("headline-hint")} className="text-xs text-slate-600">
            Optional, up to {LIVE_HEADLINE_MAX} characters.
          </p>
        )}
      </div>
      <div className="space-y-2">
        <Label id={f("body-label")} htmlFor={f("body")}>
          Update *
        </Label>
        <StoryField
          labelId={f("body-label")}
          textareaId={f("body")}
          storedDoc={update?.contentDoc ?? null}
          submittedDoc={undefined}
          text={update?.content ?? ""}
          invalid={bodyError ? true : undefined}
          describedBy={bodyError ? f("body-error") : undefined}
          onUploadingChange={(uploading) => setUploads((n) => n + (uploading ? 1 : -1))}
        />
        <FieldError id={f("body-error")} message={bodyError} />
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <div className="min-w-0 flex-1 space-y-2 sm:max-w-xs">
          <Label htmlFor={f("author")}>Author</Label>
          <select
            id={f("author")}
            name="authorId"
            defaultValue={defaultAuthorId ?? ""}
            aria-invalid={errors.authorId ? true : undefined}
            aria-describedby={errors.authorId ? f("author-error") : undefined}
            className="block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900"
          >
            {/* Blank: the writer's own author record (none: the newsroom's byline). */}
            {defaultAuthorId ? null : <option value="">No author (the newsroom)</option>}
            {authors.map((author) => (
              <option key={author.id} value={author.id}>
                {author.name}
              </option>
            ))}
          </select>
          <FieldError id={f("author-error")} message={errors.authorId} />
        </div>
        <label className="flex h-10 items-center gap-2 text-sm font-medium text-slate-800">
          <input type="checkbox" name="keyEvent" value="on" defaultChecked={update?.keyEvent ?? false} className="size-4 rounded border-slate-300" />
          Key event
        </label>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy || uploads > 0}>
          {busy ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
          {mode === "post" ? "Post update" : "Save update"}
        </Button>
        {onCancel ? (
          <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        ) : null}
      </div>
    </fetcher.Form>
  );
}
