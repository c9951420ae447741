import type http from "node:http";
import { isSessionCookiePresent } from "../app/lib/auth-cookie";
import { classifyPath, type PathRules } from "../app/lib/path-classes";
import { articleSlugOf } from "../app/lib/view-recorder.server";
import { newCspNonce, type SecurityHeaderWriter } from "./middleware/security-headers";
import { variantKey, type CachedPage, type PageCache } from "./page-cache";
import type { GateDecision, ReaderAccess } from "./reader-access";
import { cachedAnswer, isCountedLoad, pageViewPathOf, sendBody, type PageViewCounter, type SlotFiller } from "./request-handler";

/**
 * The page cache's door (issue 13): an anonymous GET or HEAD of a page the cache holds fresh is
 * answered right where the request arrives, before Express and its layers, with what the Express path
 * would send (the same security headers, validator, nonce handling and counting: one writer and one
 * sender serve both). Anything else, a stale page included (its background render lives in the app
 * handler), goes on to Express: the door answers false.
 *
 * None of the layers it passes by applies to such a request: the admin gate, body checks, sign-in
 * limits and the same-origin check concern other paths or methods; Cache-Control of personal answers
 * concerns signed-in readers; the database gate lets cached pages through anyway.
 */
export function cacheDoor(options: {
  cache: PageCache;
  writeSecurityHeaders: SecurityHeaderWriter;
  onPageView?: PageViewCounter;
  /** Readers' access (issue 40): a gated page's copy is picked from the reader's signed cookies. */
  readers?: ReaderAccess;
  /** Fills the stored page's ad slots for each answer (issue 43). */
  fillSlots?: SlotFiller;
}): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  const { cache } = options;
  /** What counting a load of a stored page needs that its key alone decides, found once per page. */
  const countingOf = new WeakMap<CachedPage, { rules: PathRules; viewPath: string; articleSlug: string | null }>();
  const countingFacts = (page: CachedPage, key: string) => {
    let facts = countingOf.get(page);
    if (!facts) {
      const path = classifyPath(key);
      facts = { rules: path.rules, viewPath: pageViewPathOf(key), articleSlug: articleSlugOf(path) };
      countingOf.set(page, facts);
    }
    return facts;
  };
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    if (isSessionCookiePresent(req.headers.cookie)) return false;
    const key = req.url ?? "/";
    // Only cacheable paths are ever stored, so a key found is one (its class is asked only to count).
    let page = cache.get(key);
    if (!page || page.stale) return false;
    // A gated page (issue 40): the copy the reader's cookies name, when the cookies settle it and the
    // copy is here and fresh; anything else (a pass to renew, a member's metered read) goes on to the app.
    let gated: GateDecision | undefined;
    if (page.gate && options.readers) {
      const decision = options.readers.decide(page.gate, req.headers.cookie);
      if ("pending" in decision) return false;
      if (decision.variant !== "anonymous") {
        page = cache.get(variantKey(key, decision.variant));
        if (!page || page.stale) return false;
      }
      gated = decision;
    }
    const nonce = newCspNonce();
    const answer = cachedAnswer(req, page, "HIT", nonce, gated, options.fillSlots);
    // Counted as it is answered (200, or 304: the reader's browser shows its copy): the door knows the
    // status at once, where the Express path learns it when the response finishes.
    if (options.onPageView && (answer.status === 200 || answer.status === 304)) {
      const facts = countingFacts(page, key);
      if (isCountedLoad(req, facts.rules)) options.onPageView(facts.viewPath, facts.articleSlug, req);
    }
    // One writeHead with every header: the fast way through node:http.
    res.writeHead(answer.status, [...options.writeSecurityHeaders.flat(answer.withPolicy ? nonce : null), ...answer.headers]);
    sendBody(res, answer);
    return true;
  };
}
