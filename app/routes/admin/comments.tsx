import { useEffect } from "react";
import { data, Link, useFetcher } from "react-router";
import { Pagination } from "~/components/pagination";
import { pageCountOrRedirect, pageFromUrl } from "~/lib/pagination";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDeleteButton } from "~/components/admin/confirm-dialog";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import { deleteComment, listCommentsForModeration } from "~/domain/comments/comment-moderation.server";
import { formatCommentDate } from "~/lib/dates";
import { AppError } from "~/lib/app-error";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/comments";

/** Comments per page of the moderation list. */
export const MODERATION_PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "comments.moderate");
  const page = pageFromUrl(request.url);
  const { rows, total } = await listCommentsForModeration(context.db, page, MODERATION_PAGE_SIZE);
  const pageCount = pageCountOrRedirect(request.url, page, total, MODERATION_PAGE_SIZE);
  return {
    comments: rows.map((c) => ({
      ...c,
      createdAt: c.createdAt.toISOString(),
      when: formatCommentDate(c.createdAt, context.env.TIME_ZONE),
    })),
    page,
    pageCount,
    total,
  };
}

type CommentActionData = { ok: true } | Refusal;

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "comments.moderate"));
  const { intent, id } = formValues(await request.formData(), ["intent", "id"]);
  try {
    if (intent !== "delete" || !id) throw new AppError("invalid_input", "Unknown action.");
    await deleteComment(context.db, id, actor);
  } catch (error) {
    return refuse(error);
  }
  context.log.info({ commentId: id }, "comment deleted by an admin");
  return data<CommentActionData>({ ok: true });
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Moderate Comments", path: "/admin/comments" });

export default function ModerateComments({ loaderData }: Route.ComponentProps) {
  const { comments, page, pageCount, total } = loaderData;
  const fetcher = useFetcher<CommentActionData>({ key: "comment-delete" });
  const deletingId = fetcher.state !== "idle" ? fetcher.formData?.get("id") : null;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) toast.success("Comment deleted", "The comment has been removed successfully");
    else toast.error("Error", fetcher.data.error);
  }, [fetcher.state, fetcher.data]);

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader title="Moderate Comments" description={`${total} ${total === 1 ? "comment" : "comments"}, newest first`} />

      {comments.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">No comments yet</p>
      ) : (
        <ul className="space-y-4">
          {comments.map((comment) => (
            <li
              key={comment.id}
              className={`rounded-lg border border-slate-200 bg-white p-5 ${deletingId === comment.id ? "opacity-50" : ""}`}
            >
              <article aria-labelledby={`comment-${comment.id}-author`} className="flex items-start justify-between gap-4">
                <div className="min-w-0 flex-1 space-y-2">
                  <h2 id={`comment-${comment.id}-author`} className="text-base font-semibold text-slate-900">
                    {comment.authorName} <span className="font-normal text-slate-700">({comment.authorEmail})</span>
                    {comment.isReply ? <span className="ml-2 text-xs font-normal text-slate-600">reply</span> : null}
                  </h2>
                  <p className="break-words whitespace-pre-line text-slate-800">{comment.content}</p>
                  {comment.imageUrl ? (
                    <img
                      src={comment.imageUrl}
                      alt={`Image attached by ${comment.authorName}`}
                      loading="lazy"
                      className="max-h-64 rounded-md border border-slate-200 object-contain"
                    />
                  ) : null}
                  {comment.videoUrl ? (
                    <video src={comment.videoUrl} controls preload="metadata" className="max-h-64 max-w-full rounded-md bg-black">
                      <track kind="captions" />
                    </video>
                  ) : null}
                  <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-700">
                    <time dateTime={comment.createdAt}>{comment.when}</time>
                    <Link to={`/article/${comment.article.slug}`} className="text-brand-700 underline-offset-4 hover:underline">
                      On: {comment.article.title}
                    </Link>
                  </div>
                </div>
                <ConfirmDeleteButton
                  label={`Delete comment by ${comment.authorName}`}
                  disabled={deletingId === comment.id}
                  className="shrink-0"
                  title="Delete Comment"
                  description="Are you sure you want to delete this comment? This action cannot be undone."
                  onConfirm={() => fetcher.submit({ intent: "delete", id: comment.id }, { method: "post" })}
                />
              </article>
            </li>
          ))}
        </ul>
      )}
      <Pagination basePath="/admin/comments" page={page} pageCount={pageCount} className="mt-6" />
    </main>
  );
}
