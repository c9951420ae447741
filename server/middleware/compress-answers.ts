import zlib from "node:zlib";
import compression from "compression";
import type { RequestHandler } from "express";

/**
 * Rendered answers leave compressed (issue 13): a search page, a signed-in reader's page, the back
 * office and the API. The page cache's and the build's files carry their own encodings (stored or
 * precompressed, and answered before this layer sees them or marked as already encoded), and media
 * files are mostly images that do not compress. A search page went out as 33 KB of plain HTML, and on
 * Lighthouse's slow phone it painted 440 ms later than the cached home page's 15 KB of gzip.
 *
 * Each answer is compressed as it is made, so at the cheap end of each format: brotli quality 2 (an
 * article page: 59 → 12.8 KB in 0.27 ms here), gzip level 1 (14.4 KB in 0.34 ms; level 6 would spend
 * 0.59 ms for 12.8 KB). React Router's sender flushes after every chunk, so a page that streams still
 * streams. Server-sent events are left alone: a compressor holds back what a stream must send at once.
 */
export function compressAnswers(): RequestHandler {
  return compression({
    level: 1,
    brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 2 } },
    filter: (req, res) => !/^text\/event-stream/i.test(String(res.getHeader("Content-Type") ?? "")) && compression.filter(req, res),
  });
}
