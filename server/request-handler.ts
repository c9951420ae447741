import type http from "node:http";
import { Transform, type Readable } from "node:stream";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type express from "express";
import { isbot } from "isbot";
import { createRequestHandler as createReactRouterHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { declaredLengthLimitOf, tooLargeMessage, UPLOAD_RULES, type UploadKind } from "../app/lib/upload-rules";
import { AppError } from "../app/lib/app-error";
import { isSessionCookiePresent } from "../app/lib/auth-cookie";
import { classifyPath, type PathMatch, type PathRules } from "../app/lib/path-classes";
import { articleSlugOf } from "../app/lib/view-recorder.server";
import { answerUnavailable } from "./middleware/database-gate";
import { cspNonceOf, newCspNonce } from "./middleware/security-headers";
import { articleTag, REDIRECTS_TAG, SITE_TAG } from "../app/lib/cache-tags.server";
import { briefSharedCache, isSharedCacheControl, SHORT_SHARED_CACHE, STALE_SHARED_SECONDS, type SharedCacheHeaders } from "../app/lib/cache-control";
import { cachedBody, pageTagsOf, pickEncoding, splitVariantKey, variantKey, type CachedPage, type PageCache } from "./page-cache";
import type { GateNote } from "../app/app-context.server";
import type { Db } from "../app/db/client.server";
import type { Variant } from "../app/domain/members/access";
import type { MemberAuth } from "../app/domain/members/member-auth.server";
import type { GateDecision, ReaderAccess } from "./reader-access";
import { pathClassOf } from "./request-path-class";
import { compressesAnswer, renderedBody } from "./rendered-body";
import type { SlotFills } from "./nonced-body";

// Which paths each rule below applies to is the path's class in app/lib/path-classes.ts.

// The shared-cache lifetimes of public answers (30 s, a day when a CDN is purged, a few seconds for
// an answer from a stale copy) have one home: app/lib/cache-control.ts (decision 0045).

/**
 * Whether a finished request may have changed a cached page: a write that succeeded, through a path
 * whose class can change content (not the view beacon, comment attachments, sign-in or sign-out). The
 * database's change notices say which pages (decision 0028); such a write waits until this process
 * has heard them, so the writer's next page never shows a stale copy.
 */
export function mayChangePages(method: string, path: string, status: number): boolean {
  return pagesChangedBy(method, classifyPath(path), status) !== null;
}

/** The cache tags a finished request may have changed: one article's pages (a comment), any page (SITE_TAG: the change notices say which), or none. */
function pagesChangedBy(method: string, match: { rules: PathRules; params: Record<string, string> }, status: number): string[] | null {
  if (method === "GET" || method === "HEAD" || status >= 400 || !match.rules.changesPages) return null;
  if (match.rules.changesPages === "its article" && match.params.slug) return [articleTag(match.params.slug)];
  return [SITE_TAG];
}

/** The page a counted load shows, as the browser's address bar has it: `.data` and React Router's own query keys dropped. */
export function pageViewPathOf(originalUrl: string): string {
  const queryAt = originalUrl.indexOf("?");
  let pathname = queryAt === -1 ? originalUrl : originalUrl.slice(0, queryAt);
  if (pathname === "/_root.data") pathname = "/";
  else if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length) || "/";
  // The query as sent (a bare "?story" stays so), without React Router's own keys.
  const kept = queryAt === -1 ? [] : originalUrl.slice(queryAt + 1).split("&").filter((part) => part && !/^(_routes|index)(=|$)/.test(part));
  return `${pathname}${kept.length > 0 ? `?${kept.join("&")}` : ""}`.slice(0, 2048);
}

/**
 * Whether a request is a load of a page that counts (issue 13: counted where it arrives, a page-cache
 * hit included): a GET of a reader page, HTML or the data of a client-side navigation, not by a bot
 * (isbot) and not a prefetch (which the reader may never open).
 */
export function isCountedLoad(req: http.IncomingMessage, rules: PathRules): boolean {
  if (req.method !== "GET" || !rules.countedAsPageView) return false;
  return isReadersLoad(req);
}

/** A load by a reader's browser (the view rule): not a prefetch or prerender, not a bot. */
export function isReadersLoad(req: http.IncomingMessage): boolean {
  const purpose = `${req.headers["sec-purpose"] ?? ""} ${req.headers["purpose"] ?? ""} ${req.headers["x-moz"] ?? ""}`;
  if (/prefetch|prerender/i.test(purpose)) return false;
  return !isBotAgent(req.headers["user-agent"] ?? "");
}

/** isbot's answers for the user agents seen lately: its pattern is long, and a busy site sees the same few agents over and over. */
const botAgents = new Map<string, boolean>();
function isBotAgent(userAgent: string): boolean {
  let known = botAgents.get(userAgent);
  if (known === undefined) {
    if (botAgents.size >= 1000) botAgents.clear();
    botAgents.set(userAgent, (known = isbot(userAgent)));
  }
  return known;
}

/** The cookies of readers' access and sessions, which no render for a class of readers may see (issue 40). */
const READER_COOKIE = /^(__Secure-)?(frontpage-member\.|frontpage-access$|frontpage-meter$|frontpage-meter-note$|frontpage-reader$)/;

/** A request without the reader's own cookies: what a render kept for a whole class of readers is given. */
function readerFreeRequest(request: Request): Request {
  const cookie = request.headers.get("cookie");
  if (!cookie) return request;
  const kept = cookie.split(";").filter((part) => !READER_COOKIE.test(part.split("=")[0]!.trim()));
  const headers = new Headers(request.headers);
  if (kept.length > 0) headers.set("cookie", kept.join(";"));
  else headers.delete("cookie");
  return new Request(request, { headers });
}

/** A read of a reader page (the class the page cache keeps) without a staff session: a page for a class of readers. */
function isReaderRead(req: express.Request) {
  return (req.method === "GET" || req.method === "HEAD") && pathClassOf(req).rules.cacheable && !isSessionCookiePresent(req.headers.cookie);
}

/** An anonymous read of a path whose class the page cache may keep. */
function isCacheableRequest(req: express.Request) {
  return isReaderRead(req);
}

/**
 * The largest request body a form, JSON call or sign-in may send (the biggest is an article of
 * 200,000 characters, form-encoded). Bodies are read into memory by request.formData()/json(), so
 * without a limit one anonymous POST could take the process's memory. The upload routes stream to
 * disk and enforce their own per-kind limits.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
const TOO_LARGE = JSON.stringify({ error: "The request body is larger than the 4 MB limit." });

/**
 * Page actions (paths whose class is `formsOnly`: everything outside /api/) read their input with
 * request.formData(): another body type is refused with 415 here instead of failing inside the
 * action with a 500.
 */
const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;
const NOT_A_FORM = JSON.stringify({ error: "Send this request as a form (application/x-www-form-urlencoded or multipart/form-data)." });

export function isUnacceptablePageActionBody(path: string, contentType: string | undefined): boolean {
  return isUnacceptableBody(classifyPath(path).rules, contentType);
}

function isUnacceptableBody(rules: PathRules, contentType: string | undefined): boolean {
  return rules.formsOnly && !FORM_TYPES.test(contentType ?? "");
}

/** Whether a request carries a body at all (a bodiless POST, like a sign-out, is an empty form). */
function hasBody(req: express.Request): boolean {
  return Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
}

/** The body limit of a request's path, or null where the route enforces its own (uploads). */
export function bodyLimitFor(path: string): number | null {
  return bodyLimitOf(classifyPath(path).rules);
}

function bodyLimitOf(rules: PathRules): number | null {
  return rules.bodyLimit === "route" ? null : MAX_BODY_BYTES;
}

/**
 * The most a request to this address may declare it will send, and what a refusal says: 4 MB, or for
 * an upload its kind's limit (plus multipart framing). Null where the kind is unknown (the route answers).
 */
export function declaredLengthLimit(url: URL): { bytes: number; message: string } | null {
  const { rules, params } = classifyPath(url.pathname);
  const limit = bodyLimitOf(rules);
  if (limit !== null) return { bytes: limit, message: TOO_LARGE };
  // An admin upload names its kind in the path (api/admin/uploads/:kind), a comment upload in the query.
  const kind = params.kind ?? url.searchParams.get("kind");
  if (!kind || !Object.hasOwn(UPLOAD_RULES, kind)) return null;
  const rule = UPLOAD_RULES[kind as UploadKind];
  return { bytes: declaredLengthLimitOf(rule), message: JSON.stringify({ error: tooLargeMessage(rule) }) };
}

/**
 * For a client that asks first (Expect: 100-continue, as curl does for large bodies): a body over the
 * limit is refused with 413 before it is sent, instead of being cut off halfway (a reset connection).
 */
export function answerExpectContinue(req: http.IncomingMessage, res: http.ServerResponse, proceed: () => void) {
  // Runs outside Express (no error handler): a target URL cannot parse ("//[") goes on to Express,
  // which answers it, instead of throwing here and taking the process down.
  const url = URL.canParse(req.url ?? "/", "http://localhost") ? new URL(req.url ?? "/", "http://localhost") : null;
  const limit = url && declaredLengthLimit(url);
  if (limit && Number(req.headers["content-length"]) > limit.bytes) {
    res.writeHead(413, { "Content-Type": "application/json", "Cache-Control": "no-store", Connection: "close" });
    res.end(limit.message);
    return;
  }
  res.writeContinue();
  proceed();
}

function refuseTooLarge(res: express.Response) {
  if (res.headersSent) return;
  // Connection: close, so the rest of the body is never read.
  res.status(413).set({ "Cache-Control": "no-store", Connection: "close", "Content-Type": "application/json" }).end(TOO_LARGE);
}

/** The request body, counted as it streams: past `limit` bytes the client gets 413 and the body an error. */
function limitedBody(req: express.Request, res: express.Response, limit: number | null): Readable {
  if (limit === null) return req;
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen <= limit) return callback(null, chunk);
      refuseTooLarge(res);
      req.unpipe(counter);
      callback(new AppError("too_large", "The request body is larger than the 4 MB limit."));
    },
  });
  req.on("error", (error) => counter.destroy(error));
  return req.pipe(counter);
}

function toFetchRequest(req: express.Request, res: express.Response): Request {
  const host = req.get("host") ?? "localhost";
  const url = new URL(`${req.protocol}://${host}${req.originalUrl}`);
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    for (const value of Array.isArray(values) ? values : [values]) headers.append(key, value);
  }
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    // No body and no type: an empty form, so an action reading formData() sees no fields (a 400), not a crash.
    if (!headers.has("content-type") && !hasBody(req)) headers.set("content-type", "application/x-www-form-urlencoded");
    init.body = createReadableStreamFromReadable(limitedBody(req, res, bodyLimitOf(pathClassOf(req).rules)));
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/** Open server-sent event streams: they never end by themselves, so shutdown ends them. */
export const openEventStreams = new Set<express.Response>();

async function sendFetchResponse(res: express.Response, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) {
    res.flushHeaders();
    openEventStreams.add(res);
    res.on("close", () => openEventStreams.delete(res));
  }
  if (!response.body) {
    res.end();
    return;
  }
  try {
    // A rendered page, its data, JSON or XML: read whole and compressed in one call (server/rendered-body.ts).
    if (compressesAnswer(response.headers, pathClassOf(res.req).rules)) {
      res.append("Vary", "Accept-Encoding");
      const { body, encoding } = renderedBody(Buffer.from(await response.arrayBuffer()), res.req.headers["accept-encoding"]);
      if (encoding) res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", body.length);
      res.end(body);
      return;
    }
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!(res.destroyed || res.writableEnded)) throw error;
  }
}

/**
 * Whether an If-None-Match header names this (weak) validator. Not Express's req.fresh: that treats a
 * request's `Cache-Control: no-cache` as "send it all", and fetch() adds exactly that to every
 * conditional request it makes.
 */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === bare;
  });
}

/** What a cached page's answer is: status, headers (flat), body (none for 304 and HEAD), and whether it carries the page's policy. */
export interface CachedAnswer {
  status: number;
  headers: string[];
  body: Buffer | null;
  /** Gives the body's reused copy back, once the response is finished (sendBody). */
  release?: () => void;
  /**
   * False for a 304: without a Content-Security-Policy, so the browser's copy keeps the policy whose
   * nonce its scripts carry (a new one would name a nonce the copy does not have).
   */
  withPolicy: boolean;
}

/**
 * The answer for a stored page (the Express handler and the door, server/cache-door.ts, send the same):
 * its headers, the cache state, its validator, and the body with `nonce`, the one this answer's policy
 * names; 304 when the browser holds this version.
 */
/**
 * Fills a stored page's ad slots (issue 43, decision 0061) for one answer: each slot's fragment by its
 * marker's name, or null when nothing fills any (the page goes out as stored). Counts the impressions
 * when the request is a counted load.
 */
export interface SlotFiller {
  fill(slots: readonly string[], req: http.IncomingMessage): SlotFills | null;
  /**
   * For a page whose slots went out empty: how many seconds a shared cache may keep it, when an ad
   * could fill one of them before the page's own lifetime ends (a campaign starting when the day
   * turns); null: its own lifetime stands.
   */
  emptyFor(slots: readonly string[]): number | null;
}

export function cachedAnswer(req: http.IncomingMessage, page: CachedPage, state: "HIT" | "MISS" | "STALE", nonce: string, gated?: GateDecision, fillSlots?: SlotFiller): CachedAnswer {
  // Ad slots filled for this answer (issue 43): such an answer is this reader's own, never kept by a
  // shared cache, and has no validator (a browser revalidating would keep showing its old ad, uncounted).
  const slots = fillSlots && page.status === 200 && page.nonced && page.nonced.slots.length > 0 ? page.nonced.slots : null;
  const fills = slots && req.method === "GET" ? fillSlots!.fill(slots, req) : null;
  if (fills) return filledAnswer(req, page, state, nonce, gated, fills);
  // Sec-Purpose: a prefetched copy (not counted) is never the one a reader's navigation then uses.
  // A stale copy (a render replacing it is under way) is kept by shared caches a few seconds only;
  // one whose empty slots a campaign fills when the day turns, until then at most.
  const emptyFor = slots && !gated?.personal && state !== "STALE" ? fillSlots!.emptyFor(slots) : null;
  const stored = gated?.personal
    ? personalHeadersOf(page)
    : state === "STALE"
      ? shortenedHeadersOf(page, STALE_SHARED_SECONDS)
      : emptyFor !== null
        ? shortenedHeadersOf(page, emptyFor)
        : page.flatHeaders;
  const headers = [...stored, "X-Cache", state, "Vary", "Accept-Encoding, Cookie, Sec-Purpose", "ETag", page.etag];
  for (const cookie of gated?.setCookies ?? []) headers.push("Set-Cookie", cookie);
  if (page.status === 200 && matchesEtag(req.headers["if-none-match"], page.etag)) return { status: 304, headers, body: null, withPolicy: false };
  // A page with scripts carries this answer's nonce, the one its Content-Security-Policy names.
  const { body, encoding, release } = cachedBody(page, pickEncoding(req.headers["accept-encoding"]), nonce);
  if (encoding) headers.push("Content-Encoding", encoding);
  headers.push("Content-Length", String(body.length));
  if (req.method === "HEAD") {
    release();
    return { status: page.status, headers, body: null, withPolicy: true };
  }
  return { status: page.status, headers, body, release, withPolicy: true };
}

/** A stored page with its slots filled: the reader's own copy (no shared cache, no validator). */
function filledAnswer(req: http.IncomingMessage, page: CachedPage, state: "HIT" | "MISS" | "STALE", nonce: string, gated: GateDecision | undefined, fills: SlotFills): CachedAnswer {
  const headers = [...personalHeadersOf(page), "X-Cache", state, "Vary", "Accept-Encoding, Cookie, Sec-Purpose"];
  for (const cookie of gated?.setCookies ?? []) headers.push("Set-Cookie", cookie);
  const accepted = pickEncoding(req.headers["accept-encoding"]);
  const { body, release } = page.nonced!.answer(nonce, accepted !== null, fills);
  if (accepted) headers.push("Content-Encoding", "gzip");
  headers.push("Content-Length", String(body.length));
  return { status: page.status, headers, body, release, withPolicy: true };
}

/** Each stored page's headers for a reader's own answer, worked out once. */
const personalHeaders = new WeakMap<CachedPage, string[]>();

/** Headers a shared cache reads (its lifetime, its purge tags): none goes with a reader's own copy of a page. */
const SHARED_HEADERS = new Set(["cache-control", "cdn-cache-control", "surrogate-control", "cache-tag", "surrogate-key"]);

/**
 * A gated page's headers for one reader's answer (issue 40: a member's copy, a metered read): no shared
 * cache may keep it, whatever the copy's own lifetime says.
 */
function personalHeadersOf(page: CachedPage): string[] {
  let out = personalHeaders.get(page);
  if (out) return out;
  out = [];
  personalHeaders.set(page, out);
  for (const [name, value] of page.headers) if (!SHARED_HEADERS.has(name.toLowerCase())) out.push(name, value);
  out.push("Cache-Control", "private, no-store");
  return out;
}

/** The headers that say how long a shared cache keeps an answer (those of SharedCacheHeaders), in lower case. */
const SHARED_LIFETIME_HEADERS = new Set(Object.keys(briefSharedCache(0)).map((name) => name.toLowerCase()));

/**
 * A stored page's headers with its shared-cache lifetime cut to `seconds` when its own is longer: a
 * stale copy's (decision 0045: a CDN fetching it right after a purge must not keep the old page for a
 * day), or one whose empty ad slots a campaign fills when the day turns. A route's own Cache-Control
 * (robots.txt's) is left as it is.
 */
function shortenedHeadersOf(page: CachedPage, seconds: number): string[] {
  const cacheControl = page.headers.find(([name]) => name.toLowerCase() === "cache-control")?.[1];
  if (!isSharedCacheControl(cacheControl)) return page.flatHeaders;
  const own = /s-maxage=(\d+)/.exec(cacheControl!)?.[1];
  if (own !== undefined && Number(own) <= seconds) return page.flatHeaders;
  const out: string[] = [];
  for (const [name, value] of page.headers) if (!SHARED_LIFETIME_HEADERS.has(name.toLowerCase())) out.push(name, value);
  for (const [name, value] of Object.entries(briefSharedCache(seconds))) out.push(name, value);
  return out;
}

/**
 * Ends a cached answer with its body. A reused copy goes back once the response is finished (handed to
 * the operating system); an answer that never finishes (the reader went away) just drops its copy.
 */
export function sendBody(res: http.ServerResponse, answer: CachedAnswer) {
  if (!answer.body) return void res.end();
  if (answer.release) res.end(answer.body, answer.release);
  else res.end(answer.body);
}

/** Sends a stored page through Express, whose layers have set the security headers already. */
function sendCached(req: http.IncomingMessage, res: http.ServerResponse, page: CachedPage, state: "HIT" | "MISS" | "STALE", nonce: string, gated?: GateDecision, fillSlots?: SlotFiller) {
  // Answered meanwhile (503: the database went down while the page was rendering).
  if (res.headersSent) return;
  const answer = cachedAnswer(req, page, state, nonce, gated, fillSlots);
  if (!answer.withPolicy) res.removeHeader("Content-Security-Policy");
  res.statusCode = answer.status;
  const cookies: string[] = [];
  for (let i = 0; i < answer.headers.length; i += 2) {
    if (answer.headers[i] === "Set-Cookie") cookies.push(answer.headers[i + 1]!);
    else res.setHeader(answer.headers[i]!, answer.headers[i + 1]!);
  }
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  sendBody(res, answer);
}

/** Counts the load when it is answered 200, or 304 (a reader's browser shows its copy: a load all the same). */
function countWhenAnswered(req: http.IncomingMessage, res: http.ServerResponse, articleSlug: string | null, onPageView: PageViewCounter) {
  res.once("finish", () => {
    if (res.statusCode === 200 || res.statusCode === 304) onPageView(pageViewPathOf(req.url ?? "/"), articleSlug, req);
  });
}

/**
 * Counts a load of `path`, and of the article it shows (its slug, found with the path's class), if any;
 * `req` is the load's request, for what the audience records of it (its client, agent, referrer, query).
 */
export type PageViewCounter = (path: string, articleSlug: string | null, req: http.IncomingMessage) => void;

/** Whether a rendered answer may be kept for everyone: a plain public 200 of a GET. */
function isStorable(method: string, response: Response): boolean {
  // Only a GET stores: React Router answers HEAD without a body, which must never become the page.
  return (
    method === "GET" &&
    response.status === 200 &&
    !response.headers.has("Set-Cookie") &&
    !/no-store|private/.test(response.headers.get("Cache-Control") ?? "")
  );
}

/**
 * Request headers a background render for the cache passes on: never a cookie, a validator or a
 * forwarded header of one reader's (pages take their origin from PUBLIC_URL, not from the request).
 */
const RENDER_HEADERS = ["accept-language", "user-agent"];

/** How many of a write's pages are rendered again before the write is answered (its own article's: HTML and data). */
const RENDERED_BEFORE_ANSWER = 8;

/**
 * Serves the React Router app. Anonymous GETs of reader pages go through the page cache: a fresh hit
 * is answered from memory (most never get here: server/cache-door.ts answers them first), a stale one
 * too while one render in the background replaces it, and a miss is rendered once (readers asking
 * meanwhile wait for that render), stored when it is a plain public 200, and sent.
 */
export function createAppHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  cache: PageCache | null;
  /**
   * What loaders get, for an answer whose policy names `nonce`; `shown` collects what the page shows (its
   * cache tags); `page`, for a render the cache keeps: the variant it is for and where a gated story is noted.
   */
  loadContext: (nonce: string, shown: Set<string>, page?: { variant: Variant; gate: { note: GateNote | null } }) => AppLoadContext;
  /** Readers' access (issue 40): which copy of a gated page each reader gets. Absent: every reader gets the anonymous copy. */
  readers?: { access: ReaderAccess; db: Db; memberAuth: MemberAuth };
  /** Whether the database answers (a page the cache does not have is answered 503 while it does not). */
  databaseUp?: () => boolean;
  /** Counts a page load (the view recorder): called once for each counted load answered 200. */
  onPageView?: PageViewCounter;
  /** Fills the ad slots of each answer of a stored page (issue 43); absent: slots go out empty. */
  fillSlots?: SlotFiller;
  /** Where a failed background render is told. */
  onBackgroundError?: (error: unknown, key: string) => void;
  /** The shared-cache lifetime of a public page stored now (app/lib/cache-control.ts; default: the short one). */
  sharedCache?: () => SharedCacheHeaders;
  /**
   * Whether this process has heard every change notice committed so far (ChangeFeed.caughtUp): an
   * editorial write waits for it before answering. Absent or false: every page is dropped instead.
   */
  changesHeard?: () => Promise<boolean>;
}): express.RequestHandler {
  const handle = createReactRouterHandler(options.build, options.mode);
  const cache = options.cache;
  // Pages being rendered for the cache right now, by key: never two renders of one page at once.
  const rendering = new Map<string, Promise<void>>();

  /**
   * Renders a request, answering with the tags of what its loaders said the page shows (noteStories,
   * noteShown) and the gated story it shows. `variant`: a render the cache keeps, for that class of reader.
   */
  async function render(request: Request, nonce: string, variant?: Variant) {
    const shown = new Set<string>();
    const gate = { note: null as GateNote | null };
    const response = await handle(request, options.loadContext(nonce, shown, variant ? { variant, gate } : undefined));
    return { response, shown: [...shown], gate: gate.note };
  }

  /**
   * Stores a storable answer under `key` (reading its body), tagged by its route and by what it
   * `shown`; answers the stored page, or null when it was too big to keep.
   */
  async function store(key: string, match: PathMatch, response: Response, nonce: string, shown: readonly string[], gate: GateNote | null) {
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.headers.has("Cache-Control")) {
      for (const [name, value] of Object.entries(options.sharedCache?.() ?? SHORT_SHARED_CACHE)) response.headers.set(name, value);
    }
    const tags = pageTagsOf(match, shown);
    // What a CDN purges this page by (the same tags clear it here): Cache-Tag and Surrogate-Key.
    response.headers.set("Cache-Tag", tags.join(","));
    response.headers.set("Surrogate-Key", tags.join(" "));
    const headers = [...response.headers.entries()].filter(([name]) => !["content-length", "content-encoding", "transfer-encoding"].includes(name));
    cache!.set(key, response.status, headers, body, nonce, tags, gate);
    return { page: cache!.get(key), headers, body };
  }

  /**
   * Renders `key` again for the cache, in the background of whoever asked (stale-while-revalidate):
   * once at a time, with the headers a page may depend on from `from` and none of its reader's own.
   * A page that is no longer a public 200 (unpublished: 404, moved: a redirect) is forgotten; after a
   * failure (the database) the stale copy stays and the next reader tries again.
   */
  function renderAgain(key: string, from: express.Request): Promise<void> {
    const pending = rendering.get(key);
    if (pending) return pending;
    if (options.databaseUp && !options.databaseUp()) return Promise.resolve();
    const headers = new Headers();
    for (const name of RENDER_HEADERS) {
      const value = from.headers[name];
      if (typeof value === "string") headers.set(name, value);
    }
    // The address only routes the render (links and canonical URLs come from PUBLIC_URL). A gated
    // page's other copies are kept under the page's key and their variant (page-cache.ts, variantKey).
    const address = splitVariantKey(key);
    const url = new URL(address.url, "http://localhost");
    const match = classifyPath(url.pathname);
    const nonce = newCspNonce();
    const work = render(new Request(url, { headers }), nonce, address.variant)
      .then(async ({ response, shown, gate }) => {
        if (isStorable("GET", response)) return void (await store(key, match, response, nonce, shown, gate));
        await response.body?.cancel();
        if (response.status < 500) cache!.forget(key);
      })
      .catch((error: unknown) => options.onBackgroundError?.(error, key))
      .finally(() => rendering.delete(key));
    rendering.set(key, work);
    return work;
  }

  /**
   * Answers a gated page (issue 40): the copy the reader's signed cookies name (server/reader-access.ts),
   * settling with the database only what a cookie cannot (a pass to renew, a free member's metered
   * read). Each copy is rendered once for its class and kept like the page; stale, it is served while
   * one render replaces it. Without a cache, the copy is rendered for this answer.
   */
  async function serveGated(req: express.Request, res: express.Response, key: string, base: CachedPage | null, gate: GateNote, readers: NonNullable<typeof options.readers>) {
    const cookieHeader = req.headers.cookie;
    let decision = readers.access.decide(gate, cookieHeader);
    if ("pending" in decision) {
      decision = await readers.access.resolve(gate, decision, { db: readers.db, memberAuth: readers.memberAuth, headers: toFetchRequest(req, res).headers, cookieHeader });
    }
    const vkey = variantKey(key, decision.variant);
    if (cache) {
      let page = vkey === key ? base : cache.get(vkey);
      if (page?.stale) void renderAgain(vkey, req);
      if (!page) {
        await renderAgain(vkey, req);
        page = cache.get(vkey);
      }
      if (page) return sendCached(req, res, page, page.stale ? "STALE" : "HIT", cspNonceOf(res), decision, options.fillSlots);
    }
    // Not kept (no cache, too big, or no longer a public 200): rendered for this answer alone.
    const { response } = await render(readerFreeRequest(toFetchRequest(req, res)), cspNonceOf(res), decision.variant);
    for (const cookie of decision.setCookies) response.headers.append("Set-Cookie", cookie);
    if (decision.personal) response.headers.set("Cache-Control", "private, no-store");
    await sendFetchResponse(res, response);
  }

  return async (req, res, next) => {
    let rendered: (() => void) | null = null;
    try {
      const match = pathClassOf(req);
      const { rules } = match;
      if (options.onPageView && isCountedLoad(req, rules)) countWhenAnswered(req, res, articleSlugOf(match), options.onPageView);
      if (req.method !== "GET" && req.method !== "HEAD") {
        const limit = bodyLimitOf(rules);
        if (limit !== null && Number(req.headers["content-length"]) > limit) return refuseTooLarge(res);
        if (hasBody(req) && isUnacceptableBody(rules, req.headers["content-type"])) {
          return res.status(415).set({ "Cache-Control": "no-store", "Content-Type": "application/json" }).end(NOT_A_FORM);
        }
      }
      const cacheable = cache !== null && isCacheableRequest(req);
      const key = req.originalUrl;
      const readers = options.readers;
      if (cacheable) {
        const hit = cache.get(key);
        if (hit?.stale) void renderAgain(key, req);
        if (hit?.gate && readers) return await serveGated(req, res, key, hit, hit.gate, readers);
        if (hit) return sendCached(req, res, hit, hit.stale ? "STALE" : "HIT", cspNonceOf(res), undefined, options.fillSlots);
        const pending = rendering.get(key);
        if (pending) {
          await pending;
          const stored = cache.get(key);
          if (stored?.gate && readers) return await serveGated(req, res, key, stored, stored.gate, readers);
          if (stored) return sendCached(req, res, stored, "HIT", cspNonceOf(res), undefined, options.fillSlots);
          // Not stored (not a plain public 200): this request renders its own.
        } else if (req.method === "GET") {
          rendering.set(key, new Promise<void>((resolve) => (rendered = resolve)));
        }
      }
      if (options.databaseUp && !options.databaseUp()) return answerUnavailable(req, res);
      // A page for everyone (the cache's, or any reader page without a staff session): rendered as the
      // anonymous copy, with none of the reader's own cookies; a gated one then goes to serveGated.
      const anyone = cacheable || (readers !== undefined && isReaderRead(req));
      const request = anyone ? readerFreeRequest(toFetchRequest(req, res)) : toFetchRequest(req, res);
      const { response, shown, gate } = await render(request, cspNonceOf(res), anyone ? "anonymous" : undefined);
      const changed = pagesChangedBy(req.method, match, response.status);
      if (changed && cache) {
        if (changed.includes(SITE_TAG)) {
          // An editorial write: the change notices it caused drop what it touched (decision 0028).
          // Waiting until this process has heard them makes the writer's next page show the write.
          if (!(await options.changesHeard?.())) cache.clearTags([SITE_TAG]);
        } else {
          // A comment: readers keep getting its article's page while it is rendered again, and the
          // writer's next look (the revalidation after posting, the page a no-JavaScript form
          // redirects to) shows the comment: those pages are rendered again before the answer.
          const stale = cache.markStale(changed);
          if (stale.length <= RENDERED_BEFORE_ANSWER) await Promise.all(stale.map((stalePage) => renderAgain(stalePage, req)));
        }
      }
      if (cacheable && isStorable(req.method, response)) {
        const { page, headers, body } = await store(key, match, response, cspNonceOf(res), shown, gate);
        if (page?.gate && readers) return await serveGated(req, res, key, page, page.gate, readers);
        if (page) return sendCached(req, res, page, "MISS", cspNonceOf(res), undefined, options.fillSlots);
        if (res.headersSent) return;
        res.status(response.status);
        for (const [name, value] of headers) res.append(name, value);
        return res.end(body);
      }
      // No cache (development): a gated page still gets the reader's copy.
      if (!cacheable && anyone && gate && readers && response.status === 200) {
        await response.body?.cancel();
        return await serveGated(req, res, key, null, gate, readers);
      }
      // A public page that does not exist (yet): kept by shared caches 30 s, never their default (Fastly
      // keeps an answer without Cache-Control an hour), and tagged like the page it would be, and with
      // the redirects, so the change that creates it (a story published, a redirect added) purges it.
      if (cacheable && response.status === 404 && !response.headers.has("Cache-Control")) {
        const tags = [...pageTagsOf(match), REDIRECTS_TAG];
        for (const [name, value] of Object.entries(SHORT_SHARED_CACHE)) response.headers.set(name, value);
        response.headers.set("Cache-Tag", tags.join(","));
        response.headers.set("Surrogate-Key", tags.join(" "));
      }
      // A signed-in reader's answer gets its Cache-Control from server/middleware/personal-answers.ts.
      await sendFetchResponse(res, response);
    } catch (error) {
      // Already answered (503 while the database was down): the late failure has nobody to go to.
      if (res.writableEnded) return;
      next(error);
    } finally {
      // Stored or not, those waiting go on (from the cache, or with a render of their own).
      if (rendered) {
        rendering.delete(req.originalUrl);
        (rendered as () => void)();
      }
    }
  };
}
