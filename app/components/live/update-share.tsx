import { useEffect, useRef, useState, type MouseEvent } from "react";
import { shareLinks } from "~/components/share-buttons";

// A live update's one small "Share" control (issue 41), in place of three large share buttons on every
// update. A native disclosure (<details>): without JavaScript it opens and shows plain links (X, Facebook,
// LinkedIn, and the update's own address under "Copy link"). With JavaScript, the device's share sheet
// (the Web Share API) where there is one; otherwise the same list, with the focus on its first link,
// Escape or a click elsewhere closing it, and "Copy link" copying the update's address.

const NAMES: Record<string, string> = { X: "X (Twitter)" };

function ShareIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" className="size-4" aria-hidden="true">
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
    </svg>
  );
}

/** `url`: the update's lasting address (absolute); `title`: its headline or the start of its text. */
export function UpdateShare({ url, title }: { url: string; title: string }) {
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);

  const close = (refocus: boolean) => {
    const details = detailsRef.current;
    if (!details?.open) return;
    details.open = false;
    if (refocus) details.querySelector("summary")?.focus();
  };

  // Open: a click or tap anywhere else closes it.
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!detailsRef.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const onSummaryClick = (event: MouseEvent<HTMLElement>) => {
    // The device's own share sheet where the browser offers one (phones, some desktops); the list elsewhere.
    if (detailsRef.current?.open || typeof navigator.share !== "function") return;
    event.preventDefault();
    navigator.share({ title, url }).catch(() => {
      // Dismissed by the reader (AbortError) or refused: nothing to do; the list stays one click away.
    });
  };

  const copy = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const done = (message: string) => setCopied(message);
    if (!navigator.clipboard) return done("Press and hold the link to copy it.");
    navigator.clipboard.writeText(url).then(
      () => done("Link copied"),
      () => done("Could not copy: press and hold the link to copy it."),
    );
  };

  return (
    <details
      ref={detailsRef}
      className="group relative ml-auto"
      onToggle={(event) => {
        const isOpen = event.currentTarget.open;
        setOpen(isOpen);
        setCopied(null);
        if (isOpen) event.currentTarget.querySelector<HTMLElement>("[data-share-item]")?.focus();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape" && detailsRef.current?.open) {
          event.preventDefault();
          close(true);
        }
      }}
    >
      <summary
        onClick={onSummaryClick}
        className="inline-flex cursor-pointer list-none items-center gap-1.5 rounded-md border border-slate-300 px-2.5 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50 hover:text-slate-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 group-open:bg-slate-100 [&::-webkit-details-marker]:hidden"
      >
        <ShareIcon />
        Share<span className="sr-only"> this update</span>
      </summary>
      <ul className="absolute right-0 z-20 mt-1 w-48 rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg" data-testid="update-share-menu">
        {shareLinks(url, title)
          .sort((a, b) => Number(b.name === "X") - Number(a.name === "X"))
          .map(({ name, href }) => (
          <li key={name}>
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              data-share-item
              onClick={() => close(false)}
              className="block px-3 py-2 text-slate-800 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700"
            >
              <span className="sr-only">Share on </span>
              {NAMES[name] ?? name}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        ))}
        <li className="border-t border-slate-200">
          <a href={url} data-share-item onClick={copy} className="block px-3 py-2 text-slate-800 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700">
            Copy link
          </a>
          <p role="status" className={copied ? "px-3 pb-2 text-xs font-medium text-green-800" : "sr-only"}>
            {copied}
          </p>
        </li>
      </ul>
    </details>
  );
}
