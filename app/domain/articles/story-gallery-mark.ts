/**
 * How a gallery starts in the reader page's story HTML (story-html.ts writes it; the page loads the
 * viewer when its story holds it). A story's text is escaped, so no text can contain it.
 */
export const GALLERY_ATTRIBUTE = "data-story-gallery";
export const GALLERY_OPEN_TAG = `<div class="story-gallery" ${GALLERY_ATTRIBUTE}`;

/** Whether a story's rendered HTML holds a gallery. */
export const hasGallery = (html: string | null | undefined) => Boolean(html?.includes(GALLERY_OPEN_TAG));
