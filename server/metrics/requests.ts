import type http from "node:http";
import { performance } from "node:perf_hooks";
import { classifyPath, PATH_CLASSES, type PathClass, type PathPattern } from "../../app/lib/path-classes";
import type { Logger } from "../../app/lib/logger.server";
import { httpRequestDuration, pageCacheAnswers } from "./registry";
import type { HistogramSeries } from "./request-histogram";

// One place sees every answered request (issue 32): the node:http handler of server/index.ts calls
// start() first, before the doors (redirects, live streams, the page cache, /metrics) and Express, and
// the response's "close" counts it in frontpage_http_request_duration_seconds and writes its access-log
// line. One listener shared by every response (`this` is the response), the request's facts kept on
// the response under symbols, histogram children made once per class, method and status: nothing is
// allocated for a request's metrics but the listener's entry.

/** What the page cache gave a request: the response's X-Cache, or none (not a page the cache keeps, a signed-in reader). */
export type CacheResult = "hit" | "stale" | "miss" | "none";

/** The class label of /metrics itself on the public port (its path class, also when the door answers). */
export const METRICS_CLASS = "metrics" satisfies PathClass;

const STARTED = Symbol("frontpage.requestStarted");
const URL_AT_START = Symbol("frontpage.requestUrl");
const BYTES_AT_START = Symbol("frontpage.bytesAtStart");
const CACHE = Symbol("frontpage.cacheResult");
const CLASS = Symbol("frontpage.requestClass");

interface ObservedResponse extends http.ServerResponse {
  [STARTED]?: number;
  [URL_AT_START]?: string;
  [BYTES_AT_START]?: number;
  [CACHE]?: CacheResult;
  [CLASS]?: string;
}

/** Methods that are their own label; any other (PROPFIND, …: answered 405) is "other". */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const methodIndex = (method: string | undefined) => {
  const index = METHODS.indexOf(method as (typeof METHODS)[number]);
  return index === -1 ? METHODS.length : index;
};
const methodLabel = (index: number) => METHODS[index] ?? "other";

/** The class and route pattern of a request's URL, remembered for the URLs seen lately (the cached pages' are the same few). */
const classOfUrl = new Map<string, { pathClass: string; pattern: PathPattern; cacheable: boolean }>();
function classify(url: string) {
  let known = classOfUrl.get(url);
  if (!known) {
    if (classOfUrl.size >= 2000) classOfUrl.clear();
    const match = classifyPath(url);
    known = { pathClass: match.pathClass, pattern: match.pattern, cacheable: match.rules.cacheable };
    classOfUrl.set(url, known);
  }
  return known;
}

/** The path of a URL without its query (and at most 200 characters): what a line of a public page shows. */
function pathOf(url: string): string {
  const query = url.indexOf("?");
  return (query === -1 ? url : url.slice(0, query)).slice(0, 200);
}

/** The status a response is counted under: what the client was sent, or 499 (nginx's "client closed request") when it went before any. */
function statusOf(res: http.ServerResponse): number {
  return res.headersSent ? res.statusCode : 499;
}

function cacheResultOf(res: ObservedResponse): CacheResult {
  const marked = res[CACHE];
  if (marked) return marked;
  const header = res.getHeader("x-cache");
  if (header === "HIT") return "hit";
  if (header === "STALE") return "stale";
  if (header === "MISS") return "miss";
  return "none";
}

/** The fields of one access-log line (decision 0047): never a query string, an address only when asked for. */
export interface AccessLogLine {
  method: string;
  /** The path class (app/lib/path-classes.ts): the metrics door names its own, "metrics". */
  class: string;
  /** The route pattern that matched ("article/:slug"). */
  route?: string;
  /** The path, without its query, of a page the cache may keep (a public page): other paths may carry a token. */
  path?: string;
  status: number;
  ms: number;
  cache: CacheResult;
  /** Bytes written to the connection for this answer, headers included. */
  bytes?: number;
  /** The client went away before the answer was finished. */
  aborted?: true;
  /** Only with LOG_CLIENT_ADDRESSES=1: the address Express gives (trust proxy honoured). */
  address?: string;
}

export interface RequestObserver {
  /** Call first for every request (again is harmless): its time starts now. */
  start(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** The page-cache door answered it (its headers went in one writeHead, out of getHeader's reach). */
  cacheHit(res: http.ServerResponse): void;
  /** Counts it under `label` instead of its path's class (the public /metrics). */
  classAs(res: http.ServerResponse, label: string): void;
}

export interface RequestObserverOptions {
  /** Count requests in frontpage_http_request_duration_seconds and frontpage_page_cache_requests_total. */
  metrics: boolean;
  /** Write one access-log line per request here (ACCESS_LOG=1), at info whatever LOG_LEVEL says. */
  accessLog: Logger | null;
  /** With LOG_CLIENT_ADDRESSES=1: the client address a line shows. */
  addressOf?: (req: http.IncomingMessage) => string;
}

/** The observer of every request, or null when neither metrics nor the access log is on (nothing to do, nothing spent). */
export function requestObserver({ metrics, accessLog, addressOf }: RequestObserverOptions): RequestObserver | null {
  if (!metrics && !accessLog) return null;
  const log = accessLog?.child({}, { level: "info" }) ?? null;

  type Child = HistogramSeries;
  const children = new Map<string, Map<number, Child>>();
  const durationOf = (pathClass: string, method: number, status: number): Child => {
    let byClass = children.get(pathClass);
    if (!byClass) children.set(pathClass, (byClass = new Map()));
    const key = method * 1000 + status;
    let child = byClass.get(key);
    if (!child) byClass.set(key, (child = httpRequestDuration.labels(pathClass, methodLabel(method), String(status))));
    return child;
  };

  function finished(this: ObservedResponse) {
    const started = this[STARTED];
    if (started === undefined) return;
    const ms = performance.now() - started;
    const url = this[URL_AT_START] ?? "/";
    const known = this[CLASS] === undefined ? classify(url) : null;
    const pathClass = known ? known.pathClass : this[CLASS]!;
    const status = statusOf(this);
    const method = this.req?.method ?? "GET";
    const cache = cacheResultOf(this);
    if (metrics) {
      durationOf(pathClass, methodIndex(method), status).observe(ms / 1000);
      if (cache !== "none") pageCacheAnswers[cache]++;
    }
    if (log) {
      const line: AccessLogLine = { method: methodLabel(methodIndex(method)), class: pathClass, status, ms: Math.round(ms * 10) / 10, cache };
      if (known) line.route = known.pattern;
      if (known?.cacheable) line.path = pathOf(url);
      const socket = this.req?.socket;
      if (socket && this[BYTES_AT_START] !== undefined) line.bytes = socket.bytesWritten - this[BYTES_AT_START];
      if (!this.writableFinished) line.aborted = true;
      if (addressOf && this.req) line.address = addressOf(this.req);
      log.info(line, "request");
    }
  }

  return {
    start(req, res: ObservedResponse) {
      if (res[STARTED] !== undefined) return;
      res[STARTED] = performance.now();
      res[URL_AT_START] = req.url ?? "/";
      // Bytes are the connection's: what it had written before this answer is taken off at the end.
      if (log) res[BYTES_AT_START] = req.socket.bytesWritten;
      res.on("close", finished);
    },
    cacheHit(res: ObservedResponse) {
      res[CACHE] = "hit";
    },
    classAs(res: ObservedResponse, label) {
      res[CLASS] = label;
    },
  };
}

/** The class labels a request can be counted under: the path classes (/metrics's among them). */
export const REQUEST_CLASSES: readonly string[] = Object.keys(PATH_CLASSES);
