import { Check, Copy, Crosshair, FileText, Film, Send, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { focalPosition, type FocalPoint } from "~/lib/image-variants";
import { ConfirmDialog } from "./confirm-dialog";

export interface MediaCardItem {
  bucket: string;
  name: string;
  originalName: string;
  contentType: string;
  size: number;
  url: string;
  /** An image's subject (issue 41); null: the centre. */
  focus: FocalPoint | null;
}

/** How long the copy button shows its check mark. */
export const COPIED_INDICATOR_MS = 2000;

function formatSize(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Older browsers and insecure origins have no async clipboard: fall back to a selection copy.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    return copied;
  }
}

/** One stored file: thumbnail (or an icon), its name, copy URL, and (for roles that manage media) Publish and delete. */
export function MediaFileCard({
  item,
  deleting,
  onPublish,
  onFocalPoint,
  onDelete,
}: {
  item: MediaCardItem;
  deleting: boolean;
  /** "Set focal point" of an image (issue 41); absent: the role may not change media, or the file is no image. */
  onFocalPoint?: () => void;
  /** Absent: the role may not publish from or delete media (decision 0017). */
  onPublish?: () => void;
  onDelete?: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copyUrl() {
    const absolute = new URL(item.url, window.location.origin).href;
    if (await copyText(absolute)) {
      toast.success("Copied!", "URL copied to clipboard");
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
    } else {
      toast.error("Copy failed", `Copy the URL by hand: ${absolute}`);
    }
  }

  const Icon = item.bucket === "videos" ? Film : FileText;
  return (
    <li className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex aspect-video items-center justify-center bg-slate-100">
        {item.bucket === "images" ? (
          <img src={item.url} alt={item.originalName} loading="lazy" className="h-full w-full object-cover" style={{ objectPosition: focalPosition(item.focus) }} />
        ) : (
          <Icon className="h-12 w-12 text-slate-500" aria-hidden="true" />
        )}
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="min-w-0">
          <p className="truncate font-medium text-slate-900" title={item.originalName}>
            {item.originalName}
          </p>
          <p className="truncate text-xs text-slate-600" title={item.name}>
            {item.name} · {formatSize(item.size)}
          </p>
        </div>
        <div className="mt-auto flex items-center gap-2">
          <Button
            type="button"
            variant="outline"
            size="icon"
            onClick={copyUrl}
            aria-label={copied ? `URL of ${item.originalName} copied` : `Copy URL of ${item.originalName}`}
            title="Copy URL"
          >
            {copied ? (
              <Check className="h-4 w-4 text-green-700" aria-hidden="true" data-testid="copied-check" />
            ) : (
              <Copy className="h-4 w-4" aria-hidden="true" />
            )}
          </Button>
          {onPublish ? (
            <Button type="button" variant="outline" size="sm" className="flex-1" onClick={onPublish}>
              <Send className="h-4 w-4" aria-hidden="true" />
              Publish
            </Button>
          ) : null}
          {onFocalPoint ? (
            <Button type="button" variant="outline" size="icon" onClick={onFocalPoint} aria-label={`Set focal point of ${item.originalName}`} title="Set focal point">
              <Crosshair className="h-4 w-4" aria-hidden="true" />
            </Button>
          ) : null}
          {onDelete ? (
            <ConfirmDialog
              title="Delete file"
              description="Are you sure you want to delete this file?"
              onConfirm={onDelete}
              trigger={
                <Button
                  type="button"
                  variant="destructive"
                  size="icon"
                  disabled={deleting}
                  aria-label={`Delete ${item.originalName}`}
                  title="Delete"
                >
                  <Trash2 className="h-4 w-4" aria-hidden="true" />
                </Button>
              }
            />
          ) : null}
        </div>
      </div>
    </li>
  );
}
