import { Settings2, X } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";

/** Below this width the settings are a sheet opened by "Settings" (Tailwind's `lg`, where the admin sidebar appears too). */
export const SETTINGS_SHEET_QUERY = "(max-width: 1023.98px)";

/** Whether the settings are shown as a sheet now (a phone or a narrow window). */
export function settingsAreASheet(): boolean {
  return typeof window !== "undefined" && window.matchMedia(SETTINGS_SHEET_QUERY).matches;
}

/**
 * Makes everything outside `element` inert while `active` (a modal sheet that is not portalled:
 * it stays inside the article form so its fields are submitted). Live regions (the toasts) stay
 * reachable, so a refusal announced while the sheet is open is still heard.
 */
function useInertOutside(element: RefObject<HTMLElement | null>, active: boolean) {
  useEffect(() => {
    const node = element.current;
    if (!active || !node) return;
    const changed: HTMLElement[] = [];
    for (let current: HTMLElement | null = node; current && current !== document.body; current = current.parentElement) {
      const parent: HTMLElement | null = current.parentElement;
      if (!parent) break;
      for (const sibling of Array.from(parent.children)) {
        if (sibling === current || !(sibling instanceof HTMLElement) || sibling.inert) continue;
        if (sibling.matches("[aria-live], [data-sonner-toaster], script, style")) continue;
        sibling.inert = true;
        changed.push(sibling);
      }
    }
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      for (const sibling of changed) sibling.inert = false;
      document.body.style.overflow = overflow;
    };
  }, [element, active]);
}

/** The "Settings" button of the writing column: opens the settings sheet (below `lg` only). */
export function SettingsSheetButton({ open, onOpen, buttonRef }: { open: boolean; onOpen: () => void; buttonRef: RefObject<HTMLButtonElement | null> }) {
  return (
    <Button
      ref={buttonRef}
      type="button"
      variant="outline"
      className="shrink-0 lg:hidden"
      aria-expanded={open}
      aria-controls="article-settings"
      onClick={onOpen}
    >
      <Settings2 aria-hidden="true" className="size-4" />
      Settings
    </Button>
  );
}

/**
 * The story's settings beside the writing column (decision 0035): a column of its own from 1024 px,
 * and below that a full-screen sheet opened by "Settings". It is one element inside the article form
 * in both cases — hidden, not unmounted, while the sheet is closed — so every field in it is submitted
 * (and works without JavaScript: before the page is hydrated it shows under the story instead).
 */
export function ArticleSettingsPanel({
  open,
  onOpenChange,
  returnFocus,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the keyboard goes back to when the sheet closes (the Settings button). */
  returnFocus: RefObject<HTMLElement | null>;
  children: ReactNode;
}) {
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const sheet = open && hydrated;
  useInertOutside(panel, sheet);

  // Opening takes the keyboard into the sheet (unless something inside, like a refused field, already has it).
  useEffect(() => {
    if (!sheet) return;
    if (!panel.current?.contains(document.activeElement)) heading.current?.focus();
  }, [sheet]);
  // Growing past the phone layout while the sheet is open: the panel is a column again.
  useEffect(() => {
    if (!open) return;
    const query = window.matchMedia(SETTINGS_SHEET_QUERY);
    const onChange = () => {
      if (!query.matches) onOpenChange(false);
    };
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, [open, onOpenChange]);

  // Closed by the writer: back to the button that opened it, once the page is no longer inert (this
  // effect runs after useInertOutside's cleanup).
  const closing = useRef(false);
  useEffect(() => {
    if (sheet || !closing.current) return;
    closing.current = false;
    returnFocus.current?.focus();
  }, [sheet, returnFocus]);
  function close() {
    closing.current = true;
    onOpenChange(false);
  }

  return (
    // A section (a region named "Story settings"): unlike an aside, it may take the dialog role as a sheet.
    <section
      ref={panel}
      id="article-settings"
      aria-labelledby="article-settings-heading"
      role={sheet ? "dialog" : undefined}
      aria-modal={sheet ? true : undefined}
      onKeyDown={(event) => {
        // Escape from a dialog opened inside (History, portalled) is that dialog's: only the sheet's own fields close it.
        if (sheet && event.key === "Escape" && !event.defaultPrevented && event.currentTarget.contains(event.target as Node)) {
          event.preventDefault();
          close();
        }
      }}
      className={cn(
        "min-w-0 lg:sticky lg:top-4 lg:max-h-[calc(100dvh-2rem)] lg:self-start lg:overflow-y-auto lg:rounded-lg lg:border lg:border-slate-200 lg:bg-white",
        sheet
          ? "max-lg:fixed max-lg:inset-0 max-lg:z-40 max-lg:overflow-y-auto max-lg:overscroll-contain max-lg:bg-white"
          : hydrated
            ? "max-lg:hidden"
            : "max-lg:mt-6 max-lg:rounded-lg max-lg:border max-lg:border-slate-200 max-lg:bg-white",
      )}
    >
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3 max-lg:sticky max-lg:top-0 max-lg:z-10 max-lg:bg-white">
        <h2 id="article-settings-heading" ref={heading} tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-none">
          Story settings
        </h2>
        {sheet ? (
          <Button type="button" variant="ghost" size="icon-sm" aria-label="Close settings" onClick={close}>
            <X aria-hidden="true" className="size-4" />
          </Button>
        ) : null}
      </div>
      <div className="space-y-6 p-4">{children}</div>
      {sheet ? (
        <div className="sticky bottom-0 border-t border-slate-200 bg-white p-4">
          <Button type="button" className="w-full" onClick={close}>
            Done
          </Button>
        </div>
      ) : null}
    </section>
  );
}

/** One group of the settings panel ("Publishing", "Byline", "Featured image" …) with its heading. */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-3">
      <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{title}</h3>
      {children}
    </div>
  );
}
