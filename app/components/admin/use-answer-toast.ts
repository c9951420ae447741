import { useEffect, useRef } from "react";
import { toast } from "~/components/ui/toaster";

type Answer = { ok: true; message: string } | { ok: false; error: string };

/**
 * Toasts an action's answer once per answer: its message on success, else "Error" with the refusal
 * (`refusal` may word it otherwise, e.g. "Please correct the highlighted fields." when the fields say it).
 */
export function useAnswerToast<A extends Answer>(answer: A | undefined, refusal?: (answer: Extract<A, { ok: false }>) => string) {
  const wording = useRef(refusal);
  wording.current = refusal;
  useEffect(() => {
    if (!answer) return;
    if (answer.ok) toast.success(answer.message);
    else toast.error("Error", wording.current ? wording.current(answer as Extract<A, { ok: false }>) : answer.error);
  }, [answer]);
}
