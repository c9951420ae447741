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
