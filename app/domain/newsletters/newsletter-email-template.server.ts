import { randomBytes } from "node:crypto";
import { escapeHtml } from "~/domain/articles/story-embed-html";
import { trackingToken, type TrackedRecipient } from "./newsletter-tracking.server";

// A rendered newsletter e-mail is one template for every recipient (issue 30: a send reaches 500
// messages a second on two cores, so nothing is rendered or parsed per recipient). What differs per
// recipient is written as fixed placeholders:
//
// - `%%FP-UNSUBSCRIBE%%`, `%%FP-PREFERENCES%%`: the footer's links (href in the HTML, the address in
//   the text part);
// - `%%FP-TOKEN%%` inside `{public url}/newsletter/click/%%FP-TOKEN%%?u={address, percent-encoded}`
//   (each tracked link) and inside the open pixel's `<img src="{public url}/newsletter/open/%%FP-TOKEN%%.gif" …>`,
//   present only when the newsletter tracks.
//
// A template is cut at its placeholders once (kept by its text) and filled by joining strings. A
// tracked link filled for a recipient without tracking (a test e-mail, the browser view) becomes the
// plain address, and the pixel nothing. The placeholders are fixed, so a story could spell one out:
// while rendering, the e-mail uses one-off placeholders (a random nonce inside them), and anything
// that spells a fixed one in the rendered text is broken with a word joiner before the one-off ones
// become the fixed ones (`settleMarks`).

export const MARK = {
  unsubscribe: "%%FP-UNSUBSCRIBE%%",
  preferences: "%%FP-PREFERENCES%%",
  token: "%%FP-TOKEN%%",
} as const;

export type Marks = { [K in keyof typeof MARK]: string };

/** One render's placeholders, which nothing in its content can spell. */
export function oneOffMarks(): Marks & { nonce: string } {
  const nonce = randomBytes(9).toString("base64url").replace(/[-_]/g, "x");
  return {
    nonce,
    unsubscribe: `%%FP${nonce}-UNSUBSCRIBE%%`,
    preferences: `%%FP${nonce}-PREFERENCES%%`,
    token: `%%FP${nonce}-TOKEN%%`,
  };
}

/** The rendered HTML with its one-off placeholders made the fixed ones, and any fixed one in its content broken. */
export function settleMarks(html: string, nonce: string): string {
  return html.replaceAll("%%FP-", "%%FP&#8288;-").replaceAll(`%%FP${nonce}-`, "%%FP-");
}

/** A link's address in a tracked e-mail: through the click redirect (`token`: the render's placeholder), the address strictly percent-encoded. */
export function trackedHref(publicUrl: string, url: string, token: string = MARK.token): string {
  return `${publicUrl}/newsletter/click/${token}?u=${strictlyEncoded(url)}`;
}

/** encodeURIComponent, and also ! ' ( ) * (so the address holds only [A-Za-z0-9-_.~%], in HTML and text alike). */
const strictlyEncoded = (url: string) => encodeURIComponent(url).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const CLICK_PATH = "/newsletter/click/";
const OPEN_PATH = "/newsletter/open/";
const ENCODED = /[A-Za-z0-9\-_.~%]*/y;
/** Where an address written in HTML or in text begins: after a quote, a bracket or white space. */
const ADDRESS_STOP = /["'\s<>([]/;

type Slot =
  | { kind: "unsubscribe" | "preferences" }
  | { kind: "click"; prefix: string; suffix: string; url: string; plain: string }
  | { kind: "open"; prefix: string; suffix: string };

interface Template {
  /** literals[i] precedes slots[i]; literals has one more entry than slots. */
  literals: string[];
  slots: Slot[];
}

function addressStart(text: string, before: number): number {
  let i = before;
  while (i > 0 && !ADDRESS_STOP.test(text[i - 1]!)) i--;
  return i;
}

function compile(text: string, isHtml: boolean): Template {
  const literals: string[] = [];
  const slots: Slot[] = [];
  const marks = /%%FP-(UNSUBSCRIBE|PREFERENCES|TOKEN)%%/g;
  let from = 0;
  for (let match = marks.exec(text); match; match = marks.exec(text)) {
    const at = match.index;
    const end = at + match[0].length;
    if (match[1] === "UNSUBSCRIBE" || match[1] === "PREFERENCES") {
      literals.push(text.slice(from, at));
      slots.push({ kind: match[1] === "UNSUBSCRIBE" ? "unsubscribe" : "preferences" });
      from = end;
    } else if (text.startsWith(CLICK_PATH, at - CLICK_PATH.length) && text.startsWith("?u=", end)) {
      ENCODED.lastIndex = end + 3;
      const encoded = ENCODED.exec(text)![0];
      const start = Math.max(from, addressStart(text, at - CLICK_PATH.length));
      let url: string;
      try {
        url = decodeURIComponent(encoded);
      } catch {
        continue;
      }
      literals.push(text.slice(from, start));
      slots.push({ kind: "click", prefix: text.slice(start, at), suffix: `?u=${encoded}`, url, plain: isHtml ? escapeHtml(url) : url });
      from = end + 3 + encoded.length;
    } else if (text.startsWith(OPEN_PATH, at - OPEN_PATH.length)) {
      // The pixel: its whole <img> goes when the recipient is not tracked.
      const tag = isHtml ? text.lastIndexOf("<img", at) : -1;
      const start = tag >= from ? tag : Math.max(from, addressStart(text, at - OPEN_PATH.length));
      const close = isHtml ? text.indexOf(">", end) : -1;
      const stop = close >= 0 ? close + 1 : end;
      literals.push(text.slice(from, start));
      slots.push({ kind: "open", prefix: text.slice(start, at), suffix: text.slice(end, stop) });
      from = stop;
    }
  }
  literals.push(text.slice(from));
  return { literals, slots };
}

const kept = new Map<string, Template>();
/** The template of a rendered text, cut once (the same text, as every recipient of a send has, is cut once). */
function templateOf(text: string, isHtml: boolean): Template {
  let template = kept.get(text);
  if (!template) {
    template = compile(text, isHtml);
    if (kept.size >= 32) kept.delete(kept.keys().next().value!);
    kept.set(text, template);
  }
  return template;
}

export interface RecipientLinks {
  unsubscribeUrl: string;
  preferencesUrl: string;
  tracking?: { secret: string } & TrackedRecipient;
}

/** One recipient's tokens, each made once for both parts of the e-mail. */
class RecipientTokens {
  private readonly clicks = new Map<string, string>();
  private open: string | null = null;
  constructor(private readonly tracking: NonNullable<RecipientLinks["tracking"]>) {}
  openToken(): string {
    return (this.open ??= trackingToken(this.tracking.secret, "open", this.tracking));
  }
  clickToken(url: string): string {
    let token = this.clicks.get(url);
    if (token === undefined) {
      token = trackingToken(this.tracking.secret, "click", this.tracking, url);
      this.clicks.set(url, token);
    }
    return token;
  }
}

function fill(template: Template, links: RecipientLinks, tokens: RecipientTokens | null, isHtml: boolean): string {
  const { literals, slots } = template;
  if (slots.length === 0) return literals[0]!;
  const unsubscribe = isHtml ? escapeHtml(links.unsubscribeUrl) : links.unsubscribeUrl;
  const preferences = isHtml ? escapeHtml(links.preferencesUrl) : links.preferencesUrl;
  let out = literals[0]!;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    switch (slot.kind) {
      case "unsubscribe":
        out += unsubscribe;
        break;
      case "preferences":
        out += preferences;
        break;
      case "click":
        out += tokens ? slot.prefix + tokens.clickToken(slot.url) + slot.suffix : slot.plain;
        break;
      case "open":
        if (tokens) out += slot.prefix + tokens.openToken() + slot.suffix;
        break;
    }
    out += literals[i + 1]!;
  }
  return out;
}

/** The e-mail's HTML and text for one recipient: their footer links, and, when given, their tracking tokens. */
export function fillTemplates(html: string, text: string, links: RecipientLinks): { html: string; text: string } {
  const tokens = links.tracking ? new RecipientTokens(links.tracking) : null;
  return { html: fill(templateOf(html, true), links, tokens, true), text: fill(templateOf(text, false), links, tokens, false) };
}
