/**
 * The story editor's paste cleaner (decision 0035): HTML pasted from a word processor (Word, Google
 * Docs, LibreOffice, a web page) keeps its paragraphs, headings, links, lists, quotes, bold and italic
 * and nothing else — no styles, classes, fonts, colours, spans, tables or images. It runs in the
 * browser before ProseMirror parses the paste (`transformPastedHTML`); the editor's schema then keeps
 * only its own nodes, and the server's allow-list (story-document.schema.ts) checks the document again
 * on save. Pure DOM work, so it is unit tested with a DOM of its own.
 */

/** Elements kept as they are (their attributes are dropped, but an `a`'s `href`). */
const KEPT = new Set(["P", "H2", "H3", "A", "STRONG", "B", "EM", "I", "UL", "OL", "LI", "BLOCKQUOTE", "BR", "HR"]);

/** Elements dropped with everything in them: not text a writer meant to paste. */
const DROPPED = new Set([
  "SCRIPT", "STYLE", "HEAD", "META", "LINK", "TITLE", "TEMPLATE", "IFRAME", "OBJECT", "EMBED", "VIDEO", "AUDIO",
  "SVG", "CANVAS", "IMG", "PICTURE", "INPUT", "BUTTON", "SELECT", "TEXTAREA", "NOSCRIPT", "XML", "O:P", "COLGROUP", "COL",
]);

/** Containers that hold text as a block: a paragraph of their own when they hold no block inside. */
const BLOCKISH = new Set([
  "DIV", "TD", "TH", "SECTION", "ARTICLE", "HEADER", "FOOTER", "MAIN", "ASIDE", "NAV", "FIGURE", "FIGCAPTION",
  "CAPTION", "DD", "DT", "PRE", "ADDRESS", "CENTER", "H1", "H4", "H5", "H6", "DETAILS", "SUMMARY",
]);

const BLOCKS = new Set([...BLOCKISH, "P", "H2", "H3", "UL", "OL", "LI", "BLOCKQUOTE", "HR", "TABLE", "TBODY", "THEAD", "TFOOT", "TR", "DL"]);

function styleOf(element: Element): string {
  return (element.getAttribute("style") ?? "").toLowerCase().replace(/\s+/g, "");
}

function rename(element: Element, tag: string): Element {
  const next = element.ownerDocument.createElement(tag);
  while (element.firstChild) next.appendChild(element.firstChild);
  element.replaceWith(next);
  return next;
}

function unwrap(element: Element) {
  element.replaceWith(...Array.from(element.childNodes));
}

function wrapChildren(element: Element, tag: string) {
  const wrapper = element.ownerDocument.createElement(tag);
  while (element.firstChild) wrapper.appendChild(element.firstChild);
  element.appendChild(wrapper);
}

const hasBlockChild = (element: Element) => Array.from(element.children).some((child) => BLOCKS.has(child.tagName.toUpperCase()));

/**
 * Word's lists are paragraphs (`class=MsoListParagraph…`, `style="mso-list:l0 level1 lfo1"`) whose
 * bullet or number is text in a `mso-list:Ignore` span: consecutive ones become one real list,
 * numbered when their marker is ("1.", "a)", "iv."), the marker itself dropped.
 */
function wordListsToLists(body: HTMLElement) {
  const isListParagraph = (node: Element | null) =>
    node !== null && node.tagName === "P" && (/mso-list:l\d/.test(styleOf(node)) || /^MsoListParagraph/.test(node.getAttribute("class") ?? ""));
  for (const paragraph of Array.from(body.querySelectorAll("p"))) {
    if (!paragraph.isConnected || !isListParagraph(paragraph)) continue;
    const run: Element[] = [paragraph];
    let next = paragraph.nextElementSibling;
    while (isListParagraph(next)) {
      run.push(next!);
      next = next!.nextElementSibling;
    }
    const marker = run[0]!.querySelector('[style*="mso-list"]')?.textContent ?? "";
    const list = body.ownerDocument.createElement(/^\s*([0-9]+|[a-z]|[ivxlcdm]+)[.)]/i.test(marker) ? "ol" : "ul");
    paragraph.before(list);
    for (const item of run) {
      for (const ignore of Array.from(item.querySelectorAll("span"))) if (/mso-list:ignore/.test(styleOf(ignore))) ignore.remove();
      const li = body.ownerDocument.createElement("li");
      const p = body.ownerDocument.createElement("p");
      while (item.firstChild) p.appendChild(item.firstChild);
      li.appendChild(p);
      list.appendChild(li);
      item.remove();
    }
  }
}

/** Bold and italic said by styles (Google Docs' spans), said as elements; bold that is not bold, undone. */
function stylesToMarks(body: HTMLElement) {
  for (const element of Array.from(body.querySelectorAll("*"))) {
    const style = styleOf(element);
    const tag = element.tagName.toUpperCase();
    const weight = /(?:^|;)font-weight:([a-z0-9]+)/.exec(style)?.[1];
    const notBold = weight === "normal" || weight === "400" || weight === "300" || weight === "lighter";
    const bold = weight === "bold" || weight === "bolder" || (weight !== undefined && /^\d+$/.test(weight) && Number(weight) >= 600);
    const fontStyle = /(?:^|;)font-style:([a-z]+)/.exec(style)?.[1];
    if ((tag === "B" || tag === "STRONG") && notBold) {
      // Google Docs wraps the whole paste in <b style="font-weight:normal" id="docs-internal-guid-…">.
      unwrap(element);
      continue;
    }
    if ((tag === "I" || tag === "EM") && fontStyle === "normal") {
      unwrap(element);
      continue;
    }
    if (tag === "SPAN" || tag === "FONT") {
      if (bold) wrapChildren(element, "strong");
      if (fontStyle === "italic" || fontStyle === "oblique") wrapChildren(element, "em");
    }
  }
}

/** The one cleaning step for every element, children first (so a container sees its cleaned content). */
function cleanElement(element: Element) {
  for (const child of Array.from(element.children)) cleanElement(child);
  const tag = element.tagName.toUpperCase();
  if (DROPPED.has(tag)) {
    element.remove();
    return;
  }
  let kept: Element = element;
  if (tag === "H1") kept = rename(element, "h2");
  else if (tag === "H4" || tag === "H5" || tag === "H6") kept = rename(element, "h3");
  else if (tag === "P" && /^MsoTitle$/.test(element.getAttribute("class") ?? "")) kept = rename(element, "h2");
  else if (BLOCKISH.has(tag)) {
    if (hasBlockChild(element)) return unwrap(element);
    kept = rename(element, "p");
  } else if (tag === "A" && !element.getAttribute("href")) return unwrap(element);
  else if (!KEPT.has(tag)) return unwrap(element);
  for (const attribute of Array.from(kept.attributes)) {
    if (!(kept.tagName === "A" && attribute.name === "href")) kept.removeAttribute(attribute.name);
  }
}

/** A paragraph or heading with nothing but spaces in it (Word's `<p>&nbsp;</p>` spacers). */
function isBlank(element: Element) {
  return (element.textContent ?? "").replace(/[\s\u00a0\u200b]/g, "") === "" && !element.querySelector("hr");
}

/** Cleans pasted HTML as the story editor keeps it (see the module's comment). */
export function cleanPastedHtml(html: string, parser: DOMParser = new DOMParser()): string {
  // A copy inside the editor (or from another ProseMirror editor) is already the editor's own: the schema reads it.
  if (/data-pm-slice/.test(html)) return html;
  const doc = parser.parseFromString(html, "text/html");
  const body = doc.body;
  // Comments (Word's conditional <!--[if …]> blocks among them) go first.
  const walker = doc.createTreeWalker(body, 128 /* NodeFilter.SHOW_COMMENT */);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode?.removeChild(comment);

  wordListsToLists(body);
  stylesToMarks(body);
  for (const child of Array.from(body.children)) cleanElement(child);

  // Line breaks between blocks (Google Docs puts <br> between its paragraphs) and blank spacer paragraphs.
  for (const br of Array.from(body.querySelectorAll("br"))) {
    const parent = br.parentElement;
    if (parent === body || (parent && hasBlockChild(parent) && ["BLOCKQUOTE", "LI"].includes(parent.tagName.toUpperCase()))) br.remove();
  }
  for (const block of Array.from(body.querySelectorAll("p, h2, h3"))) if (isBlank(block)) block.remove();
  for (const list of Array.from(body.querySelectorAll("ul, ol"))) if (!list.querySelector("li")) list.remove();
  return body.innerHTML.trim();
}
