import { Dialog } from "radix-ui";
import { X } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Input, Label, Textarea } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import { FEATURED_IMAGE_ALT_HINT, FEATURED_IMAGE_TEXT_MAX } from "~/domain/articles/articles.schema";
import type { MediaCardItem } from "./media-file-card";

export interface PublishResult {
  intent: "publish";
  ok: boolean;
  error?: string;
  slug?: string;
}

const EMPTY = { title: "", categoryId: "", excerpt: "", content: "", featuredImageAlt: "" };

/**
 * "Publish Article with Media": a new article from one stored file, under the signed-in person's
 * byline. The button stays disabled until title, category and content are filled (and, for an image,
 * which becomes the featured image, its alt text): publishing's blockers, which the server enforces
 * too. On success the dialog closes and the form resets.
 */
export function MediaPublishDialog({
  item,
  categories,
  onClose,
}: {
  item: MediaCardItem | null;
  categories: { id: string; name: string }[];
  onClose: () => void;
}) {
  const fetcher = useFetcher<PublishResult>({ key: "media-publish" });
  const [form, setForm] = useState(EMPTY);
  const id = useId();
  const pending = fetcher.state !== "idle";
  const isImage = item?.bucket === "images";
  const ready = form.title.trim() !== "" && form.categoryId !== "" && form.content.trim() !== "" && (!isImage || form.featuredImageAlt.trim() !== "");

  useEffect(() => {
    if (!fetcher.data || fetcher.data.intent !== "publish") return;
    if (fetcher.data.ok) {
      toast.success("Article published successfully");
      setForm(EMPTY);
      onClose();
    } else {
      toast.error("Failed to publish", fetcher.data.error ?? "The article could not be published.");
    }
    // The fetcher's data object is new for every submission, so each answer is handled once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data]);

  function set<K extends keyof typeof EMPTY>(key: K, value: string) {
    setForm((current) => ({ ...current, [key]: value }));
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!item || !ready || pending) return;
    const { featuredImageAlt, ...texts } = form;
    void fetcher.submit(
      { intent: "publish", bucket: item.bucket, name: item.name, ...texts, ...(isImage ? { featuredImageAlt } : {}) },
      { method: "post", action: "/admin/media" },
    );
  }

  return (
    <Dialog.Root open={item !== null} onOpenChange={(open) => !open && !pending && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">Publish Article with Media</Dialog.Title>
          <Dialog.Description className="mt-1 truncate text-sm text-slate-700">
            {item ? `Media: ${item.originalName}` : ""}
          </Dialog.Description>
          <form onSubmit={submit} className="mt-4 space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-title`}>Title *</Label>
              <Input
                id={`${id}-title`}
                value={form.title}
                onChange={(e) => set("title", e.target.value)}
                required
                maxLength={300}
              />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-category`}>Category *</Label>
              <select
                id={`${id}-category`}
                value={form.categoryId}
                onChange={(e) => set("categoryId", e.target.value)}
                required
                className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900"
              >
                <option value="">Select a category</option>
                {categories.map((category) => (
                  <option key={category.id} value={category.id}>
                    {category.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-excerpt`}>Excerpt</Label>
              <Textarea
                id={`${id}-excerpt`}
                rows={3}
                value={form.excerpt}
                onChange={(e) => set("excerpt", e.target.value)}
                maxLength={1000}
              />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-content`}>Content *</Label>
              <Textarea
                id={`${id}-content`}
                rows={8}
                value={form.content}
                onChange={(e) => set("content", e.target.value)}
                required
              />
            </div>
            {isImage ? (
              <div className="space-y-1.5">
                <Label htmlFor={`${id}-alt`}>Alt text *</Label>
                <Input
                  id={`${id}-alt`}
                  value={form.featuredImageAlt}
                  onChange={(e) => set("featuredImageAlt", e.target.value)}
                  required
                  aria-describedby={`${id}-alt-hint`}
                  maxLength={FEATURED_IMAGE_TEXT_MAX.alt}
                />
                <p id={`${id}-alt-hint`} className="text-xs text-slate-600">
                  {FEATURED_IMAGE_ALT_HINT}
                </p>
              </div>
            ) : null}
            <p className="text-xs text-slate-600">It is published at once, under your byline.</p>
            <Button type="submit" className="w-full" disabled={!ready || pending} aria-busy={pending}>
              {pending ? "Publishing..." : "Publish Article"}
            </Button>
          </form>
          <Dialog.Close asChild>
            <Button type="button" variant="ghost" size="icon" className="absolute top-3 right-3" aria-label="Close" disabled={pending}>
              <X className="h-4 w-4" aria-hidden="true" />
            </Button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
