import { useRef, useState, type ChangeEvent } from "react";
import { toast } from "~/components/ui/toaster";
import { UPLOAD_RULES, type UploadKind } from "~/lib/upload-rules";
import { sendUpload, type UploadedFile } from "~/lib/upload-client";

/**
 * The upload behaviour of an admin file input: sends the chosen file to /api/admin/uploads/<kind>,
 * hands the stored file to `onStored`, toasts "Upload failed" with the reason otherwise, and clears
 * the input afterwards so the same file can be chosen again. Spread `inputProps` on the (visually
 * hidden) file input; it is disabled while an upload runs. `upload(file)` sends a file that came
 * another way (pasted or dropped into the story) through the same path.
 */
export function useAdminUpload(
  kind: UploadKind,
  onStored: (stored: UploadedFile) => void,
  onUploadingChange?: (uploading: boolean) => void,
) {
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  async function upload(file: File) {
    setUploading(true);
    onUploadingChange?.(true);
    try {
      onStored(await sendUpload<UploadedFile>(`/api/admin/uploads/${kind}`, file, UPLOAD_RULES[kind]));
    } catch (error) {
      toast.error("Upload failed", error instanceof Error ? error.message : String(error));
    } finally {
      setUploading(false);
      onUploadingChange?.(false);
      if (input.current) input.current.value = "";
    }
  }

  const inputProps = {
    ref: input,
    type: "file",
    accept: UPLOAD_RULES[kind].accept,
    className: "sr-only",
    disabled: uploading,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const file = event.currentTarget.files?.[0];
      if (file) void upload(file);
    },
  } as const;

  return { input, inputProps, uploading, upload };
}
