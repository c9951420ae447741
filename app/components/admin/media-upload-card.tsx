import { LoaderCircle, Upload } from "lucide-react";
import { useId } from "react";
import { toast } from "~/components/ui/toaster";
import type { UploadKind } from "~/lib/upload-rules";
import { useAdminUpload } from "./use-admin-upload";

/** The upload card of one media tab: a file picker with the spec's hint; uploads as soon as a file is chosen. */
export function MediaUploadCard({ kind, hint, onUploaded }: { kind: UploadKind; hint: string; onUploaded: () => void }) {
  const inputId = useId();
  const { inputProps, uploading } = useAdminUpload(kind, () => {
    toast.success("Upload successful", "File uploaded successfully");
    onUploaded();
  });

  return (
    <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <label
        htmlFor={inputId}
        aria-disabled={uploading}
        className="flex cursor-pointer flex-col items-center justify-center gap-2 rounded-md border-2 border-dashed border-slate-300 px-4 py-8 text-center text-slate-700 transition-colors hover:border-brand-700 hover:bg-slate-50 focus-within:border-brand-700 focus-within:ring-2 focus-within:ring-brand-700 aria-disabled:cursor-wait aria-disabled:opacity-70"
      >
        {uploading ? (
          <LoaderCircle className="h-8 w-8 animate-spin text-brand-700" aria-hidden="true" />
        ) : (
          <Upload className="h-8 w-8 text-brand-700" aria-hidden="true" />
        )}
        <span className="font-medium">{uploading ? "Uploading..." : hint}</span>
      </label>
      <input id={inputId} {...inputProps} />
    </div>
  );
}
