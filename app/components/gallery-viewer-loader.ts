import { useEffect } from "react";
import { hasGallery as holdsGallery } from "~/domain/articles/story-gallery-mark";

/**
 * Loads the galleries' full-screen viewer (app/lib/gallery-viewer.ts, a chunk of its own) on a page
 * whose story holds a gallery, after hydration; a page without one loads nothing more.
 */
export function useGalleryViewer(storyHtml: string | null | undefined): void {
  const hasGallery = holdsGallery(storyHtml);
  useEffect(() => {
    if (!hasGallery) return;
    let detach: (() => void) | undefined;
    let gone = false;
    void import("~/lib/gallery-viewer").then(({ attachGalleryViewer }) => {
      if (!gone) detach = attachGalleryViewer(document);
    });
    return () => {
      gone = true;
      detach?.();
    };
  }, [hasGallery]);
}
