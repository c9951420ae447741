// Redirects' addresses (issue 29, decision 0040): one normalization for the paths stored, the paths
// requested and the targets followed, so that each compares with the others. Browser-safe: the form
// and the server both read it.

/** The longest address a redirect stores (from or to). */
export const MAX_REDIRECT_PATH_LENGTH = 2048;

/** Characters a path segment may hold as they are (RFC 3986 pchar without "%"): such a path is already canonical. */
const CANONICAL_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** What encodeURIComponent escapes although a path segment may hold it as it is. */
const ALLOWED_IN_SEGMENT = /%(24|26|2B|2C|3B|3D|3A|40)/g;
/** Whether a text holds a control character (U+0000–U+001F, U+007F): no address does. */
const hasControl = (text: string) => [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** One segment, percent-encoded one way: decoded, then encoded with upper-case escapes; null for a malformed escape. */
function canonicalSegment(segment: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return encodeURIComponent(decoded).replace(ALLOWED_IN_SEGMENT, (escape) => decodeURIComponent(escape));
}

/** A path (no query, no fragment) canonically encoded, without trailing slashes ("/" stays "/"); null when it cannot be. */
function canonicalPath(path: string): string | null {
  let canonical: string;
  if (CANONICAL_PATH.test(path)) canonical = path;
  else {
    const segments = path.split("/").map(canonicalSegment);
    if (segments.some((segment) => segment === null)) return null;
    canonical = segments.join("/");
  }
  let end = canonical.length;
  while (end > 1 && canonical[end - 1] === "/") end--;
  return canonical.slice(0, end);
}

/** A query string (without "?") with its parameters sorted by name, then value, form-encoded one way; "" for none. */
function canonicalQuery(query: string): string {
  if (query === "") return "";
  const pairs = [...new URLSearchParams(query)];
  pairs.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return new URLSearchParams(pairs).toString();
}

/**
 * A redirect's old address as stored and compared: a path starting with "/" (from a full http(s) URL,
 * its path and query), percent-encoding canonical, no fragment, no trailing slash, and the query
 * string kept with its parameters sorted (`/?p=123`, `/x?a=1&b=2` = `/x?b=2&a=1`). Null when it is no
 * such address (empty, relative, "//host", control characters, a malformed escape, too long).
 */
export function normalizeRedirectPath(input: string): string | null {
  let text = input.trim();
  if (/^https?:\/\//i.test(text)) {
    if (!URL.canParse(text)) return null;
    const url = new URL(text);
    text = `${url.pathname}${url.search}`;
  }
  if (!text.startsWith("/") || text.startsWith("//") || hasControl(text)) return null;
  const fragment = text.indexOf("#");
  if (fragment !== -1) text = text.slice(0, fragment);
  const queryAt = text.indexOf("?");
  const path = canonicalPath((queryAt === -1 ? text : text.slice(0, queryAt)).replace(/ /g, "%20"));
  if (path === null) return null;
  const query = queryAt === -1 ? "" : canonicalQuery(text.slice(queryAt + 1));
  const normalized = query ? `${path}?${query}` : path;
  return normalized.length <= MAX_REDIRECT_PATH_LENGTH ? normalized : null;
}

/**
 * A redirect's new address as stored and sent in Location: a local path (canonically encoded by the
 * URL parser, its query and fragment kept) or an absolute http(s) URL. Null when it is neither.
 */
export function normalizeRedirectTarget(input: string): string | null {
  const text = input.trim();
  if (text === "" || hasControl(text)) return null;
  let target: string;
  if (text.startsWith("/") && !text.startsWith("//") && !text.startsWith("/\\")) {
    const url = new URL(text, "http://local.invalid");
    if (url.host !== "local.invalid") return null;
    target = `${url.pathname}${url.search}${url.hash}`;
  } else if (/^https?:\/\//i.test(text) && URL.canParse(text)) {
    const url = new URL(text);
    if (!url.hostname) return null;
    target = url.href;
  } else {
    return null;
  }
  return target.length <= MAX_REDIRECT_PATH_LENGTH ? target : null;
}

/** Whether a stored target is a path of this site (followed when chains are checked) rather than another site's URL. */
export const isLocalTarget = (target: string) => target.startsWith("/");

/**
 * The stored old addresses a request for `pathWithQuery` (as sent: path and query) matches, best
 * first: its path and query, then its path alone (a trailing slash never counts). Empty when the
 * path cannot be normalized. `withQuery: false` skips the first (no stored address has a query).
 */
export function redirectKeysOf(pathWithQuery: string, withQuery = true): string[] {
  const queryAt = pathWithQuery.indexOf("?");
  const fragment = pathWithQuery.indexOf("#");
  const pathEnd = queryAt === -1 ? (fragment === -1 ? pathWithQuery.length : fragment) : queryAt;
  const path = canonicalPath(pathWithQuery.slice(0, pathEnd));
  if (path === null || !path.startsWith("/")) return [];
  if (queryAt === -1 || !withQuery) return [path];
  const query = canonicalQuery(pathWithQuery.slice(queryAt + 1, fragment === -1 || fragment < queryAt ? undefined : fragment));
  return query ? [`${path}?${query}`, path] : [path];
}
