import { useEffect, useRef, useState, type RefObject } from "react";
import { useFetcher } from "react-router";
import type { Refusal } from "~/lib/forms";

/** How long after the last change a draft is autosaved. */
export const AUTOSAVE_DELAY_MS = 2000;

/** The edit action's answer to an autosave (`savedAt`: when the server stored it, ISO). */
type AutosaveAnswer = { ok: true; autosaved: true; savedAt?: string } | Refusal;

export type AutosaveStatus = { state: "idle" } | { state: "saving" } | { state: "saved" } | { state: "failed"; reason: string };

/**
 * Autosave in the edit form (a draft, or a published story's pending version: the server decides by
 * the story's status, decision 0033): `AUTOSAVE_DELAY_MS` after the last change (`edits` counts
 * them), the form's fields are posted to the edit route's action with intent=autosave by a fetcher
 * (the page is not reloaded). `savedEdits` is the count of changes the server has stored: the form is
 * unsaved while `edits` is past it. A refused autosave is not retried until the next change.
 */
export function useDraftAutosave(options: { enabled: boolean; form: RefObject<HTMLFormElement | null>; edits: number; busy: boolean }) {
  const { enabled, form, edits, busy } = options;
  const fetcher = useFetcher<AutosaveAnswer>();
  const { submit } = fetcher;
  const [savedEdits, setSavedEdits] = useState(0);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [refused, setRefused] = useState<{ edits: number; reason: string } | null>(null);
  const sent = useRef(0);

  useEffect(() => {
    if (!enabled || busy || fetcher.state !== "idle" || edits === savedEdits || edits === refused?.edits) return;
    const timer = window.setTimeout(() => {
      if (!form.current) return;
      const fields = new FormData(form.current);
      fields.set("intent", "autosave");
      sent.current = edits;
      void submit(fields, { method: "post" });
    }, AUTOSAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [enabled, busy, fetcher.state, edits, savedEdits, refused, form, submit]);

  const answer = fetcher.data;
  useEffect(() => {
    if (fetcher.state !== "idle" || !answer) return;
    if (answer.ok) {
      setSavedEdits(sent.current);
      setSavedAt(answer.savedAt ?? null);
      setRefused(null);
    } else {
      setRefused({ edits: sent.current, reason: answer.error });
    }
  }, [fetcher.state, answer]);

  let status: AutosaveStatus = { state: "idle" };
  if (fetcher.state !== "idle") status = { state: "saving" };
  else if (refused && refused.edits === edits) status = { state: "failed", reason: refused.reason };
  else if (savedEdits > 0 && savedEdits === edits) status = { state: "saved" };
  return { status, savedEdits, savedAt };
}
