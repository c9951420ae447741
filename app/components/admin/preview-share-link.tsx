import { Copy, Link2, Link2Off, Loader2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "./confirm-dialog";
import { Input, Label } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import type { SharedPreviewLink } from "~/domain/articles/articles.schema";
import { formatPublishDate, useSiteTimeZone } from "~/lib/dates";
import type { Refusal } from "~/lib/forms";

/**
 * "Share preview link": makes a signed link to a saved draft's (or scheduled article's) preview that
 * works without an account until it expires, and shows it ready to copy. "Revoke preview links" ends
 * every link made so far, this one and any shared before (issue 28); a new one can be made at once.
 */
export function PreviewShareLink({ articleId }: { articleId: string }) {
  // One fetcher for both: a revocation's answer replaces the link shown, which no longer opens.
  const fetcher = useFetcher<SharedPreviewLink | { revoked: true } | Refusal>();
  const timeZone = useSiteTimeZone();
  const field = useRef<HTMLInputElement>(null);
  const link = fetcher.data && "url" in fetcher.data ? fetcher.data : null;
  const revoked = fetcher.data && "revoked" in fetcher.data ? fetcher.data : null;
  const refusal = fetcher.data && "ok" in fetcher.data ? fetcher.data : null;
  const busy = fetcher.state !== "idle";
  const action = `/api/admin/articles/${articleId}/preview-link`;

  useEffect(() => {
    if (link) field.current?.select();
  }, [link]);
  useEffect(() => {
    if (revoked) toast.success("Preview links revoked", "Links shared before no longer open. Make a new one to share the preview again.");
  }, [revoked]);
  useEffect(() => {
    if (refusal) toast.error("Error", refusal.error);
  }, [refusal]);

  async function copy() {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      toast.success("Link copied", "Anyone with this link can read the preview until it expires.");
    } catch {
      // Without clipboard access the link stays selected for the keyboard's own copy.
      field.current?.select();
      toast.error("Could not copy", "Select the link and copy it yourself.");
    }
  }

  return (
    <div className="w-full space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => fetcher.submit({}, { method: "post", action })}>
          {busy ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : <Link2 aria-hidden="true" className="size-4" />}
          {link ? "New preview link" : "Share preview link"}
        </Button>
        {/* Asked first: a press by mistake would close the preview for everyone it was sent to. */}
        <ConfirmDialog
          title="Revoke every preview link of this story?"
          description="Everyone you sent a preview link of this story to will no longer be able to open it. You can make a new link afterwards."
          confirmLabel="Revoke links"
          onConfirm={() => fetcher.submit({ intent: "revoke" }, { method: "post", action })}
          trigger={
            <Button type="button" variant="outline" size="sm" disabled={busy}>
              <Link2Off aria-hidden="true" className="size-4" />
              Revoke preview links
            </Button>
          }
        />
      </div>
      {link ? (
        <div className="space-y-1 rounded-md border border-slate-200 bg-slate-50 p-3">
          <Label htmlFor="preview-share-url">Preview link</Label>
          <div className="flex gap-2">
            <Input id="preview-share-url" ref={field} readOnly value={link.url} aria-describedby="preview-share-hint" className="min-w-0 flex-1" />
            <Button type="button" size="sm" onClick={copy}>
              <Copy aria-hidden="true" className="size-4" />
              Copy link
            </Button>
          </div>
          <p id="preview-share-hint" className="text-xs text-slate-600">
            Anyone with this link can read the preview, without signing in, until {formatPublishDate(link.expiresAt, timeZone)}. It is never
            indexed by search engines.
          </p>
        </div>
      ) : null}
    </div>
  );
}
