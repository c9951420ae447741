import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../../app/lib/logger.server";
import { closeHttpServer, listen, urlOf } from "../http-server";
import type { Lifecycle } from "../lifecycle";
import { clusterScraper, ownText, workerMetrics } from "./cluster";
import { METRICS_CLASS, type RequestObserver } from "./requests";
import { registry, turnMetricsOn, type ProcessRole } from "./registry";

// Where /metrics is answered (decision 0047): on METRICS_PORT, a listener of its own in the primary
// (or the single process), bound to METRICS_HOST (127.0.0.1 unless told); and on the public port
// when METRICS_TOKEN is set, to `Authorization: Bearer <token>` only. Neither set: metrics are off.

export interface MetricsSettings {
  METRICS_PORT?: number;
  METRICS_HOST: string;
  METRICS_TOKEN?: string;
}

export interface Metrics {
  /** The whole machine's metrics in Prometheus's text format. */
  scrape(): Promise<string>;
}

/** Prometheus's text format (0.0.4). */
export const METRICS_CONTENT_TYPE = registry.contentType;

/**
 * Turns metrics on in this process when METRICS_PORT or METRICS_TOKEN is set (else null: nothing is
 * collected), with the scrape its role gives: a worker asks the primary, the primary gathers the
 * workers', a single process reads its own. Before the database pools are made (they are watched).
 */
export function setUpMetrics(env: MetricsSettings, role: ProcessRole, log: Logger): Metrics | null {
  if (env.METRICS_PORT === undefined && !env.METRICS_TOKEN) return null;
  turnMetricsOn(role);
  if (role === "worker") return workerMetrics();
  if (role === "primary") return clusterScraper(log);
  return { scrape: ownText };
}

async function answer(res: http.ServerResponse, scrape: () => Promise<string>, head: boolean, log: Logger) {
  try {
    const text = await scrape();
    res.writeHead(200, { "Content-Type": METRICS_CONTENT_TYPE, "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(text) });
    res.end(head ? undefined : text);
  } catch (error) {
    log.warn({ err: error }, "metrics: could not answer a scrape");
    if (!res.headersSent) res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    res.end("metrics unavailable\n");
  }
}

/** Whether a request's target is /metrics (a query is allowed and ignored). */
function isMetricsPath(url: string | undefined): boolean {
  return url === "/metrics" || (url?.startsWith("/metrics?") ?? false);
}

/** A fixed-length digest of each side: compared in constant time whatever their lengths. */
const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether an Authorization header carries `Bearer <token>` (the scheme case-insensitive), compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "");
  const given = digest(match?.[1] ?? "");
  const ok = timingSafeEqual(given, digest(token));
  return ok && match !== null;
}

/**
 * The public port's /metrics, before everything else (server/index.ts): GET or HEAD with the right
 * bearer token gets the whole machine's metrics; without it, 401. Any other path, or another method,
 * goes on (answers false). Its requests are counted under the class "metrics".
 */
export function metricsDoor(options: { token: string; scrape: () => Promise<string>; log: Logger; observer?: RequestObserver | null }): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  return (req, res) => {
    if (!isMetricsPath(req.url) || (req.method !== "GET" && req.method !== "HEAD")) return false;
    options.observer?.classAs(res, METRICS_CLASS);
    if (!bearerMatches(req.headers.authorization, options.token)) {
      res.writeHead(401, { "WWW-Authenticate": 'Bearer realm="metrics"', "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
      res.end("a bearer token is required\n");
      return true;
    }
    void answer(res, options.scrape, req.method === "HEAD", options.log);
    return true;
  };
}

/**
 * The METRICS_PORT listener: GET or HEAD /metrics answers the scrape, anything else 404. Stopped by
 * the lifecycle. A port that cannot be taken fails the start, naming METRICS_PORT.
 */
export async function serveMetrics(options: { port: number; host: string; scrape: () => Promise<string>; log: Logger; lifecycle: Lifecycle }): Promise<AddressInfo> {
  const { port, host, log } = options;
  const server = http.createServer((req, res) => {
    if (isMetricsPath(req.url) && (req.method === "GET" || req.method === "HEAD")) return void answer(res, options.scrape, req.method === "HEAD", log);
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
    res.end("not found: metrics are at /metrics\n");
  });
  const address = await listen(server, port, host, { port: "METRICS_PORT", host: "METRICS_HOST" });
  server.on("error", (error) => log.error({ err: error }, "metrics server error"));
  options.lifecycle.onShutdown("metrics server", () => closeHttpServer(server, { graceMs: 2000, log, endStreams: () => {} }));
  log.info(`metrics: serving ${urlOf(address)}/metrics`);
  return address;
}
