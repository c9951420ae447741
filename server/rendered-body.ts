import zlib from "node:zlib";
import type { PathRules } from "../app/lib/path-classes";
import { pickEncoding, type Encoding } from "./page-cache";

/**
 * What a rendered answer may be compressed as (issue 13): the app's own text, a page, its navigation
 * data, JSON and XML. Server-sent events stream and are never compressed; files are served elsewhere.
 */
const COMPRESSIBLE = /^(text\/html|text\/x-script|application\/json|application\/(rss\+|atom\+)?xml|text\/xml|text\/plain)\b/i;

/** Below this, compressing saves less than a packet (the `compression` middleware's threshold too). */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * An answer that declares a longer body goes out as it streams. One that declares none (React
 * Router's pages and data) is read whole: a page is already whole in memory when it leaves
 * (htmlStream gathers what React writes in one turn, and our pages render in one).
 */
export const MAX_COMPRESSED_BYTES = 4 * 1024 * 1024;

/**
 * Whether an answer of this type and length, to a path of these rules, is compressed before it is
 * sent. Never the back office's or the sign-in's answers (`personal: "always"`): a compressed answer
 * that holds a secret (a two-factor setup key, an invitation link) beside text an attacker can make
 * it repeat gives the secret away by its length (BREACH). What the reader site answers holds no such
 * secret: its nonces and form stamps change with every answer.
 */
export function compressesAnswer(headers: Headers, rules: Pick<PathRules, "personal">): boolean {
  if (rules.personal === "always") return false;
  if (headers.has("Content-Encoding") || !COMPRESSIBLE.test(headers.get("Content-Type") ?? "")) return false;
  const length = headers.get("Content-Length");
  return length === null || Number(length) <= MAX_COMPRESSED_BYTES;
}

/**
 * A rendered answer's body as it is sent (issue 13): a search page, a signed-in reader's page and
 * their navigation data, the public API (see compressesAnswer for what is not). Stored pages and the
 * build's files carry their own encodings. A search page went out as 33 KB of plain HTML, and on
 * Lighthouse's slow phone painted 440 ms after the cached home page's 15 KB of gzip; with it
 * compressed, its LCP went from 1.82 to 0.77 s.
 *
 * Our pages render whole in one turn (no part streams: decision 0031), so the body is compressed in
 * one call, at the cheap end of each format: brotli quality 2 (an article page, 59 → 12.8 KB in
 * 0.27 ms here), gzip level 1 (14.4 KB in 0.34 ms). The `compression` middleware's zlib stream per
 * answer cost 12–15% of the rendered pages a second (its stream, its flushes, its trips through the
 * thread pool); a call on the whole body costs 3–5%.
 */
export function renderedBody(body: Buffer, acceptEncoding: string | undefined): { body: Buffer; encoding: Encoding } {
  const encoding = body.length < MIN_COMPRESSED_BYTES ? null : pickEncoding(acceptEncoding);
  if (encoding === "br") {
    return { body: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }), encoding };
  }
  if (encoding === "gzip") return { body: zlib.gzipSync(body, { level: 1 }), encoding };
  return { body, encoding: null };
}
