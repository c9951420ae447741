import { randomBytes } from "node:crypto";
import { isComment, isTag, isText, type ChildNode, type Element } from "domhandler";
import { parseDocument } from "htmlparser2";
import type {
  StoryBlock,
  StoryDocument,
  StoryEmbed,
  StoryImage,
  StoryInline,
  StoryListItem,
  StoryMark,
  StoryParagraph,
} from "~/domain/articles/story-document.schema";
import { embedTargetOf, isAllowedImageSrc, isAllowedLinkHref } from "~/domain/articles/story-urls";
import type { ImportSourceKind } from "./import-records";

/**
 * An imported post's HTML as a story editor document (issue 29), through the same allow-list the
 * editor and the server's document schema have: paragraphs, headings 2–3, lists, quotes, rules,
 * bold, italic, http/https/mailto links, images (`storyImage`) and YouTube / X embeds. Nothing else
 * passes: scripts, styles, forms, iframes other than a YouTube player, attributes other than the few
 * read here. Whatever could not be converted keeps its text and is named in `unconverted`.
 *
 * WordPress bodies are stored without paragraph tags, so for `source: "wordpress"` the body first
 * gets WordPress's own paragraph rules (wpautop, reimplemented here: blank lines make paragraphs,
 * single newlines line breaks, nothing inside `pre`, `script`, `style`), except for Gutenberg bodies
 * (`<!-- wp:` blocks), which WordPress never auto-paragraphs either. Then its shortcodes are read:
 * `[caption]`, `[gallery]`, `[embed]`, `[youtube]`, `[tweet]`; `[audio]` / `[video]` keep a link to the
 * file; any other shortcode keeps its content's text and is reported.
 *
 * The document is not yet valid when it comes out of `storyFromHtml`: its images still point at
 * the old site (or are `wp-attachment:{id}` / `wp-gallery:` placeholders, below). `rewriteStoryUrls`
 * with the engine's maps turns it into one that always passes `importedStoryDocumentSchema` (tested
 * with hostile input): the editor's schema, but an image the old site gave no alt text keeps none.
 *
 * Image placeholders, resolved by the import engine in `rewriteStoryUrls`'s `image()`:
 * - `wp-attachment:{id}`: one image of a `[gallery ids="…"]`, the WordPress attachment with that id;
 * - `wp-gallery:`: a `[gallery]` without ids, which WordPress shows as all images attached to the
 *   post itself: `image()` returns them as an array (in menu order), or null / [] for none.
 */

export interface StoryImageRef {
  /** Absolute when the site's address is known, else as written; or a `wp-attachment:` / `wp-gallery:` placeholder. */
  src: string;
  alt: string;
  caption: string;
}

export interface ConvertedStory {
  doc: StoryDocument;
  /** Every image of the story, in document order (what the engine must import). */
  images: StoryImageRef[];
  /** What could not be converted, each kind once ("shortcode [contact-form-7]", "element <table>"). */
  unconverted: string[];
}

export interface StoryFromHtmlOptions {
  source: ImportSourceKind;
  /** The old site's address (relative links and images are resolved against it), or null. */
  baseUrl: string | null;
}

/** The src of one image of `[gallery ids="…"]`: the attachment's id follows. */
export const WP_ATTACHMENT_SRC = "wp-attachment:";
/** The src of a `[gallery]` without ids: the post's own attached images. */
export const WP_GALLERY_SRC = "wp-gallery:";

// ---------------------------------------------------------------- schema limits (story-document.schema.ts)

const MAX_TEXT = 100_000;
const MAX_INLINE = 10_000;
const MAX_DOC_BLOCKS = 5_000;
const MAX_LIST_ITEMS = 500;
const MAX_QUOTE_BLOCKS = 500;
const MAX_ITEM_BLOCKS = 200;
const MAX_ALT = 500;
const MAX_CAPTION = 1_000;
const MAX_URL = 2_000;
/**
 * The deepest a block may sit, counted as the schema's depth check counts (every object and array
 * on the way): a paragraph's link at depth d + 6 must stay within STORY_MAX_DEPTH * 2 = 48. A quote
 * adds 2, a list 4; a container that would go deeper is flattened into its parent.
 */
const MAX_BLOCK_DEPTH = 40;
/** How deep the HTML is walked as elements; below that, only its text is kept. */
const MAX_DOM_DEPTH = 200;

// ---------------------------------------------------------------- strings

// Postgres jsonb refuses NUL and lone surrogates; other C0 controls are noise.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const clean = (s: string) => s.replace(CONTROL_CHARS, "").replace(LONE_SURROGATE, "\uFFFD");
/** Whitespace as HTML collapses it (not the no-break space). */
const collapse = (s: string) => s.replace(/[ \t\n\r\f]+/g, " ");
const squash = (s: string) => collapse(clean(s)).trim();
/** Blank for the eye: spaces, no-break and zero-width spaces. */
const isBlank = (s: string) => /^(?:\s|[\u200B\u200C]|\u200D)*$/.test(s);

/** `s` cut to at most `max` characters (an ellipsis marking the cut), never inside a surrogate pair. */
function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  if (/[\uD800-\uDBFF]/.test(s.charAt(end - 1))) end -= 1;
  return `${s.slice(0, end).trimEnd()}…`;
}

/** `s` in pieces of at most `max` characters, never splitting a surrogate pair. */
function chunks(s: string, max: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    let end = Math.min(i + max, s.length);
    if (end < s.length && /[\uD800-\uDBFF]/.test(s.charAt(end - 1))) end -= 1;
    out.push(s.slice(i, end));
    i = end;
  }
  return out;
}

// ---------------------------------------------------------------- an HTML string as tokens (for autop and shortcodes)

interface Token {
  kind: "text" | "tag" | "comment" | "raw";
  text: string;
  /** A tag's lower-case name. */
  name?: string;
  closing?: boolean;
}

/** Elements whose content is not HTML (or, for pre, not to be touched): kept as one raw token. */
const RAW_ELEMENTS = new Set(["pre", "script", "style", "textarea", "xmp", "svg", "math"]);

const TOKEN = /<!--[\s\S]*?(?:-->|$)|<![^>]*>?|<\/?[A-Za-z][^>]*>?|[^<]+|</g;
const TAG_NAME = /^<(\/?)([A-Za-z][A-Za-z0-9:_-]*)/;

function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = TOKEN.exec(html)) !== null) {
    const text = match[0];
    if (text.startsWith("<!")) {
      tokens.push({ kind: "comment", text });
      continue;
    }
    const tag = TAG_NAME.exec(text);
    if (!tag) {
      tokens.push({ kind: "text", text });
      continue;
    }
    const name = tag[2]!.toLowerCase();
    const closing = tag[1] === "/";
    if (!closing && RAW_ELEMENTS.has(name) && !text.endsWith("/>")) {
      const close = new RegExp(`</${name}\\s*>`, "ig");
      close.lastIndex = TOKEN.lastIndex;
      const end = close.exec(html);
      const stop = end ? end.index + end[0].length : html.length;
      tokens.push({ kind: "raw", text: html.slice(match.index, stop), name });
      TOKEN.lastIndex = stop;
      continue;
    }
    tokens.push({ kind: "tag", text, name, closing });
  }
  return tokens;
}

// ---------------------------------------------------------------- wpautop

/** Tags a paragraph never runs across (WordPress's block list, with the few it collapses lines around). */
const AUTOP_BLOCKS = new Set(
  (
    "table thead tfoot caption col colgroup tbody tr td th div dl dd dt ul ol li pre form map area blockquote address math style p " +
    "h1 h2 h3 h4 h5 h6 hr fieldset legend section article aside hgroup header footer nav figure figcaption details menu summary " +
    "option select object param embed audio video source track"
  ).split(" "),
);
/** Which of them end a paragraph for the walker (the rest only swallow the line breaks around them). */
const isAutopBoundary = (token: Token | undefined) =>
  token === undefined || ((token.kind === "tag" || token.kind === "raw") && AUTOP_BLOCKS.has(token.name!));
const isBr = (token: Token | undefined) => token?.kind === "tag" && token.name === "br";

/**
 * WordPress's paragraph rules for a body stored without `<p>` tags, as markup the walker reads: a
 * blank line (or two `<br>`s in a row) ends a paragraph — written as the `paragraphBreak` element —
 * and any other line break becomes `<br>`, except next to a block tag (where the paragraph ends
 * anyway) or right after a `<br>`, and never inside `pre`, `script` or `style`.
 */
function autop(html: string, paragraphBreak: string): string {
  if (html.trim() === "") return "";
  const tokens = tokenize(html.replace(/\r\n?/g, "\n"));
  // Two line breaks in a row (only whitespace between) are a blank line.
  for (let i = 0; i < tokens.length; i++) {
    if (!isBr(tokens[i])) continue;
    let j = i + 1;
    while (tokens[j]?.kind === "text" && tokens[j]!.text.trim() === "") j++;
    if (isBr(tokens[j])) {
      tokens.splice(i, j - i + 1, { kind: "text", text: "\n\n" });
    }
  }
  const neighbour = (i: number, step: 1 | -1) => {
    let j = i + step;
    while (tokens[j]?.kind === "comment") j += step;
    return tokens[j];
  };
  const marker = `<${paragraphBreak}></${paragraphBreak}>`;
  let out = "";
  tokens.forEach((token, i) => {
    if (token.kind !== "text" || !token.text.includes("\n")) {
      out += token.text;
      return;
    }
    const before = neighbour(i, -1);
    const after = neighbour(i, 1);
    const parts = token.text.split(/\n\s*\n/);
    out += parts
      .map((part, p) => {
        let text = part;
        // A line break at a paragraph's edge is only whitespace.
        if (p > 0 || isAutopBoundary(before) || isBr(before)) text = text.replace(/^\s+/, (ws) => ws.replace(/\n/g, " "));
        if (p < parts.length - 1 || isAutopBoundary(after)) text = text.replace(/\s+$/, (ws) => ws.replace(/\n/g, " "));
        return text.replace(/[ \t]*\n/g, "<br>\n");
      })
      .join(marker);
  });
  return out;
}

// ---------------------------------------------------------------- shortcodes

/** Shortcodes known by name (WordPress core, Jetpack / WordPress.com, common plugins): read even without attributes. */
const KNOWN_SHORTCODES = new Set(
  (
    "caption wp_caption gallery embed youtube tweet audio video playlist videopress vimeo soundcloud instagram dailymotion " +
    "googlemaps slideshow archives sitemap contact-form contact-form-7 ted spotify polldaddy wpvideo"
  ).split(" "),
);

interface ShortcodeTag {
  token: number;
  start: number;
  end: number;
  name: string;
  attrs: string;
  closing: boolean;
  escaped: boolean;
  selfClosed: boolean;
  pair?: number;
}

const SHORTCODE = /\[(\[?)(\/?)([A-Za-z][A-Za-z0-9_-]*)(?=[\s=/\]])((?:"[^"]*"|'[^']*'|[^\]["'<>])*?)(\/?)\](\]?)/g;

const escapeAttribute = (s: string) => s.replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The body's shortcodes as `shortcodeElement` elements (`data-name`, `data-attrs` raw), around their
 * content when they enclose one, so the HTML parser keeps them in the tree. Only text is searched
 * (not tags, comments, `pre` or scripts). A bracket counts as a shortcode when its name is a known
 * one, or it has attributes (`=`), a closing tag or `/]`: "[sic]" or "[citation needed]" stay text.
 */
function markShortcodes(html: string, shortcodeElement: string): string {
  if (!html.includes("[")) return html;
  const tokens = tokenize(html);
  const tags: ShortcodeTag[] = [];
  tokens.forEach((token, t) => {
    if (token.kind !== "text" || !token.text.includes("[")) return;
    SHORTCODE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = SHORTCODE.exec(token.text)) !== null) {
      tags.push({
        token: t,
        start: m.index,
        end: m.index + m[0].length,
        name: m[3]!.toLowerCase(),
        attrs: m[4]!,
        closing: m[2] === "/",
        escaped: m[1] === "[" && m[6] === "]",
        selfClosed: m[5] === "/",
      });
    }
  });
  if (tags.length === 0) return html;
  // Each opening tag encloses up to the first unused closing tag of its name after it.
  const closers = new Map<string, number[]>();
  tags.forEach((tag, i) => {
    if (tag.closing && !tag.escaped) closers.set(tag.name, [...(closers.get(tag.name) ?? []), i]);
  });
  tags.forEach((tag, i) => {
    if (tag.closing || tag.escaped || tag.selfClosed) return;
    const queue = closers.get(tag.name);
    while (queue && queue.length > 0 && queue[0]! < i) queue.shift();
    const closer = queue?.shift();
    if (closer !== undefined) {
      tag.pair = closer;
      tags[closer]!.pair = i;
    }
  });
  const isShortcode = (tag: ShortcodeTag) =>
    KNOWN_SHORTCODES.has(tag.name) || tag.pair !== undefined || tag.attrs.includes("=") || tag.selfClosed;

  const byToken = new Map<number, ShortcodeTag[]>();
  for (const tag of tags) byToken.set(tag.token, [...(byToken.get(tag.token) ?? []), tag]);
  return tokens
    .map((token, t) => {
      const here = byToken.get(t);
      if (!here) return token.text;
      let text = "";
      let at = 0;
      for (const tag of here) {
        text += token.text.slice(at, tag.start);
        at = tag.end;
        const written = token.text.slice(tag.start, tag.end);
        if (!isShortcode(tag)) text += written;
        else if (tag.escaped) text += written.slice(1, -1);
        else if (tag.closing) text += tag.pair !== undefined ? `</${shortcodeElement}>` : "";
        else {
          text += `<${shortcodeElement} data-name="${escapeAttribute(tag.name)}" data-attrs="${escapeAttribute(tag.attrs)}">`;
          if (tag.pair === undefined) text += `</${shortcodeElement}>`;
        }
      }
      return text + token.text.slice(at);
    })
    .join("");
}

/** A shortcode's attributes, as WordPress reads them: `name="value"`, `name='value'`, `name=value`, and positional values. */
function shortcodeAttributes(raw: string): { named: Map<string, string>; positional: string[] } {
  const named = new Map<string, string>();
  const positional: string[] = [];
  const pattern = /([\w-]+)\s*=\s*"([^"]*)"|([\w-]+)\s*=\s*'([^']*)'|([\w-]+)\s*=\s*([^\s'"]+)|"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = pattern.exec(raw)) !== null) {
    if (m[1] !== undefined) named.set(m[1].toLowerCase(), m[2]!);
    else if (m[3] !== undefined) named.set(m[3].toLowerCase(), m[4]!);
    else if (m[5] !== undefined) named.set(m[5].toLowerCase(), m[6]!);
    else positional.push(m[7] ?? m[8] ?? m[9]!);
  }
  return { named, positional };
}

// ---------------------------------------------------------------- elements

const attrOf = (el: Element, name: string) => clean(el.attribs[name] ?? "");
const classesOf = (el: Element) => new Set((el.attribs.class ?? "").toLowerCase().split(/\s+/).filter(Boolean));
const childElements = (el: Element) => el.children.filter((c): c is Element => isTag(c));

/** An element's text, whitespace as written (iterative: any depth). */
function textOf(node: ChildNode, skip: (el: Element) => boolean = () => false): string {
  let out = "";
  const stack: ChildNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) out += current.data;
    else if (isTag(current)) {
      if (DROPPED.has(current.name) || skip(current)) continue;
      if (current.name === "br") out += "\n";
      for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]!);
    }
  }
  return clean(out);
}

/** Elements removed with everything in them (reported, except the few that are only parts of others). */
const DROPPED = new Set(
  (
    "script style iframe object embed applet form noscript template svg math canvas input button select textarea head title " +
    "meta link base frame frameset map area param source track dialog"
  ).split(" "),
);
const DROPPED_SILENTLY = new Set(["head", "title", "meta", "link", "base", "param", "source", "track", "area"]);

/** Wrappers that mean nothing to a story: their content goes on as if they were not there. */
const TRANSPARENT_INLINE = new Set(
  "span font abbr acronym time small big label bdi bdo data mark u nobr wbr ruby rt rp".split(" "),
);
const TRANSPARENT_BLOCK = new Set(
  "div section article main header footer aside nav center hgroup address details summary fieldset legend body html picture caption".split(" "),
);
/** Block elements whose meaning is lost (text kept, reported). */
const REPORTED_BLOCK = new Set("dl dt dd marquee blink output meter progress".split(" "));

type Level = "paragraph" | 2 | 3;

/** A container being filled: its blocks, and the inline run that becomes its next paragraph or heading. */
interface Frame {
  blocks: StoryBlock[];
  inline: StoryInline[];
  kind: Level;
  /** Where its blocks sit, as the schema's depth check counts. */
  depth: number;
}

interface Walk {
  marks: StoryMark[];
  pre: boolean;
  dom: number;
}

const MARK_ORDER = { bold: 0, italic: 1, link: 2 } as const;
const markKey = (marks: readonly StoryMark[] | undefined) =>
  (marks ?? []).map((m) => (m.type === "link" ? `link:${m.attrs.href}` : m.type)).join("|");
function withMark(marks: StoryMark[], mark: StoryMark): StoryMark[] {
  return [...marks.filter((m) => m.type !== mark.type), mark].sort((a, b) => MARK_ORDER[a.type] - MARK_ORDER[b.type]);
}

/** Ghost (4.x on) writes its own site's address in exported HTML as this placeholder: a path of the old site follows. */
const GHOST_URL = /^__GHOST_URL__(?=\/|$)/;

const URL_ALONE = /^https?:\/\/[^\s<>"]+$/i;

class Converter {
  readonly images: StoryImageRef[] = [];
  readonly unconverted = new Set<string>();
  /** Embeds (or the links standing for them) emitted so far: a Gutenberg embed comment emits its own only if its HTML did not. */
  private embeds = 0;
  private gutenbergEmbeds: { url: string; at: number }[] = [];
  /** The image nodes made, with their `images` entries (a figure's caption is set on its last one). */
  private imageNodes: { node: StoryImage; ref: StoryImageRef }[] = [];

  constructor(
    private readonly base: URL | null,
    private readonly shortcodeElement: string,
    private readonly paragraphBreak: string,
  ) {}

  report(what: string) {
    this.unconverted.add(what);
  }

  // ------------------------------------------------------------ URLs

  /** A link's target: absolute http(s)/mailto, relative ones resolved against the site; null for anything else. */
  linkHref(raw: string): string | null {
    const href = clean(raw).trim().replace(GHOST_URL, "");
    if (href === "" || href.startsWith("#")) return null;
    let absolute: string;
    try {
      absolute = new URL(href, this.base ?? undefined).href;
    } catch {
      return null;
    }
    if (/^mailto:/i.test(href)) absolute = href;
    return absolute.length <= MAX_URL && isAllowedLinkHref(absolute) ? absolute : null;
  }

  /** An image's address: absolute http(s) when it can be made so, else as written when it is a path; null for data: and the like. */
  imageSrc(raw: string): string | null {
    const src = clean(raw).trim().replace(GHOST_URL, "");
    if (src === "") return null;
    if (src.startsWith("//")) return this.imageSrc(`${this.base?.protocol ?? "https:"}${src}`);
    try {
      const url = new URL(src, this.base ?? undefined);
      if (url.protocol !== "http:" && url.protocol !== "https:") return null;
      return url.href.length <= MAX_URL && !/[\s<>"'`]/.test(url.href) ? url.href : null;
    } catch {
      // Relative, and no site address to resolve it against: the engine may still know the file.
      if (/^[a-z][a-z0-9+.-]*:/i.test(src) || /[\s<>"'`]/.test(src) || src.length > MAX_URL) return null;
      return src;
    }
  }

  // ------------------------------------------------------------ output

  /** The pending inline run as its paragraph(s) or heading, into the frame's blocks. */
  flush(frame: Frame) {
    const inline = frame.inline;
    frame.inline = [];
    const lines = trimInline(inline);
    if (lines.length === 0) return;
    if (frame.kind !== "paragraph") {
      pushInline(frame.blocks, { type: "heading", attrs: { level: frame.kind }, content: [] }, joinLines(lines));
      return;
    }
    // A YouTube or X address alone on a line is an embed (as WordPress's autoembed has it).
    let pending: StoryInline[][] = [];
    const emit = () => {
      if (pending.length > 0) pushInline(frame.blocks, { type: "paragraph", content: [] }, joinLines(pending));
      pending = [];
    };
    for (const line of lines) {
      const url = urlAlone(line);
      const target = url ? embedTargetOf(url) : null;
      if (target) {
        emit();
        frame.blocks.push({ type: "embed", attrs: { url: target.url } });
        this.embeds++;
      } else pending.push(line);
    }
    // A paragraph that is only an address (an embed WordPress would have tried) becomes its link.
    if (pending.length === 1 && lines.length === 1) {
      const url = urlAlone(pending[0]!);
      const href = url ? this.linkHref(url) : null;
      if (href && url) pending = [[{ type: "text", text: url, marks: [{ type: "link", attrs: { href } }] }]];
    }
    emit();
  }

  block(frame: Frame, block: StoryBlock) {
    this.flush(frame);
    frame.blocks.push(block);
  }

  text(frame: Frame, raw: string, walk: Walk) {
    const marks = walk.marks.length > 0 ? walk.marks : undefined;
    if (walk.pre) {
      clean(raw)
        .replace(/\r\n?/g, "\n")
        .split("\n")
        .forEach((line, i) => {
          if (i > 0) frame.inline.push({ type: "hardBreak" });
          if (line !== "") appendText(frame.inline, line, marks);
        });
      return;
    }
    let text = collapse(clean(raw));
    const last = frame.inline.at(-1);
    if (last === undefined || last.type === "hardBreak" || last.text.endsWith(" ")) text = text.replace(/^ /, "");
    if (text !== "") appendText(frame.inline, text, marks);
  }

  image(frame: Frame, src: string, alt: string, caption: string) {
    const attrs = { src, alt: clip(squash(alt), MAX_ALT), caption: clip(squash(caption), MAX_CAPTION), credit: "" };
    const node: StoryImage = { type: "storyImage", attrs };
    const ref = { src, alt: attrs.alt, caption: attrs.caption };
    this.block(frame, node);
    this.images.push(ref);
    this.imageNodes.push({ node, ref });
  }

  /** An embed when the address is a YouTube video or an X post; else a paragraph linking to it (reported). */
  embed(frame: Frame, raw: string, what: string) {
    const url = squash(raw);
    if (url === "") return;
    this.embeds++;
    const target = embedTargetOf(url);
    if (target) {
      this.block(frame, { type: "embed", attrs: { url: target.url } } satisfies StoryEmbed);
      return;
    }
    const href = this.linkHref(url);
    let host = "";
    try {
      host = new URL(url).hostname;
    } catch {
      // not an address at all
    }
    this.report(host ? `${what} of ${host} (kept as a link)` : `${what} (kept as text)`);
    this.flush(frame);
    const text = clip(url, MAX_TEXT);
    frame.blocks.push({ type: "paragraph", content: [{ type: "text", text, ...(href ? { marks: [{ type: "link", attrs: { href } }] } : {}) }] });
  }

  /** A caption for the images made since `before` (on the last one, unless it has its own); a paragraph when there are none. */
  caption(frame: Frame, before: number, caption: string) {
    const text = clip(squash(caption), MAX_CAPTION);
    if (text === "") return;
    const last = this.imageNodes.length > before ? this.imageNodes.at(-1) : undefined;
    if (last) {
      if (last.node.attrs.caption === "") {
        last.node.attrs.caption = text;
        last.ref.caption = text;
      }
      return;
    }
    this.flush(frame);
    pushInline(frame.blocks, { type: "paragraph", content: [] }, [{ type: "text", text }]);
  }

  // ------------------------------------------------------------ the walk

  children(nodes: readonly ChildNode[], frame: Frame, walk: Walk) {
    for (const node of nodes) this.node(node, frame, walk);
  }

  node(node: ChildNode, frame: Frame, walk: Walk) {
    if (isText(node)) {
      this.text(frame, node.data, walk);
      return;
    }
    if (isComment(node)) {
      this.comment(node.data, frame);
      return;
    }
    if (!isTag(node)) return;
    if (walk.dom > MAX_DOM_DEPTH) {
      this.report("markup nested too deeply (kept as text)");
      this.text(frame, textOf(node), walk);
      return;
    }
    this.element(node, frame, { ...walk, dom: walk.dom + 1 });
  }

  /** Gutenberg's block comments: dropped, but an embed block's URL is used when its HTML gave none, and server-rendered blocks are reported. */
  comment(data: string, frame: Frame) {
    const m = /^\s*(\/?)wp:([a-z0-9_/-]+)\s*(\{[\s\S]*\})?\s*(\/?)\s*$/i.exec(data);
    if (!m) return;
    const [, closing, name, json, selfClosing] = m;
    const isEmbed = name === "embed" || name!.startsWith("core-embed/");
    if (closing && isEmbed) {
      const open = this.gutenbergEmbeds.pop();
      if (open && open.at === this.embeds) this.embed(frame, open.url, "embed");
      return;
    }
    if (closing) return;
    if (isEmbed && !selfClosing) {
      let url = "";
      try {
        const parsed: unknown = json ? JSON.parse(json) : null;
        if (parsed && typeof parsed === "object" && "url" in parsed && typeof parsed.url === "string") url = parsed.url;
      } catch {
        // not JSON: the block's HTML decides
      }
      this.gutenbergEmbeds.push({ url, at: url ? this.embeds : -1 });
      return;
    }
    if (selfClosing && !["more", "nextpage", "spacer", "separator"].includes(name!)) this.report(`block wp:${name}`);
  }

  element(el: Element, frame: Frame, walk: Walk) {
    const name = el.name;
    if (name === this.shortcodeElement) return this.shortcode(el, frame, walk);
    if (name === this.paragraphBreak) return this.flush(frame);
    if (DROPPED.has(name)) {
      if (name === "iframe") {
        const target = embedTargetOf(attrOf(el, "src"));
        if (target?.provider === "youtube") {
          this.embeds++;
          return this.block(frame, { type: "embed", attrs: { url: target.url } });
        }
      }
      if (!DROPPED_SILENTLY.has(name)) this.report(`element <${name}> (removed)`);
      return;
    }
    switch (name) {
      case "p":
        this.flush(frame);
        this.children(el.children, frame, walk);
        return this.flush(frame);
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6": {
        this.flush(frame);
        const kind = frame.kind;
        frame.kind = name === "h1" || name === "h2" ? 2 : 3;
        this.children(el.children, frame, walk);
        this.flush(frame);
        frame.kind = kind;
        return;
      }
      case "strong":
      case "b":
        return this.children(el.children, frame, { ...walk, marks: withMark(walk.marks, { type: "bold" }) });
      case "em":
      case "i":
      case "cite":
      case "dfn":
        return this.children(el.children, frame, { ...walk, marks: withMark(walk.marks, { type: "italic" }) });
      case "q":
        this.text(frame, "“", walk);
        this.children(el.children, frame, walk);
        return this.text(frame, "”", walk);
      case "a": {
        const href = el.attribs.href === undefined ? null : this.linkHref(el.attribs.href);
        const marks = href ? withMark(walk.marks, { type: "link", attrs: { href } }) : walk.marks.filter((m) => m.type !== "link");
        return this.children(el.children, frame, { ...walk, marks });
      }
      case "br":
        frame.inline.push({ type: "hardBreak" });
        return;
      case "hr":
        return this.block(frame, { type: "horizontalRule" });
      case "img":
        return this.img(el, frame, walk);
      case "ul":
      case "ol":
        return this.list(el, frame, walk);
      case "li":
        this.flush(frame);
        this.children(el.children, frame, walk);
        return this.flush(frame);
      case "blockquote":
        return this.blockquote(el, frame, walk);
      case "figure":
        return this.figure(el, frame, walk);
      case "figcaption":
        this.flush(frame);
        this.children(el.children, frame, { ...walk, marks: withMark(walk.marks, { type: "italic" }) });
        return this.flush(frame);
      case "table":
        return this.table(el, frame);
      case "pre":
        this.report("element <pre>");
        this.flush(frame);
        this.children(el.children, frame, { ...walk, pre: true });
        return this.flush(frame);
      case "video":
      case "audio":
        return this.media(el, frame, walk);
      default:
        break;
    }
    if (TRANSPARENT_INLINE.has(name) || name.includes(":")) return this.children(el.children, frame, walk);
    const block = TRANSPARENT_BLOCK.has(name) || REPORTED_BLOCK.has(name);
    // Anything else (code, sup, del, dl, custom elements…) keeps its text and is reported.
    if (!TRANSPARENT_BLOCK.has(name)) this.report(`element <${name === "dt" || name === "dd" ? "dl" : name}>`);
    if (block) this.flush(frame);
    this.children(el.children, frame, walk);
    if (block) this.flush(frame);
  }

  img(el: Element, frame: Frame, walk: Walk) {
    const alt = attrOf(el, "alt");
    const classes = classesOf(el);
    // WordPress's emoji images stand for their character.
    if (classes.has("wp-smiley") || classes.has("emoji")) return this.text(frame, alt, walk);
    // Tracking pixels.
    if (attrOf(el, "width") === "1" && attrOf(el, "height") === "1") return;
    const candidates = [attrOf(el, "data-lazy-src"), attrOf(el, "data-src"), attrOf(el, "data-orig-file"), attrOf(el, "src")];
    const src = candidates.map((c) => this.imageSrc(c)).find((c): c is string => c !== null);
    if (!src) {
      if (candidates.some((c) => c.trim() !== "")) this.report("image with an address that cannot be imported (removed)");
      if (alt.trim() !== "") this.text(frame, alt, walk);
      return;
    }
    this.image(frame, src, alt, "");
  }

  list(el: Element, frame: Frame, walk: Walk) {
    const classes = classesOf(el);
    // Gutenberg's and Jetpack's galleries are lists of figures: their images, in turn.
    if ([...classes].some((c) => c.includes("gallery"))) {
      this.flush(frame);
      for (const child of el.children) this.node(child, frame, walk);
      return this.flush(frame);
    }
    this.flush(frame);
    const itemDepth = frame.depth + 4;
    if (itemDepth > MAX_BLOCK_DEPTH) {
      this.report("lists nested too deeply (flattened)");
      for (const child of el.children) {
        this.node(child, frame, walk);
        this.flush(frame);
      }
      return;
    }
    const items: StoryListItem[] = [];
    let loose: Frame | null = null;
    const close = (item: Frame) => {
      this.flush(item);
      if (item.blocks.length === 0) return;
      if (item.blocks[0]!.type !== "paragraph") item.blocks.unshift({ type: "paragraph" });
      items.push({ type: "listItem", content: item.blocks });
    };
    for (const child of el.children) {
      if (isTag(child) && child.name === "li") {
        if (loose) close(loose);
        loose = null;
        const item: Frame = { blocks: [], inline: [], kind: "paragraph", depth: itemDepth };
        this.children(child.children, item, walk);
        close(item);
      } else {
        // Text or elements straight in the list: an item of their own.
        loose ??= { blocks: [], inline: [], kind: "paragraph", depth: itemDepth };
        this.node(child, loose, walk);
      }
    }
    if (loose) close(loose);
    if (items.length === 0) return;
    if (el.name === "ul") return this.block(frame, { type: "bulletList", content: items });
    const start = Number.parseInt(attrOf(el, "start"), 10);
    const attrs = Number.isInteger(start) && start >= 0 && start <= 100_000 ? { start } : undefined;
    this.block(frame, { type: "orderedList", ...(attrs ? { attrs } : {}), content: items });
  }

  blockquote(el: Element, frame: Frame, walk: Walk) {
    const classes = classesOf(el);
    // X's embed code: the quoted post, whose address is its last link (the script beside it never passes).
    if (classes.has("twitter-tweet") || classes.has("twitter-video")) {
      const links = findAll(el, (e) => e.name === "a" && embedTargetOf(attrOf(e, "href"))?.provider === "x");
      const link = links.at(-1);
      if (link) return this.embed(frame, attrOf(link, "href"), "embed");
    }
    this.flush(frame);
    const depth = frame.depth + 2;
    if (depth > MAX_BLOCK_DEPTH) {
      this.report("quotes nested too deeply (flattened)");
      this.children(el.children, frame, walk);
      return this.flush(frame);
    }
    const inner: Frame = { blocks: [], inline: [], kind: "paragraph", depth };
    this.children(el.children, inner, walk);
    this.flush(inner);
    if (inner.blocks.length > 0) this.block(frame, { type: "blockquote", content: inner.blocks });
  }

  figure(el: Element, frame: Frame, walk: Walk) {
    const classes = classesOf(el);
    const caption = childElements(el).find((c) => c.name === "figcaption");
    if (classes.has("wp-block-embed") || classes.has("kg-embed-card") || [...classes].some((c) => c.startsWith("wp-block-embed-"))) {
      const wrapper = findAll(el, (e) => classesOf(e).has("wp-block-embed__wrapper"))[0];
      const iframe = findAll(el, (e) => e.name === "iframe")[0];
      const link = findAll(el, (e) => e.name === "a" && e.attribs.href !== undefined)[0];
      const url =
        (wrapper && squash(textOf(wrapper))) ||
        (iframe && attrOf(iframe, "src")) ||
        (link && attrOf(link, "href")) ||
        squash(textOf(el, (e) => e.name === "figcaption"));
      if (url) this.embed(frame, url, "embed");
      else this.report("element <figure> embed without an address (removed)");
      if (caption) this.element(caption, frame, walk);
      return;
    }
    if (classes.has("kg-bookmark-card")) {
      const link = findAll(el, (e) => e.name === "a" && e.attribs.href !== undefined)[0];
      const title = findAll(el, (e) => classesOf(e).has("kg-bookmark-title"))[0];
      const href = link ? this.linkHref(attrOf(link, "href")) : null;
      const text = clip(squash(title ? textOf(title) : "") || (href ?? ""), MAX_TEXT);
      if (text === "") return;
      this.block(frame, { type: "paragraph", content: [{ type: "text", text, ...(href ? { marks: [{ type: "link", attrs: { href } }] } : {}) }] });
      return;
    }
    const before = this.imageNodes.length;
    this.flush(frame);
    for (const child of el.children) if (child !== caption) this.node(child, frame, walk);
    this.flush(frame);
    if (caption) this.caption(frame, before, textOf(caption));
  }

  table(el: Element, frame: Frame) {
    this.report("element <table>");
    this.flush(frame);
    const captionEl = childElements(el).find((c) => c.name === "caption");
    if (captionEl) this.paragraph(frame, squash(textOf(captionEl)));
    // Its own rows, not those of a table inside a cell.
    const rows = findAll(el, (e) => e.name === "tr", (e) => e !== el && e.name === "table");
    for (const row of rows) {
      const cells = childElements(row)
        .filter((c) => c.name === "td" || c.name === "th")
        .map((c) => squash(textOf(c)))
        .filter((c) => c !== "");
      if (cells.length > 0) this.paragraph(frame, cells.join(" | "));
    }
  }

  paragraph(frame: Frame, text: string) {
    if (isBlank(text)) return;
    this.flush(frame);
    pushInline(frame.blocks, { type: "paragraph", content: [] }, [{ type: "text", text }]);
  }

  media(el: Element, frame: Frame, walk: Walk) {
    this.report(`element <${el.name}>`);
    const sources = [el, ...findAll(el, (e) => e.name === "source")].map((e) => attrOf(e, "src")).filter(Boolean);
    const href = sources.map((s) => this.linkHref(s)).find((h): h is string => h !== null);
    this.flush(frame);
    if (href) this.block(frame, { type: "paragraph", content: [{ type: "text", text: clip(href, MAX_TEXT), marks: [{ type: "link", attrs: { href } }] }] });
    this.children(el.children, frame, walk);
    this.flush(frame);
  }

  shortcode(el: Element, frame: Frame, walk: Walk) {
    const name = attrOf(el, "data-name");
    const { named, positional } = shortcodeAttributes(attrOf(el, "data-attrs"));
    switch (name) {
      case "caption":
      case "wp_caption": {
        const before = this.imageNodes.length;
        const images = findAll(el, (e) => e.name === "img");
        this.flush(frame);
        for (const img of images) this.img(img, frame, walk);
        const text = named.get("caption") ?? textOf(el);
        if (this.imageNodes.length > before) this.caption(frame, before, text);
        else this.paragraph(frame, squash(text));
        return;
      }
      case "gallery": {
        const ids = (named.get("ids") ?? named.get("include") ?? "")
          .split(",")
          .map((id) => id.trim())
          .filter((id) => /^\d{1,20}$/.test(id));
        if (ids.length === 0) return this.image(frame, WP_GALLERY_SRC, "", "");
        for (const id of ids) this.image(frame, `${WP_ATTACHMENT_SRC}${id}`, "", "");
        return;
      }
      case "embed":
        return this.embed(frame, named.get("url") ?? named.get("src") ?? textOf(el), "embed");
      case "youtube":
      case "tweet": {
        // [youtube URL], [youtube=URL&w=640] (WordPress.com), [tweet URL] / [tweet id=…]
        let url = (attrOf(el, "data-attrs").replace(/^[\s=]+/, "").trim() || textOf(el).trim()).replace(/^["']|["']$/g, "");
        if (name === "tweet") url = named.get("tweet") ?? positional[0] ?? url;
        if (!url.includes("?") && url.includes("&")) url = url.slice(0, url.indexOf("&"));
        return this.embed(frame, url, `shortcode [${name}]`);
      }
      case "audio":
      case "video":
      case "playlist":
      case "videopress": {
        this.report(`shortcode [${name}]`);
        const file = ["src", "mp3", "m4a", "ogg", "wav", "wma", "mp4", "m4v", "webm", "ogv", "wmv", "flv"].map((k) => named.get(k)).find(Boolean) ?? positional[0];
        const href = file ? this.linkHref(file) : null;
        if (href) this.block(frame, { type: "paragraph", content: [{ type: "text", text: clip(href, MAX_TEXT), marks: [{ type: "link", attrs: { href } }] }] });
        return this.children(el.children, frame, walk);
      }
      default:
        this.report(`shortcode [${name}]`);
        return this.children(el.children, frame, walk);
    }
  }
}

/** Elements under `root` matching `test`, in document order, not looking inside those `prune` names (iterative). */
function findAll(root: Element, test: (el: Element) => boolean, prune: (el: Element) => boolean = () => false): Element[] {
  const found: Element[] = [];
  const stack: ChildNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node) || prune(node)) continue;
    if (test(node)) found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return found;
}

// ---------------------------------------------------------------- inline runs

function appendText(inline: StoryInline[], text: string, marks: StoryMark[] | undefined) {
  const last = inline.at(-1);
  if (last?.type === "text" && markKey(last.marks) === markKey(marks)) last.text += text;
  else inline.push(marks ? { type: "text", text, marks } : { type: "text", text });
}

/**
 * An inline run as lines (split at its line breaks), with the spaces and breaks at its edges and
 * around its breaks gone; no lines when there is nothing visible in it.
 */
function trimInline(inline: StoryInline[]): StoryInline[][] {
  const lines: StoryInline[][] = [[]];
  for (const node of inline) {
    if (node.type === "hardBreak") lines.push([]);
    else lines.at(-1)!.push({ ...node });
  }
  for (const line of lines) {
    const first = line[0];
    if (first?.type === "text") first.text = first.text.replace(/^ +/, "");
    const last = line.at(-1);
    if (last?.type === "text") last.text = last.text.replace(/ +$/, "");
  }
  const visible = (line: StoryInline[]) => line.some((n) => n.type === "text" && !isBlank(n.text));
  if (!lines.some(visible)) return [];
  while (!visible(lines[0]!)) lines.shift();
  while (!visible(lines.at(-1)!)) lines.pop();
  return lines.map((line) => line.filter((n) => n.type !== "text" || n.text !== ""));
}

const joinLines = (lines: StoryInline[][]): StoryInline[] => lines.flatMap((line, i) => (i === 0 ? line : [{ type: "hardBreak" } as const, ...line]));

/** The one address a line holds (as text, or as a link to itself), or null. */
function urlAlone(line: StoryInline[]): string | null {
  if (line.length !== 1 || line[0]!.type !== "text") return null;
  const node = line[0]!;
  const text = node.text.trim();
  if (!URL_ALONE.test(text)) return null;
  const link = node.marks?.find((m) => m.type === "link");
  if (link && link.type === "link" && link.attrs.href !== text && link.attrs.href !== new URL(text).href) return null;
  return text;
}

/** A paragraph or heading with `inline` as its content, split where the schema's limits would be passed. */
function pushInline(blocks: StoryBlock[], shell: StoryParagraph | Extract<StoryBlock, { type: "heading" }>, inline: StoryInline[]) {
  const pieces: StoryInline[] = inline.flatMap((node) =>
    node.type === "text" && node.text.length > MAX_TEXT ? chunks(node.text, MAX_TEXT).map((text) => ({ ...node, text })) : [node],
  );
  for (let i = 0; i < pieces.length; i += MAX_INLINE) blocks.push({ ...shell, content: pieces.slice(i, i + MAX_INLINE) });
}

// ---------------------------------------------------------------- the schema's size limits

/** The blocks with lists, quotes and list items split where the schema's counts would be passed. */
function fitBlocks(blocks: StoryBlock[]): StoryBlock[] {
  return blocks.flatMap((block): StoryBlock[] => {
    switch (block.type) {
      case "blockquote": {
        const content = fitBlocks(block.content);
        const out: StoryBlock[] = [];
        for (let i = 0; i < content.length; i += MAX_QUOTE_BLOCKS) out.push({ type: "blockquote", content: content.slice(i, i + MAX_QUOTE_BLOCKS) });
        return out;
      }
      case "bulletList":
      case "orderedList": {
        const items = block.content.flatMap(fitItem);
        const out: StoryBlock[] = [];
        for (let i = 0; i < items.length; i += MAX_LIST_ITEMS) {
          const content = items.slice(i, i + MAX_LIST_ITEMS);
          if (block.type === "bulletList") out.push({ type: "bulletList", content });
          else {
            const start = (block.attrs?.start ?? 1) + i;
            out.push({ type: "orderedList", ...(block.attrs?.start !== undefined || i > 0 ? { attrs: { start: Math.min(start, 100_000) } } : {}), content });
          }
        }
        return out;
      }
      default:
        return [block];
    }
  });
}

function fitItem(item: StoryListItem): StoryListItem[] {
  const content = fitBlocks(item.content);
  const out: StoryListItem[] = [];
  for (let i = 0; i < content.length; i += MAX_ITEM_BLOCKS) {
    const part = content.slice(i, i + MAX_ITEM_BLOCKS);
    if (part[0]!.type !== "paragraph") part.unshift({ type: "paragraph" });
    if (part.length > MAX_ITEM_BLOCKS) {
      out.push({ type: "listItem", content: part.slice(0, MAX_ITEM_BLOCKS) });
      out.push({ type: "listItem", content: [{ type: "paragraph" }, ...part.slice(MAX_ITEM_BLOCKS)] });
    } else out.push({ type: "listItem", content: part });
  }
  return out;
}

function finishDoc(blocks: StoryBlock[], report: (what: string) => void): StoryDocument {
  let content = fitBlocks(blocks);
  if (content.length > MAX_DOC_BLOCKS) {
    report(`story longer than ${MAX_DOC_BLOCKS.toLocaleString("en")} blocks (the rest was cut)`);
    content = content.slice(0, MAX_DOC_BLOCKS);
  }
  return { type: "doc", content: content.length > 0 ? content : [{ type: "paragraph" }] };
}

// ---------------------------------------------------------------- the API

function baseOf(baseUrl: string | null): URL | null {
  if (!baseUrl) return null;
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (!url.pathname.endsWith("/")) url.pathname += "/";
    return url;
  } catch {
    return null;
  }
}

/**
 * An imported post's HTML as a story document, with the images it shows and what could not be
 * converted. Never throws; the document is schema-valid once `rewriteStoryUrls` has run over it.
 */
export function storyFromHtml(html: string, options: StoryFromHtmlOptions): ConvertedStory {
  const nonce = randomBytes(6).toString("hex");
  const shortcodeElement = `x-shortcode-${nonce}`;
  const paragraphBreak = `x-paragraph-${nonce}`;
  let body = clean(html);
  if (options.source === "wordpress") {
    // WordPress auto-paragraphs classic bodies only, never block-editor ones.
    if (!body.includes("<!-- wp:")) body = autop(body, paragraphBreak);
    body = markShortcodes(body, shortcodeElement);
  }
  const converter = new Converter(baseOf(options.baseUrl), shortcodeElement, paragraphBreak);
  const root: Frame = { blocks: [], inline: [], kind: "paragraph", depth: 2 };
  const dom = parseDocument(body, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  converter.children(dom.children, root, { marks: [], pre: false, dom: 0 });
  converter.flush(root);
  const doc = finishDoc(root.blocks, (what) => converter.report(what));
  return { doc, images: converter.images, unconverted: [...converter.unconverted] };
}

/**
 * An image that could not be had, by the address it was looked for at (with the media's alt / caption,
 * used where the story's own are empty): a link to it takes its place.
 */
export interface MissingStoryImage {
  missing: string;
  alt?: string;
  caption?: string;
}

export interface StoryUrlMap {
  /**
   * Where an image of the story is now: its new src (with the media's alt / caption, used where the
   * story's own are empty), several images (a `wp-gallery:` placeholder's, each had or missing), a
   * missing one, or null when it could not be had and its own src is the address to link to.
   */
  image(src: string): { src: string; alt?: string; caption?: string } | MissingStoryImage | (StoryImage | MissingStoryImage)[] | null;
  /** A link's new target (the engine maps the old site's addresses to their new paths; others unchanged). */
  link(href: string): string;
}

/**
 * An image's alt text: its own, else its caption, else none (a made-up word would tell a reader
 * nothing, and hide from the editors that it needs one: the engine reports each).
 */
const altFor = (alt: string, caption: string) => clip(squash(alt), MAX_ALT) || clip(squash(caption), MAX_ALT);

/**
 * The story with its images and links moved to the new site, as a new document (the input is left
 * as it was). Each image's src becomes what `map.image` returns: an array replaces the image by
 * those images (a gallery placeholder); a missing one (`{ missing }`), or null, means the image could
 * not be had: the image becomes a paragraph linking to its original address (`missing`, or for null
 * its own src through `map.link`), with its alt text or caption (or the address) as the link's text
 * and the caption after it — a `wp-attachment:` / `wp-gallery:` placeholder mapped to null is simply
 * dropped. A returned src the schema would refuse counts as null. Every link goes through `map.link`;
 * a result that is not an http(s)/mailto address loses its link (the text stays). Images left without
 * alt text get their caption, else none. The result always passes `importedStoryDocumentSchema`.
 */
export function rewriteStoryUrls(doc: StoryDocument, map: StoryUrlMap): StoryDocument {
  const inline = (nodes: StoryInline[] | undefined): StoryInline[] | undefined =>
    nodes?.map((node): StoryInline => {
      if (node.type !== "text" || !node.marks) return node.type === "text" ? { ...node } : { type: "hardBreak" };
      const marks = node.marks.flatMap((mark): StoryMark[] => {
        if (mark.type !== "link") return [{ ...mark }];
        const href = map.link(mark.attrs.href);
        return typeof href === "string" && href.trim().length <= MAX_URL && isAllowedLinkHref(href) ? [{ type: "link", attrs: { href: href.trim() } }] : [];
      });
      return marks.length > 0 ? { ...node, marks } : { type: "text", text: node.text };
    });

  const image = (node: StoryImage): StoryBlock[] => {
    const { src, alt, caption, credit } = node.attrs;
    const placeholder = src.startsWith(WP_ATTACHMENT_SRC) || src.startsWith(WP_GALLERY_SRC);
    const found = map.image(src);
    const made = (next: { src: string; alt?: string; caption?: string; credit?: string }): StoryImage | null => {
      const nextSrc = typeof next.src === "string" ? next.src.trim() : "";
      if (nextSrc.length > MAX_URL || !isAllowedImageSrc(nextSrc)) return null;
      const finalCaption = clip(squash(caption) || squash(next.caption ?? ""), MAX_CAPTION);
      return {
        type: "storyImage",
        attrs: {
          src: nextSrc,
          alt: altFor(squash(alt) || squash(next.alt ?? ""), finalCaption),
          caption: finalCaption,
          credit: clip(squash(credit || next.credit || ""), 200),
        },
      };
    };
    // Could not be had: a link to the original keeps its place, and its caption stays beside it.
    const linkTo = (address: string, mapped: string, more: { alt?: string; caption?: string } = {}): StoryBlock[] => {
      const ownCaption = squash(caption) || squash(more.caption ?? "");
      const text = clip(squash(alt) || squash(more.alt ?? "") || ownCaption || squash(address), MAX_TEXT);
      if (text === "") return [];
      const href = typeof mapped === "string" && mapped.trim().length <= MAX_URL && isAllowedLinkHref(mapped) ? mapped.trim() : null;
      const linked: StoryInline = { type: "text", text, ...(href ? { marks: [{ type: "link", attrs: { href } }] } : {}) };
      const captionText = ownCaption && ownCaption !== text ? clip(ownCaption, MAX_TEXT) : "";
      return [{ type: "paragraph", content: captionText ? [linked, { type: "text", text: ` — ${captionText}` }] : [linked] }];
    };
    const missing = (m: MissingStoryImage) => linkTo(m.missing, m.missing, m);
    if (Array.isArray(found)) return found.flatMap((img): StoryBlock[] => ("missing" in img ? missing(img) : [made(img.attrs)].filter((b): b is StoryImage => b !== null)));
    if (found && "missing" in found) return missing(found);
    const one = found ? made(found) : null;
    if (one) return [one];
    if (placeholder) return [];
    return linkTo(src, map.link(src));
  };

  const items = (list: StoryListItem[]): StoryListItem[] =>
    list.flatMap((item) => {
      const content = blocks(item.content);
      if (content.length === 0) return [];
      if (content[0]!.type !== "paragraph") content.unshift({ type: "paragraph" });
      return [{ type: "listItem", content }];
    });

  const blocks = (list: StoryBlock[]): StoryBlock[] =>
    list.flatMap((block): StoryBlock[] => {
      switch (block.type) {
        case "paragraph":
          return [block.content ? { type: "paragraph", content: inline(block.content) } : { type: "paragraph" }];
        case "heading":
          return [{ type: "heading", attrs: { level: block.attrs.level }, ...(block.content ? { content: inline(block.content) } : {}) }];
        case "bulletList": {
          const content = items(block.content);
          return content.length > 0 ? [{ type: "bulletList", content }] : [];
        }
        case "orderedList": {
          const content = items(block.content);
          return content.length > 0 ? [{ type: "orderedList", ...(block.attrs ? { attrs: { ...block.attrs } } : {}), content }] : [];
        }
        case "blockquote": {
          const content = blocks(block.content);
          return content.length > 0 ? [{ type: "blockquote", content }] : [];
        }
        case "storyImage":
          return image(block);
        case "embed":
          return [{ type: "embed", attrs: { url: block.attrs.url } }];
        case "horizontalRule":
          return [{ type: "horizontalRule" }];
        default:
          return [];
      }
    });

  return finishDoc(blocks(doc.content), () => {});
}

/**
 * A comment's HTML (or plain text with line breaks, as WordPress stores comments) as plain text:
 * tags dropped, entities decoded, paragraphs and other blocks separated by a blank line, line
 * breaks kept, scripts and styles left out.
 */
export function plainTextFromHtml(html: string): string {
  const dom = parseDocument(clean(html).replace(/\r\n?/g, "\n"), { decodeEntities: true });
  const blocks = new Set([...AUTOP_BLOCKS, ...TRANSPARENT_BLOCK, "li", "tr"]);
  let out = "";
  const stack: (ChildNode | "break")[] = [...dom.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === "break") {
      out += "\n\n";
      continue;
    }
    if (isText(node)) out += node.data.replace(/[ \t\f]+/g, " ");
    else if (isTag(node)) {
      if (DROPPED.has(node.name)) continue;
      if (node.name === "br") {
        out += "\n";
        continue;
      }
      const block = blocks.has(node.name);
      if (block) {
        out += "\n\n";
        stack.push("break");
      }
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return out
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
