import { imageSrcSet } from "~/lib/image-variants";
import { embedPosterKey, escapeHtml, NO_POSTERS, renderEmbedTarget, type EmbedPosters } from "./story-embed-html";
import { GALLERY_OPEN_TAG, hasGallery } from "./story-gallery-mark";
import { walkStory, type StoryGalleryImage, type StoryImageParts, type StoryRenderer, type StoryRun } from "./story-walk";

/**
 * A story document as HTML for the reader page, rendered on the server through the allow-list of
 * story-walk.ts (the node types, the URL checks: links http/https/mailto, images our media or https,
 * embeds YouTube or X as click-to-load players). Every text and attribute is escaped here.
 */

function renderRun(run: StoryRun): string {
  if (run.kind === "break") return "<br>";
  let html = escapeHtml(run.text);
  // Inner to outer: italic, bold, then the link around them.
  if (run.italic) html = `<em>${html}</em>`;
  if (run.bold) html = `<strong>${html}</strong>`;
  if (run.href) html = `<a href="${escapeHtml(run.href)}" rel="noopener">${html}</a>`;
  return html;
}

const renderRuns = (runs: StoryRun[]) => runs.map(renderRun).join("");

function renderImage({ src, alt, caption, credit }: StoryImageParts): string {
  const srcSet = imageSrcSet(src, [480, 960, 1280]);
  const img =
    `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" loading="lazy" decoding="async"` +
    (srcSet ? ` srcset="${escapeHtml(srcSet)}" sizes="(min-width: 896px) 864px, 100vw"` : "") +
    ">";
  const captionHtml =
    caption || credit
      ? `<figcaption>${caption ? `<span class="story-caption">${escapeHtml(caption)}</span>` : ""}${
          credit ? `${caption ? " " : ""}<span class="story-credit">${escapeHtml(credit)}</span>` : ""
        }</figcaption>`
      : "";
  return `<figure class="story-image">${img}${captionHtml}</figure>`;
}

/**
 * A gallery (issue 41): a list of figures in a grid (2 columns on a phone, 3–4 on a wide screen, each
 * picture cropped to a square by the stylesheet), each picture a link to the whole image, which works
 * without JavaScript; with it, the page's viewer opens the picture full-screen instead.
 */
export function renderGallery(images: readonly StoryGalleryImage[]): string {
  const items = images
    .map(({ src, alt, caption }, index) => {
      const srcSet = imageSrcSet(src, [320, 640]);
      const img =
        `<img src="${escapeHtml(srcSet ? `${src}?w=640` : src)}" alt="${escapeHtml(alt)}" loading="lazy" decoding="async"` +
        (srcSet ? ` srcset="${escapeHtml(srcSet)}" sizes="(min-width: 896px) 216px, 50vw"` : "") +
        ">";
      return (
        `<li><figure><a href="${escapeHtml(src)}" class="story-gallery-link" data-index="${index}">${img}</a>` +
        (caption ? `<figcaption>${escapeHtml(caption)}</figcaption>` : "") +
        `</figure></li>`
      );
    })
    .join("");
  const count = images.length;
  return `${GALLERY_OPEN_TAG} data-count="${count}" role="group" aria-label="Gallery of ${count} ${count === 1 ? "image" : "images"}"><ul>${items}</ul></div>`;
}

/** The reader page's mapping of the allowed nodes; an embed with its poster from `posters`. */
const pageHtml = (posters: EmbedPosters): StoryRenderer<string> => ({
  paragraph: (runs) => `<p>${renderRuns(runs)}</p>`,
  heading: (level, runs) => `<h${level}>${renderRuns(runs)}</h${level}>`,
  bulletList: (children) => `<ul>${children.join("")}</ul>`,
  orderedList: (start, children) => `<ol${start === null ? "" : ` start="${start}"`}>${children.join("")}</ol>`,
  listItem: (children) => `<li>${children.join("")}</li>`,
  blockquote: (children) => `<blockquote>${children.join("")}</blockquote>`,
  horizontalRule: () => "<hr>",
  image: renderImage,
  // A click-to-load player behind its poster (see story-embed-html.ts); an id that is not one renders nothing.
  embed: (target) => renderEmbedTarget(target, posters.get(embedPosterKey(target))),
  gallery: renderGallery,
});

const withoutPosters = pageHtml(NO_POSTERS);

/** The document as HTML for the reader page; its embeds with the posters known (embed-posters.server.ts), titled placeholders without. */
export function renderStoryHtml(doc: unknown, posters: EmbedPosters = NO_POSTERS): string {
  return walkStory(doc, posters.size === 0 ? withoutPosters : pageHtml(posters)).join("");
}
export { hasGallery };
