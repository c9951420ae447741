import { useEffect, useState } from "react";
import { data, Link, useFetcher } from "react-router";
import { Pagination } from "~/components/pagination";
import { pageCountOrRedirect, pageFromUrl } from "~/lib/pagination";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { ConfirmDeleteButton, ConfirmDialog } from "~/components/admin/confirm-dialog";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapability } from "~/domain/accounts/guard.server";
import {
  approveComments,
  blockCommenter,
  deleteComment,
  deleteComments,
  listCommentBlocks,
  listCommentsForModeration,
  unblockCommenter,
  type ModerationTab,
} from "~/domain/comments/comment-moderation.server";
import { HOLD_REASON_TEXT } from "~/domain/comments/comments.schema";
import { formatCommentDate } from "~/lib/dates";
import { formatCount } from "~/lib/numbers";
import { AppError } from "~/lib/app-error";
import { formValues, refuse, type Refusal } from "~/lib/forms";
import { cn } from "~/lib/cn";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/comments";

/** Comments per page of the moderation list. */
export const MODERATION_PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapability(request, context, "comments.moderate");
  const url = new URL(request.url);
  const tab: ModerationTab = url.searchParams.get("tab") === "pending" ? "pending" : "published";
  const page = pageFromUrl(request.url);
  const [{ rows, total, pending }, blocks] = await Promise.all([
    listCommentsForModeration(context.db, page, MODERATION_PAGE_SIZE, tab),
    tab === "pending" ? listCommentBlocks(context.db) : [],
  ]);
  const pageCount = pageCountOrRedirect(request.url, page, total, MODERATION_PAGE_SIZE);
  return {
    tab,
    comments: rows.map((c) => ({
      ...c,
      createdAt: c.createdAt.toISOString(),
      when: formatCommentDate(c.createdAt, context.env.TIME_ZONE),
    })),
    blocks: blocks.map((b) => ({ ...b, createdAt: b.createdAt.toISOString() })),
    page,
    pageCount,
    total,
    pending,
  };
}

type CommentActionData = { ok: true; intent: string; count?: number } | Refusal;

type Intent = "delete" | "approve" | "bulk-approve" | "bulk-delete" | "block-email" | "block-address" | "unblock";

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(await requireCapability(request, context, "comments.moderate"));
  const form = await request.formData();
  const { intent, id } = formValues(form, ["intent", "id"]);
  // The selected comments of a bulk action (ids are checked as UUIDs, so nothing else gets through).
  const ids = form.getAll("ids").filter((value): value is string => typeof value === "string");
  let count: number | undefined;
  try {
    switch (intent as Intent) {
      case "delete":
        await deleteComment(context.db, id, actor);
        break;
      case "approve":
        count = await approveComments(context.db, [id], actor);
        break;
      case "bulk-approve":
        count = await approveComments(context.db, ids, actor);
        break;
      case "bulk-delete":
        count = await deleteComments(context.db, ids, actor);
        break;
      case "block-email":
      case "block-address":
        await blockCommenter(context.db, id, intent === "block-email" ? "email" : "address", actor);
        break;
      case "unblock":
        await unblockCommenter(context.db, id, actor);
        break;
      default:
        throw new AppError("invalid_input", "Unknown action.");
    }
  } catch (error) {
    return refuse(error);
  }
  context.log.info({ intent, commentId: id || undefined, count }, "comment moderation");
  return data<CommentActionData>({ ok: true, intent, count });
}

export const meta: Route.MetaFunction = ({ matches }) => backOfficeMeta(matches, { title: "Moderate Comments", path: "/admin/comments" });

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What each action's success says. */
function successToast(result: { intent: string; count?: number }): [string, string] {
  switch (result.intent) {
    case "delete":
      return ["Comment deleted", "The comment has been removed successfully"];
    case "bulk-delete":
      return ["Comments deleted", `${plural(result.count ?? 0, "comment has", "comments have")} been removed.`];
    case "approve":
    case "bulk-approve":
      return [result.count === 1 ? "Comment approved" : "Comments approved", `${plural(result.count ?? 0, "comment is", "comments are")} now published.`];
    case "block-email":
      return ["E-mail blocked", "Its next comments will wait for moderation."];
    case "block-address":
      return ["Address blocked", "Its next comments will wait for moderation."];
    default:
      return ["Block removed", "Comments from it are published again."];
  }
}

export default function ModerateComments({ loaderData }: Route.ComponentProps) {
  const { tab, comments, blocks, page, pageCount, total, pending } = loaderData;
  const fetcher = useFetcher<CommentActionData>({ key: "comment-delete" });
  const busyId = fetcher.state !== "idle" ? fetcher.formData?.get("id") : null;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirmBulkDelete, setConfirmBulkDelete] = useState(false);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.ok) {
      toast.success(...successToast(fetcher.data));
      setSelected(new Set());
    } else toast.error("Error", fetcher.data.error);
  }, [fetcher.state, fetcher.data]);
  // A new tab or page starts with nothing selected.
  useEffect(() => setSelected(new Set()), [tab, page]);

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allSelected = comments.length > 0 && comments.every((c) => selected.has(c.id));
  const submitBulk = (intent: "bulk-approve" | "bulk-delete") => {
    const form = new FormData();
    form.set("intent", intent);
    for (const id of selected) form.append("ids", id);
    fetcher.submit(form, { method: "post" });
  };
  const act = (intent: string, id: string) => fetcher.submit({ intent, id }, { method: "post" });
  const description =
    tab === "pending"
      ? `${plural(total, "comment", "comments")} waiting for moderation, newest first`
      : `${plural(total, "comment", "comments")}, newest first`;

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader title="Moderate Comments" description={description} />

      <nav aria-label="Comment lists" className="mb-6 flex gap-2 border-b border-slate-200">
        {(
          [
            ["published", "Published", "/admin/comments"],
            ["pending", `Pending (${formatCount(pending)})`, "/admin/comments?tab=pending"],
          ] as const
        ).map(([key, label, to]) => (
          <Link
            key={key}
            to={to}
            aria-current={tab === key ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm font-medium",
              tab === key ? "border-brand-700 text-brand-800" : "border-transparent text-slate-700 hover:text-slate-900",
            )}
          >
            {label}
          </Link>
        ))}
      </nav>

      {comments.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white py-16 text-center text-slate-700">
          {tab === "pending" ? "No comments are waiting for moderation" : "No comments yet"}
        </p>
      ) : (
        <>
          <div className="mb-3 flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3">
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="size-4"
                checked={allSelected}
                onChange={(event) => setSelected(event.target.checked ? new Set(comments.map((c) => c.id)) : new Set())}
              />
              Select all on this page
            </label>
            <span className="text-sm text-slate-700" aria-live="polite">
              {selected.size > 0 ? `${selected.size} selected` : ""}
            </span>
            <div className="ml-auto flex gap-2">
              {tab === "pending" ? (
                <Button type="button" size="sm" disabled={selected.size === 0 || fetcher.state !== "idle"} onClick={() => submitBulk("bulk-approve")}>
                  Approve selected
                </Button>
              ) : null}
              <Button
                type="button"
                size="sm"
                variant="destructive"
                disabled={selected.size === 0 || fetcher.state !== "idle"}
                onClick={() => setConfirmBulkDelete(true)}
              >
                Delete selected
              </Button>
            </div>
          </div>
          <ConfirmDialog
            open={confirmBulkDelete}
            onOpenChange={setConfirmBulkDelete}
            title="Delete Comments"
            description={`Are you sure you want to delete ${plural(selected.size, "comment", "comments")}? This action cannot be undone.`}
            onConfirm={() => submitBulk("bulk-delete")}
          />
          <ul className="space-y-4">
            {comments.map((comment) => (
              <li key={comment.id} className={`rounded-lg border border-slate-200 bg-white p-5 ${busyId === comment.id ? "opacity-50" : ""}`}>
                <article aria-labelledby={`comment-${comment.id}-author`} className="flex items-start gap-4">
                  <input
                    type="checkbox"
                    className="mt-1 size-4 shrink-0"
                    aria-label={`Select comment by ${comment.authorName}`}
                    checked={selected.has(comment.id)}
                    onChange={(event) => toggle(comment.id, event.target.checked)}
                  />
                  <div className="min-w-0 flex-1 space-y-2">
                    <h2 id={`comment-${comment.id}-author`} className="text-base font-semibold text-slate-900">
                      {comment.authorName} <span className="font-normal text-slate-700">({comment.authorEmail})</span>
                      {comment.isReply ? <span className="ml-2 text-xs font-normal text-slate-600">reply</span> : null}
                      {comment.heldReason ? (
                        <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">{HOLD_REASON_TEXT[comment.heldReason]}</span>
                      ) : null}
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
                      {comment.authorAddress ? <span>From {comment.authorAddress}</span> : null}
                    </div>
                    <div className="flex flex-wrap gap-2 pt-1">
                      {tab === "pending" ? (
                        <Button type="button" size="sm" disabled={busyId === comment.id} onClick={() => act("approve", comment.id)}>
                          Approve
                        </Button>
                      ) : null}
                      <Button type="button" size="sm" variant="outline" disabled={busyId === comment.id} onClick={() => act("block-email", comment.id)}>
                        Block this e-mail
                      </Button>
                      {comment.authorAddress ? (
                        <Button type="button" size="sm" variant="outline" disabled={busyId === comment.id} onClick={() => act("block-address", comment.id)}>
                          Block this address
                        </Button>
                      ) : null}
                    </div>
                  </div>
                  <ConfirmDeleteButton
                    label={`Delete comment by ${comment.authorName}`}
                    disabled={busyId === comment.id}
                    className="shrink-0"
                    title="Delete Comment"
                    description="Are you sure you want to delete this comment? This action cannot be undone."
                    onConfirm={() => act("delete", comment.id)}
                  />
                </article>
              </li>
            ))}
          </ul>
        </>
      )}
      <Pagination basePath={tab === "pending" ? "/admin/comments?tab=pending" : "/admin/comments"} page={page} pageCount={pageCount} className="mt-6" />

      {tab === "pending" ? (
        <section aria-labelledby="blocked-heading" className="mt-10">
          <h2 id="blocked-heading" className="text-lg font-semibold text-slate-900">
            Blocked e-mails and addresses
          </h2>
          <p className="mt-1 text-sm text-slate-700">Comments from these wait here for moderation instead of being published.</p>
          {blocks.length === 0 ? (
            <p className="mt-3 text-sm text-slate-700">Nothing is blocked.</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
              {blocks.map((block) => (
                <li key={block.id} className="flex items-center justify-between gap-4 px-4 py-2 text-sm">
                  <span>
                    <span className="text-slate-600">{block.kind === "email" ? "E-mail" : "Address"}:</span>{" "}
                    <span className="font-medium text-slate-900">{block.value}</span>
                  </span>
                  <Button type="button" size="sm" variant="outline" disabled={busyId === block.id} onClick={() => act("unblock", block.id)}>
                    Unblock
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </main>
  );
}
