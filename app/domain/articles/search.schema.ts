// Site search's shared rules (decision 0018): what a query may be, and how a highlighted snippet
// travels from the database to the page. Safe in the browser.

/** The longest query we pass to PostgreSQL (longer ones are cut, never refused: a reader pasted a paragraph). */
export const SEARCH_QUERY_MAX = 200;
/** Results per page of /search (the admin list's search pages like the list). */
export const SEARCH_PAGE_SIZE = 10;

/**
 * How many matches a search ranks: the newest this many (decision 0018). A word in half the archive
 * would otherwise rank 50,000 rows per search; among the newest 500, a news reader's best match
 * is found in milliseconds however large the archive grows. The count stops there too.
 */
export const SEARCH_CANDIDATES = 500;

/**
 * ts_headline wraps each match in these two control characters (never found in what a reader sees):
 * the page splits on them and renders <mark> elements, so no HTML from the database is ever injected.
 */
export const MARK_START = "\u0002";
export const MARK_END = "\u0003";

/** A query as typed: trimmed, inner whitespace folded, control characters removed, at most SEARCH_QUERY_MAX long. */
export function normalizeSearchQuery(raw: string | null | undefined): string {
  return (raw ?? "")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, SEARCH_QUERY_MAX)
    .trim();
}

export interface HighlightPart {
  text: string;
  marked: boolean;
}

/** A snippet with MARK_START/MARK_END as the runs of text to show plain and highlighted. */
export function highlightParts(snippet: string): HighlightPart[] {
  const parts: HighlightPart[] = [];
  let marked = false;
  let text = "";
  const flush = () => {
    if (text) parts.push({ text, marked });
    text = "";
  };
  for (const char of snippet) {
    if (char === MARK_START || char === MARK_END) {
      flush();
      marked = char === MARK_START;
    } else text += char;
  }
  flush();
  return parts;
}

/** Between ts_headline's passages (a control character, like the markers): the page never shows it; snippetOf joins them with " … ". */
export const FRAGMENT_DELIMITER = "\u0004";
/** How far a snippet may reach back to the start of its sentence, or on to its end, instead of being cut (characters). */
const REACH_BACK = 40;
const REACH_ON = 60;

const OPENING = `"'“‘([`;
const SENTENCE_END = /[.!?…]["'”’)\]]*$/;
const STARTS_SENTENCE = /^["'“‘([]*[\p{Lu}\p{N}]/u;
/** What may follow the last word of a text: its closing punctuation and quotes. */
const TAIL = /^[\s.!?…,;:"'”’)\]]*$/;
const CUT_TAIL = /[\s,;:\-–—]+$/;

/**
 * A search result's snippet as readers see it (issue 41): ts_headline's passages (`headline`, joined by
 * FRAGMENT_DELIMITER, matches between MARK_START and MARK_END) placed back in the text they came from
 * (`source`): each starts where a sentence starts (reaching back a few words to it when it is near) or
 * else with "…", and the snippet ends with "…" when the text goes on after it (reaching on to the end
 * of the sentence when it is near). Passages that meet are joined; others are separated by " … ".
 * Whitespace is folded to single spaces. A passage not found in the source is shown as ts_headline
 * gave it, with "…" wherever it does not start or end the text.
 */
export function snippetOf(source: string, headline: string): string {
  // The source with whitespace folded, and where its paragraphs start (a line break starts a sentence too).
  let text = "";
  const paragraphStarts = new Set<number>();
  for (const [, space, word] of source.matchAll(/(\s*)(\S+)/g)) {
    if (text) text += " ";
    if (text && space!.includes("\n")) paragraphStarts.add(text.length);
    text += word;
  }
  const isSentenceStart = (i: number) =>
    i === 0 || paragraphStarts.has(i) || (text[i - 1] === " " && SENTENCE_END.test(text.slice(Math.max(0, i - 6), i - 1)) && STARTS_SENTENCE.test(text.slice(i, i + 4)));

  type Passage = { start: number; end: number; marks: [number, number][] };
  const passages: Passage[] = [];
  const unplaced: string[] = [];
  let from = 0;
  for (const fragment of headline.split(FRAGMENT_DELIMITER)) {
    // The passage without its markers (remembering where they were), whitespace folded like the source.
    let plain = "";
    const marks: [number, number][] = [];
    let markStart = -1;
    for (const char of fragment.replace(/\s+/g, " ")) {
      if (char === MARK_START) markStart = plain.length;
      else if (char === MARK_END) {
        if (markStart >= 0) marks.push([markStart, plain.length]);
        markStart = -1;
      } else plain += char;
    }
    const leading = plain.length - plain.trimStart().length;
    plain = plain.trim();
    if (!plain) continue;
    const at = text.indexOf(plain, from);
    if (at < 0) {
      unplaced.push(fragment.trim());
      continue;
    }
    from = at + plain.length;
    passages.push({ start: at, end: at + plain.length, marks: marks.map(([s, e]) => [at + s - leading, at + e - leading]) });
  }
  if (unplaced.length > 0 || passages.length === 0) {
    const shown = headline.split(FRAGMENT_DELIMITER).map((f) => f.replace(/\s+/g, " ").trim()).filter(Boolean).join(" … ");
    if (!shown) return "";
    const bare = shown.replace(/[\u0002\u0003]/g, ""); // eslint-disable-line no-control-regex
    return `${text.startsWith(bare) ? "" : "…"}${shown}${text.endsWith(bare) ? "" : "…"}`;
  }

  for (const passage of passages) {
    // The start: a sentence's, the one just before when it is near, the next one when it comes before the first match; else "…".
    let start = passage.start;
    while (start > 0 && OPENING.includes(text[start - 1]!)) start--;
    if (!isSentenceStart(start)) {
      let back = start - 1;
      while (back >= Math.max(0, start - REACH_BACK) && !isSentenceStart(back)) back--;
      if (back >= Math.max(0, start - REACH_BACK)) start = back;
      else {
        const firstMark = passage.marks[0]?.[0] ?? passage.end;
        const limit = Math.min(firstMark, passage.start + (passage.end - passage.start) / 2);
        let on = start + 1;
        while (on <= limit && !isSentenceStart(on)) on++;
        if (on <= limit) start = on;
      }
    }
    passage.start = start;
    // The end: the text's end when only its closing punctuation is left, else the sentence's end when it is near.
    let end = passage.end;
    if (TAIL.test(text.slice(end))) end = text.length;
    else if (!SENTENCE_END.test(text.slice(0, end))) {
      const sentenceEnd = /[.!?…]["'”’)\]]*(?= |$)/.exec(text.slice(end, end + REACH_ON));
      if (sentenceEnd) end += sentenceEnd.index + sentenceEnd[0].length;
      if (TAIL.test(text.slice(end))) end = text.length;
    }
    passage.end = end;
  }

  // Passages that meet become one.
  const merged: Passage[] = [];
  for (const passage of passages.sort((a, b) => a.start - b.start)) {
    const last = merged[merged.length - 1];
    if (last && passage.start <= last.end + 1) {
      last.end = Math.max(last.end, passage.end);
      last.marks.push(...passage.marks);
    } else merged.push({ ...passage, marks: [...passage.marks] });
  }

  const render = ({ start, end, marks }: Passage) => {
    let out = "";
    let at = start;
    for (const [s, e] of marks) {
      const from = Math.max(s, at);
      const to = Math.min(e, end);
      if (to <= from) continue;
      out += `${text.slice(at, from)}${MARK_START}${text.slice(from, to)}${MARK_END}`;
      at = to;
    }
    return out + text.slice(at, end);
  };
  let snippet = "";
  merged.forEach((passage, i) => {
    const shown = render(passage);
    if (i === 0) snippet = isSentenceStart(passage.start) ? shown : `…${shown}`;
    else snippet = `${snippet.replace(CUT_TAIL, "")} … ${shown}`;
  });
  const last = merged[merged.length - 1]!;
  if (last.end >= text.length) return snippet;
  return SENTENCE_END.test(text.slice(0, last.end)) ? `${snippet} …` : `${snippet.replace(CUT_TAIL, "")}…`;
}
