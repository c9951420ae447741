import { imageSrcSet } from "~/lib/image-variants";
import { escapeHtml, renderEmbedTarget } from "./story-embed-html";
import { walkStory, type StoryImageParts, type StoryRenderer, type StoryRun } from "./story-walk";

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

/** The reader page's mapping of the allowed nodes. */
const pageHtml: StoryRenderer<string> = {
  paragraph: (runs) => `<p>${renderRuns(runs)}</p>`,
  heading: (level, runs) => `<h${level}>${renderRuns(runs)}</h${level}>`,
  bulletList: (children) => `<ul>${children.join("")}</ul>`,
  orderedList: (start, children) => `<ol${start === null ? "" : ` start="${start}"`}>${children.join("")}</ol>`,
  listItem: (children) => `<li>${children.join("")}</li>`,
  blockquote: (children) => `<blockquote>${children.join("")}</blockquote>`,
  horizontalRule: () => "<hr>",
  image: renderImage,
  // A click-to-load player (see story-embed-html.ts); an id that is not one renders nothing.
  embed: renderEmbedTarget,
};

/** The document as HTML for the reader page. */
export function renderStoryHtml(doc: unknown): string {
  return walkStory(doc, pageHtml).join("");
}
