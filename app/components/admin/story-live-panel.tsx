import { CheckCircle2, Copy, ExternalLink, Mail, X } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { NO_NEWSLETTER_SEND, PUBLISHED_FLAG, shareLinksOf, storySendText, type StorySendFacts } from "~/domain/articles/story-live.schema";
import { withNotice } from "./use-notice-toast";

/**
 * "Your story is live" (issue 41): at the top of the story's edit page right after the save that
 * published it (the redirect's `?published=1`). Its public address (open, copy), share shortcuts, the
 * newsletter send's status, and the way back to the list ("Article published successfully").
 * Dismissed, the flag leaves the address and the panel goes; a later save never brings it back.
 */
export function StoryLivePanel({ url, title, sends }: { url: string; title: string; sends: StorySendFacts[] | null }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  // Said once to a screen reader after the page shows (a live region filled after it is on the page).
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => setAnnouncement(`Your story is live at ${url}`), [url]);
  if (!params.has(PUBLISHED_FLAG)) return null;

  function dismiss() {
    const next = new URLSearchParams(location.search);
    next.delete(PUBLISHED_FLAG);
    const search = next.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : "" }, { replace: true, preventScrollReset: true });
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      toast.success("Link copied");
    } catch {
      toast.error("Error", "The link could not be copied: select it and copy it.");
    }
  }

  return (
    <section
      aria-labelledby="story-live-heading"
      data-testid="story-live"
      className="mb-6 min-w-0 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-950 sm:p-5"
    >
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <div className="flex items-start justify-between gap-3">
        <h2 id="story-live-heading" className="flex items-center gap-2 text-lg font-semibold text-emerald-950">
          <CheckCircle2 aria-hidden="true" className="size-5 shrink-0 text-emerald-700" />
          Your story is live
        </h2>
        <Button type="button" variant="ghost" size="icon-sm" aria-label="Dismiss" onClick={dismiss} className="shrink-0">
          <X aria-hidden="true" className="size-4" />
        </Button>
      </div>

      <p className="mt-2 min-w-0 break-all">
        <a href={url} target="_blank" rel="noopener noreferrer" data-testid="story-live-url" className="font-medium text-emerald-900 underline underline-offset-2">
          {url}
        </a>
      </p>

      <div className="mt-3 flex flex-wrap gap-2">
        <Button asChild size="sm">
          <a href={url} target="_blank" rel="noopener noreferrer">
            <ExternalLink aria-hidden="true" className="size-4" />
            Open
          </a>
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden="true" className="size-4" />
          Copy link
        </Button>
      </div>

      <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-medium">Share:</span>
        <ul className="flex flex-wrap gap-x-3 gap-y-1" aria-label="Share">
          {shareLinksOf(url, title).map((link) => (
            <li key={link.label}>
              <a
                href={link.href}
                target={link.href.startsWith("mailto:") ? undefined : "_blank"}
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1 text-emerald-900 underline underline-offset-2"
              >
                {link.href.startsWith("mailto:") ? <Mail aria-hidden="true" className="size-3.5" /> : null}
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </div>

      {sends ? (
        <ul className="mt-3 space-y-1" data-testid="story-live-sends">
          {sends.length ? sends.map((send) => <li key={send.newsletterName}>{storySendText(send)}</li>) : <li>{NO_NEWSLETTER_SEND}</li>}
        </ul>
      ) : null}

      <p className="mt-4">
        <Link to={withNotice("/admin/articles", "article-published")} className="font-medium text-emerald-900 underline underline-offset-2">
          Back to articles
        </Link>
      </p>
    </section>
  );
}
