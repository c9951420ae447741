import { useEffect, useState } from "react";

// Sonner's rich-colour texts measure 4.3:1 on their backgrounds; these darker ones pass WCAG AA (4.5:1).
const contrastSafeColors = {
  "--success-text": "#166534",
  "--error-text": "#b91c1c",
  "--info-text": "#1d4ed8",
  "--warning-text": "#b45309",
} as React.CSSProperties;

type Sonner = typeof import("sonner");

/**
 * Sonner is loaded with the first notice, not with every page (issue 13: a reader who never posts
 * never downloads it). The root's <Toaster> mounts sonner's own once it has arrived, and a notice is
 * shown only after that mount, so the first one is never lost.
 */
let loaded: Sonner | null = null;
let loading: Promise<Sonner> | null = null;
/** Set while a <Toaster> is mounted: shows sonner's toaster and resolves once it is on the page. */
let mountSonner: ((sonner: Sonner) => Promise<void>) | null = null;

function sonnerOnPage(): Promise<Sonner> {
  loading ??= import("sonner").then(async (sonner) => {
    loaded = sonner;
    await mountSonner?.(sonner);
    return sonner;
  });
  return loading;
}

export function Toaster() {
  const [sonner, setSonner] = useState<Sonner | null>(loaded);
  const [onMounted, setOnMounted] = useState<(() => void) | null>(null);
  useEffect(() => {
    mountSonner = (next) =>
      new Promise<void>((resolve) => {
        setOnMounted(() => resolve);
        setSonner(next);
      });
    return () => {
      mountSonner = null;
    };
  }, []);
  // Runs after sonner's toaster (a child) ran its own effects, which subscribe it to notices.
  useEffect(() => {
    if (sonner && onMounted) onMounted();
  }, [sonner, onMounted]);
  if (!sonner) return null;
  const Sonner = sonner.Toaster;
  return <Sonner position="bottom-right" richColors closeButton style={contrastSafeColors} toastOptions={{ duration: 5000 }} />;
}

/** The spec's notices: a title and a description; failures are destructive. */
export const toast = {
  success: (title: string, description?: string) => void sonnerOnPage().then((sonner) => sonner.toast.success(title, { description })),
  error: (title: string, description?: string) => void sonnerOnPage().then((sonner) => sonner.toast.error(title, { description })),
};
