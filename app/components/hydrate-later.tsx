import { Suspense, type ReactNode } from "react";

/**
 * Deferred parts of the page wait for this: one task after the rest has hydrated (issue 13).
 * Preact hydrates a page in one task; on a slow phone that task blocked input for 200–280 ms.
 */
let released = false;
let nextTask: Promise<void> | undefined;

function Gate({ children }: { children: ReactNode }) {
  if (!released) {
    nextTask ??= new Promise((resolve) =>
      setTimeout(() => {
        released = true;
        resolve();
      }, 0),
    );
    throw nextTask;
  }
  return children;
}

/**
 * Its children are hydrated in a task of their own, after the rest of the page: for what lies below
 * the first screen (the latest stories, the footer). Until then the server's HTML stands as it is,
 * readable, its links plain links. The server renders the children as usual, and so does a
 * client-side navigation (the first hydration released the gate for good).
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  // On the server, and in development (React in the browser), no boundary at all: React streams a
  // large finished boundary as a hidden <div> that a script moves into place, which a reader without
  // JavaScript would never see. Preact's Suspense writes nothing of its own into the page.
  if (typeof window === "undefined" || import.meta.env.DEV) return children;
  return (
    <Suspense fallback={null}>
      <Gate>{children}</Gate>
    </Suspense>
  );
}
