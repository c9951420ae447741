import { useEffect, type RefObject } from "react";
import { useBlocker } from "react-router";

/** The prompt's texts (the unsaved-changes dialog of the article form). */
export const LEAVE_PROMPT = {
  title: "Leave without saving?",
  description: "You have unsaved changes. If you leave now they will be lost.",
  leave: "Leave",
  stay: "Stay",
} as const;

/**
 * Asks before leaving a form with unsaved changes: in-app navigation to another page is blocked
 * (the caller shows a dialog from the returned blocker) and the browser's own unload (reload, closing
 * the tab, typing an address) gets its built-in prompt. The form's own submission never asks
 * (`submitting` is true from its submit until the answer).
 */
export function useLeaveGuard(dirty: boolean, submitting: RefObject<boolean>) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && !submitting.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (submitting.current) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty, submitting]);

  return blocker;
}
