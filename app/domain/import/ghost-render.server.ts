/**
 * Ghost's two editor formats rendered to plain HTML (issue 29), for posts whose export has no `html`:
 * mobiledoc (Ghost 1–4) and lexical (Ghost 5+). The HTML is what the import's converter reads next, so
 * it only needs to be faithful, not Ghost's exact markup: paragraphs, headings, quotes, lists, bold,
 * italic, links, images with captions (<figure>), HTML cards (as they are), markdown cards (through
 * marked), embeds (their URL as a link), code, galleries, bookmarks and rules. A card this renderer does
 * not know becomes `<!-- ghost card "name" not converted -->` (the converter drops comments) and its name
 * is pushed to `notes`, so the reader can report it.
 */
import { marked } from "marked";

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

type Json = Record<string, unknown>;

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function parseJson(json: string | object): unknown {
  if (typeof json !== "string") return json;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

/** Markdown (a Ghost markdown card, or a Ghost 0.x post's `markdown`) → HTML. */
export function htmlFromMarkdown(source: string): string {
  return markdown(source);
}

function markdown(source: string): string {
  return marked.parse(source, { async: false, gfm: true });
}

function figure(inner: string, caption: string): string {
  return caption === "" ? `<figure>${inner}</figure>` : `<figure>${inner}<figcaption>${caption}</figcaption></figure>`;
}

function image(src: string, alt: string, title = ""): string {
  const titled = title === "" ? "" : ` title="${escapeHtml(title)}"`;
  return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}"${titled}>`;
}

/** The cards both formats share, by name and payload (captions are HTML in Ghost). */
function renderCard(name: string, payload: Json, notes: string[]): string {
  switch (name) {
    case "image":
      if (str(payload.src) === "") return "";
      return figure(image(str(payload.src), str(payload.alt), str(payload.title)), str(payload.caption));
    case "html":
      return str(payload.html);
    case "markdown":
    case "card-markdown":
      return markdown(str(payload.markdown));
    case "embed": {
      const url = str(payload.url);
      if (url === "") return str(payload.html);
      return figure(`<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`, str(payload.caption));
    }
    case "bookmark": {
      const url = str(payload.url);
      const metadata = (payload.metadata ?? {}) as Json;
      const title = str(metadata.title) || url;
      return url === "" ? "" : figure(`<p><a href="${escapeHtml(url)}">${escapeHtml(title)}</a></p>`, str(payload.caption));
    }
    case "hr":
    case "horizontalrule":
      return "<hr>";
    case "code":
    case "codeblock": {
      const language = str(payload.language);
      const cls = language === "" ? "" : ` class="language-${escapeHtml(language)}"`;
      return figure(`<pre><code${cls}>${escapeHtml(str(payload.code))}</code></pre>`, str(payload.caption));
    }
    case "gallery": {
      const images = Array.isArray(payload.images) ? (payload.images as Json[]) : [];
      const inner = images
        .filter((i) => str(i.src) !== "")
        .map((i) => figure(image(str(i.src), str(i.alt), str(i.title)), str(i.caption)))
        .join("");
      return inner === "" ? "" : figure(inner, str(payload.caption));
    }
    default:
      notes.push(name);
      return `<!-- ghost card "${escapeHtml(name).replace(/--/g, "- -")}" not converted -->`;
  }
}

// ---------------------------------------------------------------- mobiledoc

const MARKUP_SECTION = 1;
const IMAGE_SECTION = 2;
const LIST_SECTION = 3;
const CARD_SECTION = 10;
const MARKUP_TAGS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "aside", "pre"]);
const INLINE_TAGS = new Set(["a", "b", "strong", "i", "em", "u", "s", "del", "code", "sub", "sup", "mark"]);

function renderMarkers(markers: unknown[], markups: unknown[][], atoms: unknown[][]): string {
  let html = "";
  const openTags: string[] = [];
  for (const marker of markers) {
    if (!Array.isArray(marker)) continue;
    const [kind, opens, closes, value] = marker as [number, number[], number, unknown];
    for (const index of Array.isArray(opens) ? opens : []) {
      const markup = markups[index] ?? [];
      const tag = str(markup[0]).toLowerCase();
      const safe = INLINE_TAGS.has(tag) ? tag : "span";
      let attributes = "";
      const pairs = Array.isArray(markup[1]) ? (markup[1] as unknown[]) : [];
      if (safe === "a") {
        for (let i = 0; i + 1 < pairs.length; i += 2) {
          const name = str(pairs[i]).toLowerCase();
          if (name === "href" || name === "rel" || name === "target") attributes += ` ${name}="${escapeHtml(str(pairs[i + 1]))}"`;
        }
      }
      html += `<${safe}${attributes}>`;
      openTags.push(safe);
    }
    if (kind === 1) {
      const atom = atoms[value as number] ?? [];
      html += atom[0] === "soft-return" ? "<br>" : escapeHtml(str(atom[1]));
    } else {
      html += escapeHtml(str(value));
    }
    for (let i = 0; i < (typeof closes === "number" ? closes : 0); i++) html += `</${openTags.pop() ?? "span"}>`;
  }
  while (openTags.length > 0) html += `</${openTags.pop()}>`;
  return html;
}

/** Mobiledoc (a JSON string or its parsed object) → HTML; unknown cards' names go to `notes`. */
export function htmlFromMobiledoc(json: string | object, notes: string[] = []): string {
  const doc = parseJson(json) as Json | null;
  if (doc === null || typeof doc !== "object" || !Array.isArray(doc.sections)) return "";
  const markups = (Array.isArray(doc.markups) ? doc.markups : []) as unknown[][];
  const atoms = (Array.isArray(doc.atoms) ? doc.atoms : []) as unknown[][];
  const cards = (Array.isArray(doc.cards) ? doc.cards : []) as unknown[][];
  const out: string[] = [];
  for (const section of doc.sections as unknown[][]) {
    if (!Array.isArray(section)) continue;
    switch (section[0]) {
      case MARKUP_SECTION: {
        const tag = str(section[1]).toLowerCase();
        const safe = MARKUP_TAGS.has(tag) ? tag : tag === "pull-quote" ? "blockquote" : "p";
        const inner = renderMarkers((section[2] ?? []) as unknown[], markups, atoms);
        if (safe === "p" && inner === "") break;
        out.push(`<${safe}>${inner}</${safe}>`);
        break;
      }
      case IMAGE_SECTION:
        if (str(section[1]) !== "") out.push(figure(image(str(section[1]), ""), ""));
        break;
      case LIST_SECTION: {
        const tag = str(section[1]).toLowerCase() === "ol" ? "ol" : "ul";
        const items = ((section[2] ?? []) as unknown[][]).map((markers) => `<li>${renderMarkers(markers, markups, atoms)}</li>`);
        out.push(`<${tag}>${items.join("")}</${tag}>`);
        break;
      }
      case CARD_SECTION: {
        const card = cards[section[1] as number] ?? [];
        out.push(renderCard(str(card[0]), (card[1] ?? {}) as Json, notes));
        break;
      }
      default:
        break;
    }
  }
  return out.filter((html) => html !== "").join("\n");
}

// ---------------------------------------------------------------- lexical

/** Lexical's text format bits, outermost first. */
const FORMATS: [number, string][] = [
  [1, "strong"],
  [2, "em"],
  [4, "s"],
  [8, "u"],
  [16, "code"],
  [32, "sub"],
  [64, "sup"],
  [128, "mark"],
];

function renderLexicalChildren(node: Json, notes: string[]): string {
  const children = Array.isArray(node.children) ? (node.children as Json[]) : [];
  return children.map((c) => renderLexicalNode(c, notes)).join("");
}

function renderLexicalNode(node: Json, notes: string[]): string {
  const type = str(node.type);
  switch (type) {
    case "text":
    case "extended-text": {
      let html = escapeHtml(str(node.text));
      const format = typeof node.format === "number" ? node.format : 0;
      for (const [bit, tag] of [...FORMATS].reverse()) if (format & bit) html = `<${tag}>${html}</${tag}>`;
      return html;
    }
    case "linebreak":
      return "<br>";
    case "tab":
      return "\t";
    case "link":
    case "autolink":
      return `<a href="${escapeHtml(str(node.url))}">${renderLexicalChildren(node, notes)}</a>`;
    case "paragraph":
    case "extended-paragraph": {
      const inner = renderLexicalChildren(node, notes);
      return inner === "" ? "" : `<p>${inner}</p>`;
    }
    case "heading":
    case "extended-heading": {
      const tag = /^h[1-6]$/.test(str(node.tag)) ? str(node.tag) : "h2";
      return `<${tag}>${renderLexicalChildren(node, notes)}</${tag}>`;
    }
    case "quote":
    case "extended-quote":
    case "aside":
      return `<blockquote>${renderLexicalChildren(node, notes)}</blockquote>`;
    case "list": {
      const tag = str(node.listType) === "number" || str(node.tag) === "ol" ? "ol" : "ul";
      return `<${tag}>${renderLexicalChildren(node, notes)}</${tag}>`;
    }
    case "listitem":
      return `<li>${renderLexicalChildren(node, notes)}</li>`;
    case "root":
      return renderLexicalBlocks(node, notes);
    default:
      return renderCard(type, node, notes);
  }
}

function renderLexicalBlocks(root: Json, notes: string[]): string {
  const children = Array.isArray(root.children) ? (root.children as Json[]) : [];
  return children
    .map((c) => renderLexicalNode(c, notes))
    .filter((html) => html !== "")
    .join("\n");
}

/** Lexical (a JSON string or its parsed object, `{ root }`) → HTML; unknown cards' names go to `notes`. */
export function htmlFromLexical(json: string | object, notes: string[] = []): string {
  const doc = parseJson(json) as Json | null;
  if (doc === null || typeof doc !== "object" || typeof doc.root !== "object" || doc.root === null) return "";
  return renderLexicalBlocks(doc.root as Json, notes);
}
