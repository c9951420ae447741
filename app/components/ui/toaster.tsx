import { Toaster as Sonner, toast as sonnerToast } from "sonner";

// Sonner's rich-colour texts measure 4.3:1 on their backgrounds; these darker ones pass WCAG AA (4.5:1).
const contrastSafeColors = {
  "--success-text": "#166534",
  "--error-text": "#b91c1c",
  "--info-text": "#1d4ed8",
  "--warning-text": "#b45309",
} as React.CSSProperties;

export function Toaster() {
  return <Sonner position="bottom-right" richColors closeButton style={contrastSafeColors} toastOptions={{ duration: 5000 }} />;
}

/** The spec's notices: a title and a description; failures are destructive. */
export const toast = {
  success: (title: string, description?: string) => sonnerToast.success(title, { description }),
  error: (title: string, description?: string) => sonnerToast.error(title, { description }),
};
