import { ImageIcon, LoaderCircle, Upload, X } from "lucide-react";
import { Button } from "~/components/ui/button";
import { useAdminUpload } from "./use-admin-upload";

/**
 * Logo or favicon: a preview, an upload button (through /api/admin/uploads/logo|favicon) and a remove
 * button. The chosen URL travels in a hidden input and is saved with "Save Settings".
 */
export function SettingsImageField({
  kind,
  label,
  description,
  value,
  onChange,
  error,
}: {
  kind: "logo" | "favicon";
  label: string;
  description: string;
  value: string;
  onChange: (url: string) => void;
  error?: string;
}) {
  const { inputProps, uploading } = useAdminUpload(kind, (stored) => onChange(stored.url));
  const inputId = `settings-${kind}-file`;
  const messageId = `settings-${kind}-message`;

  return (
    <fieldset className="space-y-3" aria-describedby={messageId}>
      <legend className="text-sm font-medium text-slate-800">{label}</legend>
      <input type="hidden" name={`${kind}Url`} value={value} />
      <div className="flex flex-wrap items-center gap-4">
        <div
          className={
            kind === "logo"
              ? "flex h-20 w-48 items-center justify-center overflow-hidden rounded-md border border-slate-200 bg-slate-50"
              : "flex h-16 w-16 items-center justify-center overflow-hidden rounded-md border border-slate-200 bg-slate-50"
          }
        >
          {value ? (
            <img src={value} alt={`${label} preview`} className="max-h-full max-w-full object-contain" />
          ) : (
            <ImageIcon className="h-6 w-6 text-slate-500" aria-label={`No ${label.toLowerCase()} set`} role="img" />
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" aria-disabled={uploading}>
            <label htmlFor={inputId} className="cursor-pointer focus-within:ring-2 focus-within:ring-brand-700">
              {uploading ? (
                <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden="true" />
              ) : (
                <Upload className="h-4 w-4" aria-hidden="true" />
              )}
              {uploading ? "Uploading..." : `Upload ${label}`}
            </label>
          </Button>
          <input id={inputId} {...inputProps} />
          {value ? (
            <Button type="button" variant="outline" onClick={() => onChange("")} disabled={uploading}>
              <X className="h-4 w-4" aria-hidden="true" />
              Remove {label}
            </Button>
          ) : null}
        </div>
      </div>
      <p id={messageId} className={error ? "text-sm text-red-700" : "text-sm text-slate-600"}>
        {error ?? description}
      </p>
    </fieldset>
  );
}
