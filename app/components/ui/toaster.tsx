import { Toaster as Sonner, toast as sonnerToast } from "sonner";

export function Toaster() {
  return <Sonner position="bottom-right" richColors closeButton toastOptions={{ duration: 5000 }} />;
}

/** The spec's notices: a title and a description; failures are destructive. */
export const toast = {
  success: (title: string, description?: string) => sonnerToast.success(title, { description }),
  error: (title: string, description?: string) => sonnerToast.error(title, { description }),
};
