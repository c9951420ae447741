import { imageSrcSet } from "~/lib/image-variants";
import { attr, childrenOf, type AnyNode } from "./story-document";
import { escapeHtml, renderEmbedTarget } from "./story-embed-html";
import { embedTargetOf, isAllowedImageSrc, isAllowedLinkHref } from "./story-urls";

/**
 * A story document as HTML for the reader page, rendered on the server through an allow-list:
 * only the node and mark types below produce markup, every text and attribute is escaped, and
 * URLs are checked again (links http/https/mailto, images our media or https, embeds YouTube or
 * X as click-to-load players). Anything else renders as nothing. Stored documents were checked by
 * storyDocumentSchema when saved; this is the second line.
 */


function renderText(node: AnyNode): string {
  if (typeof node.text !== "string") return "";
  let html = escapeHtml(node.text);
  const marks = Array.isArray(node.marks) ? (node.marks as AnyNode[]) : [];
  // Inner to outer: italic, bold, then the link around them.
  if (marks.some((m) => m?.type === "italic")) html = `<em>${html}</em>`;
  if (marks.some((m) => m?.type === "bold")) html = `<strong>${html}</strong>`;
  const link = marks.find((m) => m?.type === "link");
  const href = link ? attr(link, "href").trim() : "";
  if (href && isAllowedLinkHref(href)) html = `<a href="${escapeHtml(href)}" rel="noopener">${html}</a>`;
  return html;
}

function renderInline(nodes: AnyNode[]): string {
  return nodes.map((n) => (n.type === "text" ? renderText(n) : n.type === "hardBreak" ? "<br>" : "")).join("");
}

function renderImage(node: AnyNode): string {
  const src = attr(node, "src").trim();
  if (!isAllowedImageSrc(src)) return "";
  const caption = attr(node, "caption").trim();
  const credit = attr(node, "credit").trim();
  const srcSet = imageSrcSet(src, [480, 960, 1280]);
  const img =
    `<img src="${escapeHtml(src)}" alt="${escapeHtml(attr(node, "alt").trim())}" loading="lazy" decoding="async"` +
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

/** An embed as a click-to-load player (see story-embed-html.ts); an address that is not YouTube or X renders nothing. */
function renderEmbed(node: AnyNode): string {
  const target = embedTargetOf(attr(node, "url"));
  return target ? renderEmbedTarget(target) : "";
}

function renderBlock(node: AnyNode, depth: number): string {
  if (depth > 40) return "";
  const blocks = () => childrenOf(node).map((child) => renderBlock(child, depth + 1)).join("");
  switch (node.type) {
    case "paragraph":
      return `<p>${renderInline(childrenOf(node))}</p>`;
    case "heading": {
      const level = node.attrs?.level === 3 ? 3 : 2;
      return `<h${level}>${renderInline(childrenOf(node))}</h${level}>`;
    }
    case "bulletList":
      return `<ul>${blocks()}</ul>`;
    case "orderedList": {
      const start = node.attrs?.start;
      const startAttr = typeof start === "number" && Number.isInteger(start) && start !== 1 ? ` start="${start}"` : "";
      return `<ol${startAttr}>${blocks()}</ol>`;
    }
    case "listItem":
      return `<li>${blocks()}</li>`;
    case "blockquote":
      return `<blockquote>${blocks()}</blockquote>`;
    case "horizontalRule":
      return "<hr>";
    case "storyImage":
      return renderImage(node);
    case "embed":
      return renderEmbed(node);
    default:
      // Not on the allow-list: nothing (the schema refuses it on save; this is the second line).
      return "";
  }
}

/** The document as HTML for the reader page. */
export function renderStoryHtml(doc: unknown): string {
  if (!doc || typeof doc !== "object" || (doc as AnyNode).type !== "doc") return "";
  return childrenOf(doc as AnyNode)
    .map((block) => renderBlock(block, 0))
    .join("");
}
