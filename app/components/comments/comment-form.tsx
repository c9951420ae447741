import { ImagePlus, Loader2, Video, X } from "lucide-react";
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { useMatches, useParams, useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import {
  COMMENT_FAILED,
  COMMENT_FORM_ANCHOR,
  COMMENT_HELD,
  FORM_STARTED_FIELD,
  HONEYPOT_FIELD,
  REQUIRED_COMMENT_FIELDS,
  type PostCommentResult,
} from "~/domain/comments/comments.schema";
import { cn } from "~/lib/cn";
import { MISSING_FIELDS, refusalNotice } from "~/lib/forms";
import { UPLOAD_RULES } from "~/lib/upload-rules";
import { sendUpload } from "~/lib/upload-client";

type AttachmentKind = "image" | "video";

interface Attachment {
  url: string;
}

/** What the article page's action answers a comment posted without JavaScript: the result, and on a refusal what was typed. */
export type NoScriptCommentOutcome = PostCommentResult;

/**
 * The comment (or reply) form: name, e-mail, text, and one optional image and one optional video,
 * uploaded first and then sent with the comment. Without JavaScript, text comments post to the article
 * page itself, which answers with the outcome shown above the fields.
 */
export function CommentForm({
  parentCommentId,
  onDone,
  onCancel,
  noScriptOutcome,
}: {
  parentCommentId?: string;
  onDone?: () => void;
  onCancel?: () => void;
  /** Set after a post without JavaScript: shown in place of the toast, and the typed text kept on a refusal. */
  noScriptOutcome?: NoScriptCommentOutcome;
}) {
  const { slug } = useParams();
  const revalidator = useRevalidator();
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const [image, setImage] = useState<Attachment | null>(null);
  const [video, setVideo] = useState<Attachment | null>(null);
  const [uploading, setUploading] = useState<AttachmentKind | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const busy = submitting || uploading !== null;
  const kept = noScriptOutcome && !noScriptOutcome.ok ? noScriptOutcome.values : undefined;
  // The page's signed "shown at" stamp (the article loader's), sent back so the server can tell a form
  // filled by a person from one posted the instant it loaded.
  const formStarted = useMatches()
    .map((match) => (match.data as { commentFormStarted?: string } | undefined)?.commentFormStarted)
    .find(Boolean);

  /** Sends the comment; any answer but success, a network failure included, ends in the spec's toast. */
  async function send(form: FormData): Promise<PostCommentResult> {
    try {
      const response = await fetch(`/api/articles/${encodeURIComponent(slug ?? "")}/comments`, { method: "POST", body: form });
      const body = (await response.json().catch(() => null)) as Partial<PostCommentResult> | null;
      if (response.ok && body?.ok) return body.held ? { ok: true, held: true } : { ok: true };
      if (body && body.ok === false && body.code && body.error) return { ...body, ok: false, code: body.code, error: body.error, fieldErrors: body.fieldErrors ?? {} };
    } catch {
      // A network failure: the same notice as a server failure.
    }
    return { ok: false, code: "server_error", error: COMMENT_FAILED, fieldErrors: {} };
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const blank = REQUIRED_COMMENT_FIELDS.some((name) => !String(form.get(name) ?? "").trim());
    if (blank) {
      toast.error(MISSING_FIELDS.title, MISSING_FIELDS.commentDescription);
      return;
    }
    setSubmitting(true);
    const result = await send(form);
    if (result.ok) {
      // The list is refetched before the form is reset, so the new comment is there when the toast shows.
      await revalidator.revalidate().catch(() => {});
      if (result.held) toast.success("Thank you!", COMMENT_HELD);
      else toast.success("Comment posted!", "Your comment has been added successfully.");
      formRef.current?.reset();
      setImage(null);
      setVideo(null);
      setSubmitting(false);
      onDone?.();
      return;
    }
    setSubmitting(false);
    toast.error(...refusalNotice(result));
  }

  async function onFile(kind: AttachmentKind, event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setUploading(kind);
    try {
      const { url } = await sendUpload(`/api/uploads/comment?kind=${kind}`, file, UPLOAD_RULES[kind]);
      if (kind === "image") setImage({ url });
      else setVideo({ url });
      toast.success("Upload successful", kind === "image" ? "Image uploaded successfully" : "Video uploaded successfully");
    } catch (error) {
      toast.error("Upload failed", error instanceof Error ? error.message : "The upload failed.");
    } finally {
      setUploading(null);
    }
  }

  return (
    <form
      method="post"
      // Without JavaScript a refusal comes back as the article page: at the form, whose message says why.
      action={parentCommentId ? undefined : `/article/${encodeURIComponent(slug ?? "")}#${COMMENT_FORM_ANCHOR}`}
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      className="space-y-4"
      aria-busy={busy}
    >
      <fieldset disabled={busy} className="space-y-4">
        <legend className="sr-only">{parentCommentId ? "Write a reply" : "Leave a comment"}</legend>
        <input type="hidden" name="intent" value="comment" />
        {noScriptOutcome ? <NoScriptMessage outcome={noScriptOutcome} /> : null}
        {parentCommentId ? <input type="hidden" name="parentCommentId" value={parentCommentId} /> : null}
        <input type="hidden" name="imageUrl" value={image?.url ?? ""} />
        <input type="hidden" name="videoUrl" value={video?.url ?? ""} />
        <input type="hidden" name={FORM_STARTED_FIELD} value={formStarted ?? ""} />
        {/* The honeypot: off screen, out of the tab order and hidden from assistive technology, so only
            a bot fills it (and its label says to leave it empty, should anything ever reach it). */}
        <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
          <label htmlFor={`${id}-website`}>Leave this field empty</label>
          <input id={`${id}-website`} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-name`}>Name *</Label>
            <Input id={`${id}-name`} name="authorName" autoComplete="name" required maxLength={100} defaultValue={kept?.authorName} />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${id}-email`}>Email *</Label>
            <Input id={`${id}-email`} name="authorEmail" type="email" autoComplete="email" required maxLength={254} defaultValue={kept?.authorEmail} />
          </div>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-content`}>{parentCommentId ? "Reply *" : "Comment *"}</Label>
          <Textarea id={`${id}-content`} name="content" rows={4} required maxLength={5000} defaultValue={kept?.content} />
        </div>
        <p className="text-xs text-slate-600">Your e-mail address is never published.</p>

        {image || video ? (
          <div className="flex flex-wrap gap-3">
            {image ? (
              <div className="relative">
                <img src={image.url} alt="Attached image preview" className="h-24 w-auto rounded-md border border-slate-200" />
                <button
                  type="button"
                  onClick={() => setImage(null)}
                  className="absolute -right-2 -top-2 rounded-full bg-red-700 p-1 text-white"
                  aria-label="Remove image"
                >
                  <X className="h-3.5 w-3.5" aria-hidden="true" />
                </button>
              </div>
            ) : null}
            {video ? (
              <div className="relative">
                <video src={video.url} controls preload="metadata" className="h-24 rounded-md border border-slate-200" aria-label="Attached video preview" />
                <button
                  type="button"
                  onClick={() => setVideo(null)}
                  className="absolute -right-2 -top-2 rounded-full bg-red-700 p-1 text-white"
                  aria-label="Remove video"
                >
                  <X className="h-3.5 w-3.5" aria-hidden="true" />
                </button>
              </div>
            ) : null}
          </div>
        ) : null}

        <div className="flex flex-wrap items-center gap-2">
          <AttachButton kind="image" disabled={Boolean(image)} uploading={uploading === "image"} onChange={(e) => onFile("image", e)} />
          <AttachButton kind="video" disabled={Boolean(video)} uploading={uploading === "video"} onChange={(e) => onFile("video", e)} />
          <div className="ml-auto flex gap-2">
            {onCancel ? (
              <Button type="button" variant="outline" onClick={onCancel}>
                Cancel
              </Button>
            ) : null}
            <Button type="submit">{submitting ? "Posting..." : parentCommentId ? "Post Reply" : "Post Comment"}</Button>
          </div>
        </div>
      </fieldset>
    </form>
  );
}

/** The spec's toast texts, as a message in the page (a post without JavaScript shows no toast). */
function NoScriptMessage({ outcome }: { outcome: NoScriptCommentOutcome }) {
  if (outcome.ok && outcome.held) {
    return (
      <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        <strong>Thank you!</strong> {COMMENT_HELD}
      </p>
    );
  }
  if (outcome.ok) return <CommentPostedMessage />;
  const [title, text] = refusalNotice(outcome);
  return (
    <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
      <strong>{title}:</strong> {text}
    </p>
  );
}

/** The spec's "Comment posted!" notice in the page: on the comment a reader posted without JavaScript. */
export function CommentPostedMessage({ className }: { className?: string }) {
  return (
    <p role="status" className={cn("rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900", className)}>
      <strong>Comment posted!</strong> Your comment has been added successfully.
    </p>
  );
}

function AttachButton({
  kind,
  disabled,
  uploading,
  onChange,
}: {
  kind: AttachmentKind;
  disabled: boolean;
  uploading: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const Icon = uploading ? Loader2 : kind === "image" ? ImagePlus : Video;
  const label = kind === "image" ? "Add image" : "Add video";
  return (
    <>
      <input ref={inputRef} type="file" accept={UPLOAD_RULES[kind].accept} className="sr-only" tabIndex={-1} aria-hidden="true" onChange={onChange} data-testid={`${kind}-input`} />
      <Button type="button" variant="outline" size="sm" disabled={disabled} onClick={() => inputRef.current?.click()}>
        <Icon className={uploading ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden="true" />
        {uploading ? "Uploading..." : label}
      </Button>
    </>
  );
}
