// The whole module, not `{ preload }`: the browser's runtime has no preload() (see below).
import ReactDOM from "react-dom";
import { imageSrcSet } from "./image-variants";

/**
 * Asks for a page's largest image at high priority before anything else is fetched: React writes
 * `<link rel="preload" as="image" imagesrcset imagesizes fetchpriority="high">` at the top of the
 * <head>, ahead of the stylesheet and the scripts' preloads (issue 13: on a phone the image queued
 * behind 30 script files). The srcset and sizes must be the <img>'s own, so the browser picks the same file.
 */
export function preloadImage(src: string, widths: readonly number[], sizes: string) {
  const imageSrcSetValue = imageSrcSet(src, widths);
  // The browser's runtime (Preact, decision 0030) has no preload(): the server's <link> is what counts.
  ReactDOM.preload?.(src, { as: "image", fetchPriority: "high", ...(imageSrcSetValue ? { imageSrcSet: imageSrcSetValue, imageSizes: sizes } : {}) });
}
