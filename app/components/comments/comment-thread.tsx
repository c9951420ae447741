import { MessageSquare } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { COMMENT_FORM_ANCHOR, commentAnchor, commentTextParts, type PublicComment } from "~/domain/comments/comments.schema";
import { formatCommentDate, useSiteTimeZone } from "~/lib/dates";
import { formatCount } from "~/lib/numbers";
import { CommentForm, CommentPostedMessage, type NoScriptCommentOutcome } from "./comment-form";

export type SerializedComment = Omit<PublicComment, "createdAt"> & { createdAt: string | Date };
export type SerializedThread = SerializedComment & { replies: SerializedComment[] };

/** A comment's text with its web addresses as links that pass no ranking and say they are the reader's (rel="nofollow ugc"). */
function CommentText({ text }: { text: string }) {
  return commentTextParts(text).map((part, index) =>
    "href" in part ? (
      <a key={index} href={part.href} rel="nofollow ugc noopener" className="text-brand-700 underline underline-offset-2">
        {part.text}
      </a>
    ) : (
      part.text
    ),
  );
}

function CommentBody({ comment }: { comment: SerializedComment }) {
  const timeZone = useSiteTimeZone();
  return (
    <>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold text-slate-900">{comment.authorName}</span>
        <time className="text-xs text-slate-600" dateTime={new Date(comment.createdAt).toISOString()}>
          {formatCommentDate(comment.createdAt, timeZone)}
        </time>
      </div>
      <p className="mt-1 whitespace-pre-line break-words text-slate-800">
        <CommentText text={comment.content} />
      </p>
      {comment.imageUrl ? (
        <a href={comment.imageUrl} target="_blank" rel="noopener noreferrer" className="mt-2 inline-block">
          <img src={comment.imageUrl} alt={`Image attached by ${comment.authorName}`} loading="lazy" className="max-h-64 rounded-md border border-slate-200" />
        </a>
      ) : null}
      {comment.videoUrl ? (
        <video src={comment.videoUrl} controls preload="metadata" className="mt-2 max-h-72 max-w-full rounded-md border border-slate-200" aria-label={`Video attached by ${comment.authorName}`} />
      ) : null}
    </>
  );
}

/** Where the sticky site header would cover a comment the page was opened at (#comment-{id}). */
const ANCHOR_OFFSET = "scroll-mt-24";

function ThreadItem({ thread, postedCommentId }: { thread: SerializedThread; postedCommentId?: string }) {
  const [replying, setReplying] = useState(false);
  return (
    <li id={commentAnchor(thread.id)} className={`rounded-lg border border-slate-200 bg-white p-4 ${ANCHOR_OFFSET}`} data-testid="comment">
      {thread.id === postedCommentId ? <CommentPostedMessage className="mb-3" /> : null}
      <CommentBody comment={thread} />
      <div className="mt-2">
        <Button type="button" variant="link" size="inline" aria-expanded={replying} onClick={() => setReplying((v) => !v)}>
          Reply
        </Button>
      </div>
      {replying ? (
        <div className="mt-3 rounded-md bg-slate-50 p-4">
          <CommentForm parentCommentId={thread.id} onDone={() => setReplying(false)} onCancel={() => setReplying(false)} />
        </div>
      ) : null}
      {thread.replies.length > 0 ? (
        <ul className="mt-4 space-y-3 border-l-2 border-brand-100 pl-4" aria-label={`Replies to ${thread.authorName}`}>
          {thread.replies.map((reply) => (
            <li key={reply.id} id={commentAnchor(reply.id)} className={ANCHOR_OFFSET} data-testid="reply">
              {reply.id === postedCommentId ? <CommentPostedMessage className="mb-2" /> : null}
              <CommentBody comment={reply} />
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/**
 * The comments of an article: `total` counts all of them (replies included), `threads` are one page
 * of top-level ones (the newest, or an older page when `olderPage`), and `olderThreads` how many
 * top-level ones come after this page ("Show older comments" opens the next page). `postedCommentId`:
 * the comment a reader just posted without JavaScript, which says "Comment posted!" where they land.
 */
export function CommentsSection({
  threads,
  total,
  olderThreads,
  olderPage = false,
  noScriptOutcome,
  postedCommentId,
}: {
  threads: SerializedThread[];
  total: number;
  olderThreads: number;
  olderPage?: boolean;
  noScriptOutcome?: NoScriptCommentOutcome;
  postedCommentId?: string;
}) {
  const last = threads.at(-1);
  return (
    <section aria-labelledby="comments-heading" className="mt-12 border-t border-slate-200 pt-8">
      <h2 id="comments-heading" className="flex items-center gap-2 font-serif text-2xl font-bold">
        <MessageSquare className="h-6 w-6 text-brand-700" aria-hidden="true" />
        Comments ({formatCount(total)})
      </h2>
      <div id={COMMENT_FORM_ANCHOR} className={`mt-6 rounded-lg border border-slate-200 bg-slate-50 p-5 ${ANCHOR_OFFSET}`}>
        <h3 className="mb-4 text-lg font-semibold">Leave a comment</h3>
        <CommentForm noScriptOutcome={noScriptOutcome} />
      </div>
      {threads.length === 0 ? (
        <p className="mt-6 text-slate-600">No comments yet. Be the first to share your thoughts.</p>
      ) : (
        <ul className="mt-6 space-y-4">
          {threads.map((t) => (
            <ThreadItem key={t.id} thread={t} postedCommentId={postedCommentId} />
          ))}
        </ul>
      )}
      {olderThreads > 0 || olderPage ? (
        <p className="mt-6 flex flex-wrap justify-center gap-6">
          {olderPage ? (
            <Link to="?" preventScrollReset className="font-medium text-brand-700 underline-offset-4 hover:underline">
              Newest comments
            </Link>
          ) : null}
          {olderThreads > 0 && last ? (
            <Link to={`?older-than=${last.id}`} preventScrollReset className="font-medium text-brand-700 underline-offset-4 hover:underline">
              Show older comments ({formatCount(olderThreads)} more)
            </Link>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}
