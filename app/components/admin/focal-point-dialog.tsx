import { Dialog } from "radix-ui";
import { X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { roundFocal } from "~/domain/media/media-focal-point.schema";
import { focalPosition, IMAGE_CROPS, type FocalPoint, type ImageCrop } from "~/lib/image-variants";
import type { MediaCardItem } from "./media-file-card";

export interface FocalPointResult {
  intent: "focal-point";
  ok: boolean;
  error?: string;
  articles?: number;
}

/** How far one press of an arrow key moves the point (5% of the image). */
const STEP = 0.05;

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-STEP, 0], ArrowRight: [STEP, 0], ArrowUp: [0, -STEP], ArrowDown: [0, STEP] };

const percent = (n: number) => `${Math.round(n * 100)}%`;

/** What the point says to a screen reader and under the picture. */
export const describeFocus = (focus: FocalPoint | null) => (focus ? `${percent(focus.x)} across, ${percent(focus.y)} down` : "the centre");

/**
 * "Set focal point" (issue 41): the editor clicks the subject of an image (or moves the point with the
 * arrow keys, 5% a press; "Centre" puts it back), sees the crops readers will see (16:9, 4:3, 1:1) and
 * saves it. The server keeps every article that shows the image in step.
 */
export function FocalPointDialog({ item, onClose }: { item: MediaCardItem | null; onClose: () => void }) {
  const fetcher = useFetcher<FocalPointResult>({ key: "media-focal-point" });
  const [focus, setFocus] = useState<FocalPoint | null>(item?.focus ?? null);
  const image = useRef<HTMLImageElement>(null);
  const pending = fetcher.state !== "idle";

  // Each image opens at its own saved point.
  useEffect(() => setFocus(item?.focus ?? null), [item]);

  useEffect(() => {
    if (!fetcher.data || fetcher.data.intent !== "focal-point") return;
    if (fetcher.data.ok) {
      const shown = fetcher.data.articles ? ` Its ${fetcher.data.articles === 1 ? "story shows" : `${fetcher.data.articles} stories show`} it at once.` : "";
      toast.success("Focal point saved", `Every crop of this image keeps its subject in frame.${shown}`);
      onClose();
    } else {
      toast.error("Focal point not saved", fetcher.data.error ?? "The focal point could not be saved.");
    }
    // The fetcher's data object is new for every submission, so each answer is handled once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data]);

  function pick(event: React.MouseEvent<HTMLButtonElement>) {
    const box = image.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return;
    setFocus({ x: roundFocal((event.clientX - box.left) / box.width), y: roundFocal((event.clientY - box.top) / box.height) });
  }

  function move(event: React.KeyboardEvent<HTMLButtonElement>) {
    const step = ARROWS[event.key];
    if (!step) return;
    event.preventDefault();
    const from = focus ?? { x: 0.5, y: 0.5 };
    setFocus({ x: roundFocal(from.x + step[0]), y: roundFocal(from.y + step[1]) });
  }

  function save() {
    if (!item || pending) return;
    void fetcher.submit(
      { intent: "focal-point", bucket: item.bucket, name: item.name, focalX: focus ? String(focus.x) : "", focalY: focus ? String(focus.y) : "" },
      { method: "post", action: "/admin/media" },
    );
  }

  const position = focalPosition(focus);
  return (
    <Dialog.Root open={item !== null} onOpenChange={(open) => !open && !pending && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">Set focal point</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-700">
            Click the subject of the image, or move the point with the arrow keys. Every crop (the lead, the cards, the social image) keeps it in frame.
          </Dialog.Description>
          {item ? (
            <div className="mt-4 space-y-5">
              <div className="flex flex-col items-center gap-2">
                <button
                  type="button"
                  onClick={pick}
                  onKeyDown={move}
                  aria-label={`Focal point of ${item.originalName}: ${describeFocus(focus)}. Click the subject, or use the arrow keys.`}
                  data-testid="focal-point-picker"
                  className="relative block w-fit max-w-full cursor-crosshair overflow-hidden rounded-md border border-slate-300 bg-slate-100 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2 focus-visible:outline-none"
                >
                  <img ref={image} src={item.url} alt="" className="block h-auto max-h-[45vh] w-auto max-w-full min-w-40" draggable={false} />
                  <span
                    aria-hidden="true"
                    data-testid="focal-point-marker"
                    className="pointer-events-none absolute size-6 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-blue-600/60 shadow-[0_0_0_2px_rgba(0,0,0,0.6)]"
                    style={{ left: percent(focus?.x ?? 0.5), top: percent(focus?.y ?? 0.5) }}
                  />
                </button>
                <p className="text-sm text-slate-700" aria-live="polite">
                  Focal point: {describeFocus(focus)}
                </p>
              </div>
              <div className="space-y-3">
                <h3 className="text-sm font-medium text-slate-800">What readers will see</h3>
                <ul className="grid grid-cols-3 items-start gap-2 sm:gap-4">
                  {(Object.keys(IMAGE_CROPS) as ImageCrop[]).map((crop) => {
                    const [w, h] = IMAGE_CROPS[crop];
                    return (
                      <li key={crop} className="space-y-1">
                        <img
                          src={item.url}
                          alt=""
                          data-testid={`focal-preview-${crop}`}
                          className="w-full rounded border border-slate-200 object-cover"
                          style={{ aspectRatio: `${w} / ${h}`, objectPosition: position }}
                        />
                        <p className="text-xs text-slate-600">{crop.replace("x", ":")}</p>
                      </li>
                    );
                  })}
                </ul>
              </div>
            </div>
          ) : null}
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => setFocus(null)} disabled={pending || focus === null}>
              Centre
            </Button>
            <Dialog.Close asChild>
              <Button type="button" variant="ghost" disabled={pending}>
                Cancel
              </Button>
            </Dialog.Close>
            <Button type="button" onClick={save} disabled={pending} aria-busy={pending}>
              {pending ? "Saving..." : "Save focal point"}
            </Button>
          </div>
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
