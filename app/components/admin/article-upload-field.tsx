import { ImageIcon, Loader2, Upload, Video, X } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { useAdminUpload } from "./use-admin-upload";

type Kind = "image" | "video";

const TEXT: Record<Kind, { legend: string; upload: string; remove: string; successTitle: string; successText: string }> = {
  image: {
    legend: "Featured Image",
    upload: "Upload Image",
    remove: "Remove featured image",
    successTitle: "Image uploaded",
    successText: "Featured image uploaded successfully",
  },
  video: {
    legend: "Video",
    upload: "Upload Video",
    remove: "Remove video",
    successTitle: "Video uploaded",
    successText: "Video uploaded successfully",
  },
};

/**
 * The article form's featured image or video: a preview, a remove button and an upload button.
 * The chosen URL travels in a hidden input named `name`; the server checks it is ours. `onUrlChange`
 * hears each new choice; `children` (the image's alt text, caption and credit) follow the button.
 */
export function ArticleUploadField({
  kind,
  name,
  defaultUrl,
  error,
  onUploadingChange,
  onChange,
  onUrlChange,
  labels,
  children,
}: {
  kind: Kind;
  /** Another image field's own words (the social image, issue 41): its legend, buttons, toasts and preview's alt text. */
  labels?: Partial<(typeof TEXT)[Kind]> & { preview?: string };
  name: string;
  defaultUrl: string | null;
  error?: string;
  onUploadingChange: (uploading: boolean) => void;
  /** Called when the chosen file changes (uploaded or removed): the form has an unsaved change. */
  onChange?: () => void;
  onUrlChange?: (url: string) => void;
  children?: ReactNode;
}) {
  const [url, setUrlState] = useState(defaultUrl ?? "");
  const setUrl = (next: string) => {
    setUrlState(next);
    onChange?.();
    onUrlChange?.(next);
  };
  const text = { ...TEXT[kind], ...labels };
  const { input: inputRef, inputProps, uploading } = useAdminUpload(
    kind,
    (stored) => {
      setUrl(stored.url);
      toast.success(text.successTitle, text.successText);
    },
    onUploadingChange,
  );
  const id = useId();
  const errorId = `${id}-error`;

  return (
    <fieldset className="space-y-2" aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800">{text.legend}</legend>
      <input type="hidden" name={name} value={url} />
      {url ? (
        <div className="relative inline-block max-w-full">
          {kind === "image" ? (
            <img src={url} alt={labels?.preview ?? "Featured image preview"} className="max-h-64 rounded-md border border-slate-200 object-contain" />
          ) : (
            <video src={url} controls preload="metadata" className="max-h-64 max-w-full rounded-md border border-slate-200 bg-black">
              <track kind="captions" />
            </video>
          )}
          <Button
            type="button"
            variant="destructive"
            size="icon-sm"
            className="absolute top-2 right-2"
            onClick={() => setUrl("")}
            aria-label={text.remove}
          >
            <X aria-hidden="true" className="size-4" />
          </Button>
        </div>
      ) : (
        <div className="flex h-32 items-center justify-center rounded-md border-2 border-dashed border-slate-300 text-slate-600">
          {kind === "image" ? <ImageIcon aria-hidden="true" className="size-8" /> : <Video aria-hidden="true" className="size-8" />}
          <span className="sr-only">No {kind} chosen</span>
        </div>
      )}
      <div>
        <input {...inputProps} tabIndex={-1} aria-label={text.upload} />
        <Button type="button" variant="outline" disabled={uploading} onClick={() => inputRef.current?.click()}>
          {uploading ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : <Upload aria-hidden="true" className="size-4" />}
          {uploading ? "Uploading..." : text.upload}
        </Button>
        <p className="mt-1 text-xs text-slate-600">
          {kind === "image" ? "JPEG, PNG, GIF or WebP, up to 10 MB" : "MP4, WebM or QuickTime, up to 100 MB"}
        </p>
      </div>
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {children}
    </fieldset>
  );
}
