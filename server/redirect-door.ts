import type http from "node:http";
import type { RedirectTable } from "../app/domain/redirects/redirect-table.server";
import { REDIRECTS_TAG, SITE_TAG } from "../app/lib/cache-tags.server";
import type { SecurityHeaderWriter } from "./middleware/security-headers";
import { SHORT_SHARED_CACHE, type SharedCacheHeaders } from "../app/lib/cache-control";

/**
 * The redirects' door (issue 29, decision 0040): a GET or HEAD of an old address the in-memory table
 * holds is answered 301 or 302 with its Location where the request arrives, before the page cache's
 * door, Express and routing, for everyone (a redirect is nobody's own). It is cached like a page: the
 * table is this process's cache of the `redirects` table (reloaded on its change notices), and the
 * answer carries the public pages' Cache-Control and the tags a CDN purges it by. Counted as a hit of
 * that redirect (GET only) through the view recorder's batches. Anything else: false, and on it goes.
 */
export function redirectDoor(options: {
  table: RedirectTable;
  writeSecurityHeaders: SecurityHeaderWriter;
  onHit?: (id: number) => void;
  /** The shared-cache lifetime of public answers (app/lib/cache-control.ts; default: the short one). */
  sharedCache?: () => SharedCacheHeaders;
}): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  const { table } = options;
  const tags = [SITE_TAG, REDIRECTS_TAG];
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const answer = table.answerFor(req.url ?? "/");
    if (!answer) return false;
    if (req.method === "GET") options.onHit?.(answer.id);
    res.writeHead(answer.statusCode, [
      ...options.writeSecurityHeaders.flat(null),
      "Location",
      answer.location,
      ...Object.entries(options.sharedCache?.() ?? SHORT_SHARED_CACHE).flat(),
      "Cache-Tag",
      tags.join(","),
      "Surrogate-Key",
      tags.join(" "),
      "Content-Length",
      "0",
    ]);
    res.end();
    return true;
  };
}
