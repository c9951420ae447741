import { useEffect, useId, useState, type RefObject } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import { SEND_STORY_INTENT, sendStoryPrompt, storySentMessage, TEST_VARIANT_LABELS, TEST_VARIANTS, type TestVariant } from "~/domain/newsletters/newsletter-admin.schema";
import { formatPublishDate } from "~/lib/dates";
import { ConfirmDialog } from "./confirm-dialog";
import { FieldError } from "./field-error";
import { PostalAddressWarning } from "./newsletter-form";

/** A newsletter as the article form offers it, with the story's send to it once made. */
export interface StoryNewsletterOption {
  id: string;
  name: string;
  chosen: boolean;
  send: { status: string; at: string } | null;
  /** Its active subscribers now: whom "Send now" would reach. */
  subscribers: number;
}

/** What "Send now" answers: the send made, or the refusal's message. */
export type SendStoryAnswer = { ok: true; storySent: { newsletterId: string; newsletterName: string; subscribers: number } } | { ok: false; error: string };

/**
 * "Send now…" of a story that is public already, for a newsletter it has not gone to: a confirmation
 * saying how many will receive it (and the postal-address warning), then the request (the server
 * refuses a second send, a role that may not publish, a story no longer public).
 */
function SendNowButton({ option, postalAddressMissing, sending, onSend }: { option: StoryNewsletterOption; postalAddressMissing: boolean; sending: boolean; onSend: () => void }) {
  const prompt = sendStoryPrompt(option.name, option.subscribers);
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" variant="outline" size="sm" disabled={sending}>
          Send now…<span className="sr-only"> to {option.name}</span>
        </Button>
      }
      title={prompt.title}
      description={prompt.description}
      confirmLabel={prompt.confirm}
      onConfirm={onSend}
    >
      {postalAddressMissing ? <PostalAddressWarning className="mt-3" /> : null}
    </ConfirmDialog>
  );
}

/** "Sent to {newsletter} on {date}", "Sending…", or the send's state: the sentence of a made send. */
export function sendLine(option: StoryNewsletterOption, timeZone: string): string | null {
  if (!option.send) return null;
  if (option.send.status === "queued" || option.send.status === "sending") return "Sending…";
  const on = formatPublishDate(new Date(option.send.at), timeZone);
  if (option.send.status === "sent") return `Sent to ${option.name} on ${on}`;
  if (option.send.status === "cancelled") return `Sending to ${option.name} was cancelled on ${on}`;
  return `Sending to ${option.name} failed on ${on}`;
}

/** Whether a newsletter's box cannot change: the story went to it (or is going), or the story is already public (it is sent only as it becomes public). */
const lockedOf = (option: StoryNewsletterOption, alreadyPublic: boolean) => option.send !== null || alreadyPublic;

/**
 * "Send by e-mail" in the story's settings (issue 30; editors and admins): the newsletters not archived
 * as checkboxes of the article form (`newsletterIds`, with the marker `newsletterChoice` that says the
 * field was there), saved with the story; and "Send test e-mail", which sends the form's story as it is
 * now to one address, through its own request (nothing is saved).
 */
export function SendByEmailSection({
  options,
  alreadyPublic,
  postalAddressMissing = false,
  timeZone,
  formRef,
  action,
}: {
  options: readonly StoryNewsletterOption[];
  /** The story is public already: a box ticked now would not be sent; "Send now…" sends it. */
  alreadyPublic: boolean;
  /** The settings have no postal address for the e-mails' footer: warn before sending. */
  postalAddressMissing?: boolean;
  timeZone: string;
  formRef: RefObject<HTMLFormElement | null>;
  /** Where the form posts (the page's own action). */
  action?: string;
}) {
  const ids = useId();
  const sender = useFetcher<SendStoryAnswer>({ key: "send-story" });
  // Sends made from this page since it loaded (the page is not read again: unsaved edits stay).
  const [sentNow, setSentNow] = useState<Record<string, { status: string; at: string }>>({});
  useEffect(() => {
    if (sender.state !== "idle" || !sender.data) return;
    if (sender.data.ok) {
      const { newsletterId, newsletterName, subscribers } = sender.data.storySent;
      setSentNow((sent) => ({ ...sent, [newsletterId]: { status: "queued", at: new Date().toISOString() } }));
      toast.success(storySentMessage(newsletterName, subscribers));
    } else toast.error("Error", sender.data.error);
  }, [sender.state, sender.data]);
  const tester = useFetcher<{ ok: true; testEmail: string } | { ok: false; error: string; fieldErrors?: { testEmailTo?: string } }>({ key: "test-email" });
  const [address, setAddress] = useState("");
  const [testVariant, setTestVariant] = useState<TestVariant>("both");
  useEffect(() => {
    if (tester.state !== "idle" || !tester.data) return;
    if (tester.data.ok) toast.success(`Test e-mail sent to ${tester.data.testEmail}`);
    else toast.error("Error", tester.data.error);
  }, [tester.state, tester.data]);
  const addressError = tester.state === "idle" && tester.data && !tester.data.ok ? tester.data.fieldErrors?.testEmailTo : undefined;

  function sendTest() {
    const data = new FormData(formRef.current ?? undefined);
    data.set("intent", "test-email");
    data.set("testEmailTo", address);
    data.set("testVariant", testVariant);
    tester.submit(data, { method: "post", ...(action ? { action } : {}) });
  }

  return (
    <div className="space-y-3" data-testid="send-by-email">
      <input type="hidden" name="newsletterChoice" value="1" />
      {options.length === 0 ? (
        <p className="text-sm text-slate-700">No newsletter to send to.</p>
      ) : (
        <fieldset className="space-y-2" aria-describedby={`${ids}-hint`}>
          <legend className="text-sm font-medium text-slate-800">Newsletters</legend>
          {options.map((made) => {
            const option = sentNow[made.id] && !made.send ? { ...made, chosen: true, send: sentNow[made.id]! } : made;
            const line = sendLine(option, timeZone);
            const locked = lockedOf(option, alreadyPublic);
            return (
              <div key={option.id}>
                <div className="flex items-center justify-between gap-2">
                  <label className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="checkbox"
                      name="newsletterIds"
                      value={option.id}
                      // A locked box shows the choice as it now stands ("Send now" ticks it); an open one is the form's.
                      {...(locked ? { checked: option.chosen } : { defaultChecked: option.chosen })}
                      disabled={locked}
                      data-newsletter-choice={option.id}
                      className="size-4 rounded border-slate-300"
                    />
                    {option.name}
                  </label>
                  {alreadyPublic && !option.send ? (
                    <SendNowButton
                      option={option}
                      postalAddressMissing={postalAddressMissing}
                      sending={sender.state !== "idle"}
                      onSend={() => sender.submit({ intent: SEND_STORY_INTENT, newsletterId: option.id }, { method: "post", ...(action ? { action } : {}) })}
                    />
                  ) : null}
                </div>
                {/* A disabled box is not posted: the server keeps a made send's choice by itself. */}
                {line ? <p className="ml-6 text-xs text-slate-600">{line}</p> : null}
              </div>
            );
          })}
          <p id={`${ids}-hint`} className="text-xs text-slate-600">
            {alreadyPublic
              ? "This story is already public: “Send now…” e-mails it to a newsletter it has not gone to, once."
              : "Sent once, when the story becomes public (now or at its scheduled time)."}
          </p>
          {alreadyPublic && postalAddressMissing && options.some((o) => !o.send && !sentNow[o.id]) ? <PostalAddressWarning /> : null}
        </fieldset>
      )}
      <div className="space-y-1.5 border-t border-slate-200 pt-3">
        <Label htmlFor={`${ids}-test`}>Send test e-mail</Label>
        <div className="flex gap-2">
          {/* No name: the address is not one of the story's fields (the button posts it on its own). */}
          <Input
            id={`${ids}-test`}
            type="email"
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                sendTest();
              }
            }}
            placeholder="you@example.com"
            autoComplete="email"
            aria-invalid={addressError ? true : undefined}
            aria-describedby={addressError ? `${ids}-test-error` : `${ids}-test-hint`}
          />
          <Button type="button" variant="outline" onClick={sendTest} disabled={tester.state !== "idle"}>
            Send test
          </Button>
        </div>
        {addressError ? (
          <FieldError id={`${ids}-test-error`} message={addressError} />
        ) : (
          <p id={`${ids}-test-hint`} className="text-xs text-slate-600">
            The story as the form holds it now, saved or not.
          </p>
        )}
        {/* Issue 40: a Members or Paid story goes out in two versions; the test sends the one(s) chosen. */}
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <label htmlFor={`${ids}-variant`} className="text-xs font-normal text-slate-700">
            Members or Paid story: send
          </label>
          {/* No name: not one of the story's fields (sendTest posts it). */}
          <select
            id={`${ids}-variant`}
            value={testVariant}
            onChange={(e) => setTestVariant(e.target.value as TestVariant)}
            className="h-8 max-w-full rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-900"
          >
            {TEST_VARIANTS.map((v) => (
              <option key={v} value={v}>
                {TEST_VARIANT_LABELS[v]}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}

/**
 * The publish panel's copy of the choice: the same newsletters, whose boxes tick the article form's own
 * (so the form posts one choice, whichever was used).
 */
export function PublishPanelNewsletters({
  options,
  formId,
  timeZone,
  postalAddressMissing = false,
}: {
  options: readonly StoryNewsletterOption[];
  formId: string;
  timeZone: string;
  /** The settings have no postal address: a newsletter ticked here shows the warning (publishing is not blocked). */
  postalAddressMissing?: boolean;
}) {
  const boxOf = (id: string) => document.querySelector<HTMLInputElement>(`#${formId} input[data-newsletter-choice="${id}"]`);
  const [checked, setChecked] = useState<Record<string, boolean>>({});
  useEffect(() => {
    setChecked(Object.fromEntries(options.map((o) => [o.id, boxOf(o.id)?.checked ?? o.chosen])));
    // Read once as the panel opens (it is mounted per opening).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (options.length === 0) return null;
  return (
    <fieldset className="mt-4 space-y-2 rounded-md border border-slate-200 p-3" data-testid="publish-send-by-email">
      <legend className="px-1 text-sm font-semibold text-slate-900">Send by e-mail</legend>
      {options.map((option) => {
        const line = sendLine(option, timeZone);
        return (
          <div key={option.id}>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                checked={checked[option.id] ?? option.chosen}
                disabled={option.send !== null}
                onChange={(e) => {
                  const value = e.target.checked;
                  setChecked((c) => ({ ...c, [option.id]: value }));
                  const box = boxOf(option.id);
                  if (box && box.checked !== value) {
                    box.checked = value;
                    // The form learns of the change (unsaved edits) as if the box itself was ticked.
                    box.dispatchEvent(new Event("change", { bubbles: true }));
                  }
                }}
                className="size-4 rounded border-slate-300"
              />
              {option.name}
            </label>
            {line ? <p className="ml-6 text-xs text-slate-600">{line}</p> : null}
          </div>
        );
      })}
      {postalAddressMissing && options.some((o) => !o.send && (checked[o.id] ?? o.chosen)) ? <PostalAddressWarning /> : null}
    </fieldset>
  );
}
