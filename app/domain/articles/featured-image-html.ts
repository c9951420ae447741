import { imageSrcSet } from "~/lib/image-variants";
import type { FeaturedImageText } from "./articles.schema";
import { escapeHtml } from "./story-embed-html";

/** The featured image's variants and the width it shows at: the page preloads the same (ArticleView). */
export const FEATURED_IMAGE_WIDTHS = [640, 960, 1280, 1600] as const;
export const FEATURED_IMAGE_SIZES = "(min-width: 896px) 864px, 100vw";

/**
 * The article page's featured image as HTML, rendered on the server like the story body (so the
 * reader's JavaScript does not grow with it): the image with its alt text ("" for an article saved
 * before alt text existed, until it is edited) and, with a caption or credit, a figcaption
 * "Caption — Photo: Credit". Every value is escaped. The page puts it inside
 * `<figure class="featured-figure">` (styled in app.css); null without an image.
 */
export function renderFeaturedImageHtml(article: FeaturedImageText & { featuredImage: string | null }): string | null {
  const src = article.featuredImage;
  if (!src) return null;
  const caption = article.featuredImageCaption?.trim() ?? "";
  const credit = article.featuredImageCredit?.trim() ?? "";
  const srcSet = imageSrcSet(src, FEATURED_IMAGE_WIDTHS);
  const img =
    `<img src="${escapeHtml(src)}"` +
    (srcSet ? ` srcset="${escapeHtml(srcSet)}" sizes="${FEATURED_IMAGE_SIZES}"` : "") +
    ` alt="${escapeHtml(article.featuredImageAlt?.trim() ?? "")}" width="1200" height="675" fetchpriority="high"` +
    ` class="aspect-video w-full rounded-xl object-cover">`;
  if (!caption && !credit) return img;
  const parts = [caption ? escapeHtml(caption) : "", credit ? `<span class="featured-credit">Photo: ${escapeHtml(credit)}</span>` : ""];
  return `${img}<figcaption>${parts.filter(Boolean).join(" — ")}</figcaption>`;
}
