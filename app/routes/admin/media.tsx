import { Tabs } from "radix-ui";
import { useEffect, useRef, useState } from "react";
import { data, useFetcher, useFetchers, useRevalidator } from "react-router";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { MediaFileCard, type MediaCardItem } from "~/components/admin/media-file-card";
import { FocalPointDialog } from "~/components/admin/focal-point-dialog";
import { MediaPublishDialog } from "~/components/admin/media-publish-dialog";
import { MediaUploadCard } from "~/components/admin/media-upload-card";
import { toast } from "~/components/ui/toaster";
import { requireCapability } from "~/domain/accounts/guard.server";
import { can } from "~/domain/accounts/roles";
import { actorOf } from "~/domain/accounts/actor";
import { listCategories } from "~/domain/categories/categories.server";
import { MEDIA_LIST_LIMIT, MEDIA_TABS, mediaRefSchema, publishMediaSchema } from "~/domain/media/media-publish.schema";
import { focalPointSchema } from "~/domain/media/media-focal-point.schema";
import { deleteMedia, listMedia, listReaderUploads, publishMediaArticle, setFocalPoint } from "~/domain/media/media.server";
import { AppError } from "~/lib/app-error";
import { expectedOr, formValues, parseForm, refusalOf, type Refusal } from "~/lib/forms";
import { isResizableImageUrl } from "~/lib/image-variants";
import { formatCount } from "~/lib/numbers";
import { backOfficeMeta } from "~/page-meta";
import type { Route } from "./+types/media";

export const meta: Route.MetaFunction = ({ matches }) =>
  backOfficeMeta(matches, { title: "Media Library", path: "/admin/media" });

export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireCapability(request, context, "backOffice");
  const { db, storage } = context;
  const [images, videos, files, readerUploads, categories] = await Promise.all([
    listMedia(db, storage, "images"),
    listMedia(db, storage, "videos"),
    listMedia(db, storage, "files"),
    listReaderUploads(db, storage),
    listCategories(db),
  ]);
  return data(
    {
      media: { images, videos, files },
      // Readers' comment photos and videos: a tab of their own, never mixed into the newsroom's media.
      readerUploads,
      categories: categories.map(({ id, name }) => ({ id, name })),
      // Deleting and "Publish" are an editor's; an author uploads and copies URLs (the server checks again).
      canManage: can(user.role, "media.manage"),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

type ActionResult =
  | { intent: "delete"; ok: true; name: string }
  | { intent: "publish"; ok: true; slug: string }
  | { intent: "focal-point"; ok: true; articles: number }
  | (Refusal & { intent: "delete" | "publish" | "focal-point" | "unknown" });

const MEDIA_ACTION_FIELDS = ["intent", "bucket", "name", "title", "categoryId", "excerpt", "content", "featuredImageAlt", "focalX", "focalY"] as const;
const ANSWERED_INTENTS = ["delete", "publish", "focal-point"] as const;

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireCapability(request, context, "backOffice");
  const actor = actorOf(user);
  const { db, storage, log } = context;
  const noStore = { "Cache-Control": "no-store" };
  const { intent, ...values } = formValues(await request.formData(), MEDIA_ACTION_FIELDS);
  try {
    // Deleting a file, publishing an article from it and its focal point are an editor's (an author uploads only).
    if ((intent === "delete" || intent === "publish" || intent === "focal-point") && !can(user.role, "media.manage")) {
      throw new AppError("forbidden", "Your role cannot delete media or publish from the media library.");
    }
    if (intent === "delete") {
      const ref = parseForm(mediaRefSchema, values);
      await deleteMedia(db, storage, ref.bucket, ref.name, actor);
      return data<ActionResult>({ intent: "delete", ok: true, name: ref.name }, { headers: noStore });
    }
    if (intent === "publish") {
      const article = await publishMediaArticle(db, storage, parseForm(publishMediaSchema, values), actor);
      return data<ActionResult>({ intent: "publish", ok: true, slug: article.slug }, { headers: noStore });
    }
    if (intent === "focal-point") {
      const { articles } = await setFocalPoint(db, storage, parseForm(focalPointSchema, values), actor);
      return data<ActionResult>({ intent: "focal-point", ok: true, articles }, { headers: noStore });
    }
    throw new AppError("invalid_input", "Unknown action.");
  } catch (error) {
    const refusal = expectedOr(error, "Something went wrong on the server. Please try again.", (err) =>
      log.error({ err, intent }, "media library action failed"),
    );
    const answeredAs = (ANSWERED_INTENTS as readonly string[]).includes(intent) ? (intent as (typeof ANSWERED_INTENTS)[number]) : "unknown";
    return data<ActionResult>({ ...refusalOf(refusal), intent: answeredAs }, { status: refusal.status, headers: noStore });
  }
}

/** The Media Library's tab of readers' comment attachments. */
const READER_UPLOADS_TAB = "reader-uploads";

/** The key prefix of the cards' delete requests. */
const DELETE_FETCHER = "media-delete-";

/**
 * "File deleted successfully", from the page rather than the card: the list's reload after a delete
 * removes the card, sometimes before the card could react to its answer. Each answer is announced once.
 */
function useDeleteAnnouncements() {
  const fetchers = useFetchers();
  const announced = useRef(new WeakSet<object>());
  useEffect(() => {
    for (const fetcher of fetchers) {
      const answer = fetcher.data as ActionResult | undefined;
      if (!fetcher.key.startsWith(DELETE_FETCHER) || !answer || typeof answer !== "object" || announced.current.has(answer)) continue;
      announced.current.add(answer);
      if (answer.intent === "delete" && answer.ok) toast.success("File deleted", "File deleted successfully");
    }
  }, [fetchers]);
}

/** A tab's files: the "Showing the newest …" line, the empty state, or the grid of cards. */
function MediaGrid({
  list,
  loading,
  canManage,
  onPublish,
  onFocalPoint,
  emptyText = "No files uploaded yet",
}: {
  list: { items: MediaCardItem[]; total: number };
  loading: boolean;
  canManage: boolean;
  onPublish?: (item: MediaCardItem) => void;
  onFocalPoint?: (item: MediaCardItem) => void;
  emptyText?: string;
}) {
  const { items, total } = list;
  return (
    <>
      <div aria-live="polite" className="text-sm text-slate-700">
        {loading ? <p>Loading...</p> : null}
        {total > items.length ? (
          <p>
            Showing the newest {formatCount(MEDIA_LIST_LIMIT)} of {formatCount(total)} files.
          </p>
        ) : null}
      </div>
      {items.length === 0 ? (
        loading ? null : <p className="rounded-lg border border-dashed border-slate-300 py-12 text-center text-slate-700">{emptyText}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
          {items.map((item) => (
            <MediaCardWithActions key={`${item.bucket}/${item.name}`} item={item} canManage={canManage} onPublish={onPublish} onFocalPoint={onFocalPoint} />
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * A file card wired to its own delete request, so several deletes can run at once. `canManage`: the
 * role may delete (and, given onPublish, publish from) media.
 */
function MediaCardWithActions({
  item,
  canManage,
  onPublish,
  onFocalPoint,
}: {
  item: MediaCardItem;
  canManage: boolean;
  onPublish?: (item: MediaCardItem) => void;
  onFocalPoint?: (item: MediaCardItem) => void;
}) {
  const fetcher = useFetcher<ActionResult>({ key: `${DELETE_FETCHER}${item.bucket}-${item.name}` });
  // A refused delete leaves the card in place: it says why. (A done one removes the card with the
  // list's reload, possibly in the same render: the page announces it, see useDeleteAnnouncements.)
  useEffect(() => {
    if (fetcher.data?.intent === "delete" && !fetcher.data.ok) toast.error("Delete failed", fetcher.data.error);
  }, [fetcher.data]);
  return (
    <MediaFileCard
      item={item}
      deleting={fetcher.state !== "idle"}
      onPublish={canManage && onPublish ? () => onPublish(item) : undefined}
      // Only the article image types are cropped (a logo's .ico or an SVG is not): those get a focal point.
      onFocalPoint={canManage && onFocalPoint && item.bucket === "images" && isResizableImageUrl(item.url) ? () => onFocalPoint(item) : undefined}
      onDelete={
        canManage
          ? () => fetcher.submit({ intent: "delete", bucket: item.bucket, name: item.name }, { method: "post", action: "/admin/media" })
          : undefined
      }
    />
  );
}

export default function MediaLibrary({ loaderData }: Route.ComponentProps) {
  const { media, categories } = loaderData;
  const revalidator = useRevalidator();
  useDeleteAnnouncements();
  const [publishing, setPublishing] = useState<MediaCardItem | null>(null);
  const [focusing, setFocusing] = useState<MediaCardItem | null>(null);
  const loading = revalidator.state === "loading";

  return (
    <main className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-8">
      <AdminPageHeader title="Media Library" description="Upload images, videos and files, copy their links, or publish them as articles." />

      <Tabs.Root defaultValue="images" className="mt-6">
        <Tabs.List aria-label="Media type" className="inline-flex max-w-full flex-wrap gap-1 rounded-md bg-slate-100 p-1">
          {[...MEDIA_TABS.map((tab) => ({ value: tab.bucket, label: tab.label })), { value: READER_UPLOADS_TAB, label: "Reader uploads" }].map((tab) => (
            <Tabs.Trigger
              key={tab.value}
              value={tab.value}
              className="rounded px-4 py-1.5 text-sm font-medium text-slate-700 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm"
            >
              {tab.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {MEDIA_TABS.map((tab) => (
          <Tabs.Content key={tab.bucket} value={tab.bucket} className="mt-6 space-y-6">
            <h2 className="sr-only">{tab.label}</h2>
            <MediaUploadCard kind={tab.kind} hint={tab.hint} onUploaded={() => void revalidator.revalidate()} />
            <MediaGrid list={media[tab.bucket]} loading={loading} canManage={loaderData.canManage} onPublish={setPublishing} onFocalPoint={setFocusing} />
          </Tabs.Content>
        ))}
        <Tabs.Content value={READER_UPLOADS_TAB} className="mt-6 space-y-6">
          <h2 className="sr-only">Reader uploads</h2>
          <p className="text-sm text-slate-700">
            Photos and videos readers attached to their comments, kept apart from the newsroom&apos;s own media. They cannot be
            published as articles. A file is removed some hours after its comment is deleted, or when its comment was never posted.
          </p>
          <MediaGrid list={loaderData.readerUploads} loading={loading} canManage={loaderData.canManage} emptyText="No reader has attached a photo or video yet" />
        </Tabs.Content>
      </Tabs.Root>

      <MediaPublishDialog item={publishing} categories={categories} onClose={() => setPublishing(null)} />
      <FocalPointDialog item={focusing} onClose={() => setFocusing(null)} />
    </main>
  );
}
