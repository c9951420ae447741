import "../app/app-context.server";
import cluster from "node:cluster";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import express from "express";
import { getSessionUser } from "../app/domain/accounts/guard.server";
import { requestMayRead, sessionRequestOf } from "../app/domain/members/request-reader.server";
import { loadEnv, type Env } from "../app/lib/env.server";
import { createLogger, logConsoleOutput, type Logger } from "../app/lib/logger.server";
import { mountAppBuild, preloadAppBuild } from "./app-build";
import { cacheDoor } from "./cache-door";
import { startReaderAccess } from "./reader-access";
import { cdnStatusOf, sharedCachePolicy } from "./cdn";
import { followCdnChecks } from "./cdn/check";
import { liveDoor } from "./live-door";
import { redirectDoor } from "./redirect-door";
import { closeHttpServer, listen, readyMessage } from "./http-server";
import { createLifecycle, SHUTDOWN_GRACE_MS } from "./lifecycle";
import { mediaRouter } from "./media-route";
import { adminGate } from "./middleware/admin-gate";
import { clientAddress, forwardedClientAddress, type TrustProxy } from "./middleware/client-address";
import { allowedMethods } from "./middleware/allowed-methods";
import { databaseGate } from "./middleware/database-gate";
import { errorHandler } from "./middleware/error-handler";
import { healthCheck } from "./middleware/health";
import { personalAnswers } from "./middleware/personal-answers";
import { sameOriginStateChanges } from "./middleware/same-origin";
import { cachedFlag, securityHeaders, securityHeaderWriter } from "./middleware/security-headers";
import { publicFilePaths } from "./middleware/static-assets";
import { audienceCounter } from "./audience-counter";
import { answerExpectContinue, createAppHandler, openEventStreams, type PageViewCounter } from "./request-handler";
import { ROOT } from "./root";
import { databaseUrlFromPrimary, forkWorkers, restoreCpuPriority, yieldCpuToReaders } from "./cluster";
import { demoSeederDatabase, runDemoSeeder } from "./demo-seeder";
import { startRequestServices, startSiteServices, type SharedServices } from "./services";
import { metricsDoor, serveMetrics, setUpMetrics, type Metrics } from "./metrics/endpoint";
import { observeCdnPurge } from "./metrics/registry";
import { requestObserver } from "./metrics/requests";
import { watchPageCache } from "./metrics/sources";
import { stripeFormOrigins } from "../app/domain/members/stripe.server";
import { adSlotFiller } from "./ad-filler";

// The Node entry only wires: what each layer does, and which paths it applies to, lives in its own
// module (server/middleware/*, app/lib/path-classes.ts); the order below is the order a request meets them.

const lifecycle = createLifecycle();
lifecycle.handleProcessEvents();

lifecycle.start(async () => {
  const env = loadEnv();
  const log = createLogger(env.LOG_LEVEL);
  // Every line this process prints is one JSON object, a library's console output included.
  logConsoleOutput(log);
  lifecycle.useLogger(log);
  // Started by the primary to make a new database's demo content, and gone when that is done.
  const seederDatabase = demoSeederDatabase();
  if (seederDatabase) return runDemoSeeder({ env, log, lifecycle, databaseUrl: seederDatabase });
  // A worker of a cluster (decision 0027): the primary owns the database and the jobs and says where it is.
  if (cluster.isWorker) {
    // A worker forked again after a crash inherits the primary's lowered priority: back to normal where allowed.
    restoreCpuPriority();
    return serveRequests({ env, log, databaseUrl: databaseUrlFromPrimary(lifecycle.stopping), metrics: setUpMetrics(env, "worker", log) });
  }
  const workers = env.NODE_ENV === "development" ? 1 : env.workers;
  // Forked first: they load while PostgreSQL starts.
  const workerPool = workers > 1 ? forkWorkers({ count: workers, log, lifecycle }) : null;
  // /metrics (decision 0047): the primary gathers the workers' and answers METRICS_PORT for the machine.
  const metrics = setUpMetrics(env, workers > 1 ? "primary" : "single", log);
  if (metrics && env.METRICS_PORT !== undefined) await serveMetrics({ port: env.METRICS_PORT, host: env.METRICS_HOST, scrape: metrics.scrape, log, lifecycle });
  // The CDN purges (decision 0045) are counted for /metrics (a no-op when metrics are off).
  const site = await startSiteServices({ env, log, lifecycle, entry: fileURLToPath(import.meta.url), onCdnPurge: observeCdnPurge });
  lifecycle.checkpoint();
  // The primary now runs only background work (the job queue: newsletters, imports, e-mail; the
  // scheduler); readers' pages are the workers'. Under load the pages come first (decision 0043).
  // PostgreSQL and the workers were started before this and keep their priority.
  if (workerPool) yieldCpuToReaders(log);
  if (!workerPool) return serveRequests({ env, log, databaseUrl: Promise.resolve(site.databaseUrl), shared: site.shared, metrics });
  const address = await workerPool.listen(site.databaseUrl);
  log.info(`${readyMessage(address, env)}, ${workers} worker processes`);
});

/** Everything that answers requests: the request services, the Express app and its layers, the door, the listening server. */
async function serveRequests({ env, log, databaseUrl, shared, metrics }: { env: Env; log: Logger; databaseUrl: Promise<string>; shared?: SharedServices; metrics: Metrics | null }) {
  const dev = env.NODE_ENV === "development";
  // The app (the React Router build) loads while a worker waits to hear where the database is.
  preloadAppBuild(dev);
  const { services, cache, health, redirects, ads } = await startRequestServices({ env, log, lifecycle, databaseUrl: await databaseUrl, shared });
  // A day in shared caches once the CDN's purges are known to work, 30 s until then (decision 0045),
  // asked again while the purge target does not answer (issue 39).
  const cdn = cdnStatusOf(env);
  followCdnChecks({ status: cdn, db: services.db, changes: services.changes, log });
  const sharedCache = sharedCachePolicy(cdn);
  const publicOrigin = new URL(env.publicUrl).origin;

  const app = express();
  // Whether ads are on (AD_CLIENT_ID, or the settings' ad client id) decides which frames pages may hold.
  const adsEnabled = env.AD_CLIENT_ID
    ? () => true
    : cachedFlag(async () => Boolean((await services.siteFrame()).settings.adClientId), {
        initial: false,
        ttlMs: 30_000,
        onError: (err) => log.warn({ err }, "could not read whether ads are configured"),
      });
  // Media served from a bucket's public address is shown from there (the media route redirects to it).
  const mediaOrigins = env.S3_PUBLIC_URL ? [new URL(env.S3_PUBLIC_URL).origin] : [];
  // /subscribe's form post is answered with a redirect to Stripe Checkout (issue 40).
  const formOrigins = stripeFormOrigins(env);
  const writeSecurityHeaders = securityHeaderWriter({ closing: () => lifecycle.shuttingDown, adsEnabled, publicUrl: env.publicUrl, mediaOrigins, formOrigins });
  // One call site counts both: the page view (the dashboard's cards) and, unless AUDIENCE_RECORDING=off,
  // the audience event (issue 42), with the client address Express would derive (the "trust proxy" setting below).
  const countAudience = env.AUDIENCE_RECORDING ? audienceCounter(services.audience, (req) => forwardedClientAddress(req, app.get("trust proxy fn") as TrustProxy)) : null;
  const onPageView: PageViewCounter = (viewed, articleSlug, req) => {
    services.views.record(viewed, undefined, articleSlug);
    countAudience?.(viewed, articleSlug, req);
  };
  // Which copy of a gated story each reader gets (issue 40, decision 0054): from signed cookies, with
  // the meters' settings and the members' access changes this process hears of.
  const readerAccess = await startReaderAccess({ secret: services.subscriberSecret, secure: env.publicUrl.startsWith("https://"), db: services.db, changes: services.changes, log });
  // Each answer of a stored page gets the campaigns chosen for its ad slots (issue 43, decision 0061).
  const fillSlots = adSlotFiller(ads.book, ads.recorder);
  // Fresh cached pages are answered where requests arrive, before Express (server/cache-door.ts).
  const door = cache ? cacheDoor({ cache, writeSecurityHeaders, onPageView, readers: readerAccess, fillSlots }) : () => false;
  // Old addresses are answered first, before the cache and routing (decision 0040).
  const redirectsFirst = redirectDoor({ table: redirects, writeSecurityHeaders, onHit: (id) => services.views.recordRedirectHit(id), sharedCache: sharedCache.current });
  // Live stories' reader streams (issue 31): held open by this process's hub, fed by its change feed.
  const liveStreams = liveDoor({
    db: services.db,
    changes: services.changes,
    writeSecurityHeaders,
    log,
    maxStreams: env.LIVE_STREAM_LIMIT,
    maxPerAddress: env.LIVE_STREAMS_PER_ADDRESS,
    // The address Express would give (the "trust proxy" setting below): counted per reader, not per proxy.
    addressOf: (req) => forwardedClientAddress(req, app.get("trust proxy fn") as TrustProxy),
    // A gated story's stream (issue 40): the reader's staff or member session, read in the database.
    mayReadWhole: (req, access) => requestMayRead(sessionRequestOf(req, env.publicUrl), services, access),
  });
  // Every request, whoever answers it, counted and logged once it is finished (server/metrics/requests.ts);
  // null when neither metrics nor ACCESS_LOG is on.
  const observer = requestObserver({
    metrics: metrics !== null,
    accessLog: env.ACCESS_LOG ? log : null,
    addressOf: env.LOG_CLIENT_ADDRESSES ? (req) => forwardedClientAddress(req, app.get("trust proxy fn") as TrustProxy) : undefined,
  });
  if (cache) watchPageCache(cache);
  // The public /metrics, to the METRICS_TOKEN bearer only; without a token it stays the 404 page.
  const metricsFirst = metrics && env.METRICS_TOKEN ? metricsDoor({ token: env.METRICS_TOKEN, scrape: metrics.scrape, log, observer }) : () => false;
  const server = http.createServer((req, res) => {
    observer?.start(req, res);
    if (metricsFirst(req, res) || redirectsFirst(req, res) || liveStreams(req, res)) return;
    if (door(req, res)) observer?.cacheHit(res);
    else app(req, res);
  });
  // A client that asks before sending a large body (Expect: 100-continue) hears 413 before it sends it.
  server.on("checkContinue", (req, res) => {
    observer?.start(req, res);
    answerExpectContinue(req, res, () => server.emit("request", req, res));
  });
  app.disable("x-powered-by");
  // Only proxies the operator names may set the client address (it keys the sign-in limits).
  app.set("trust proxy", env.TRUST_PROXY);

  app.use(securityHeaders(writeSecurityHeaders));
  app.use(clientAddress());
  app.use(personalAnswers());
  app.use(sameOriginStateChanges({ publicOrigin, log }));
  // While PostgreSQL does not answer: 503 at once (and for requests already waiting), cached pages still served.
  const publicFiles = publicFilePaths(path.join(ROOT, "build/client"));
  app.use(databaseGate({ health, exempt: (req) => req.path === "/healthz" || req.path.startsWith("/assets/") || publicFiles.has(req.path) }));
  app.use(adminGate({ publicOrigin, userOf: (request) => getSessionUser(request, services), log }));
  // TRACE, PUT, PROPFIND, …: 405 before routing (OPTIONS: 204), never a stack trace. After the admin
  // gate, which answers anonymous callers 401/403 first whatever the method.
  app.use(allowedMethods(log));
  app.get("/healthz", healthCheck({ ping: () => services.db.execute(sql`select 1`), log, onAnswer: () => health.sawAnswer() }));
  app.use("/media", mediaRouter(services.db, services.storage, path.join(env.dataDir, "media", ".variants")));
  const build = await mountAppBuild({ app, server, dev, lifecycle });
  // app.use, not app.all("/{*path}"): Express would decode that parameter and answer a malformed
  // escape (/%E0%A4%A) with an error; React Router answers it with the 404 page.
  app.use(createAppHandler({ build, mode: dev ? "development" : "production", cache, loadContext: (cspNonce, shown, page) => ({ ...services, cspNonce, shown, ...page }), readers: { access: readerAccess, db: services.db, memberAuth: services.memberAuth }, databaseUp: () => health.up, sharedCache: sharedCache.current, onPageView, fillSlots, onBackgroundError: (err, key) => log.warn({ err, key }, "could not render a stale page again"), changesHeard: () => services.changes.caughtUp() }));
  app.use(errorHandler(log));

  lifecycle.checkpoint();
  const address = await listen(server, env.PORT, env.HOST);
  server.on("error", (error) => log.error({ err: error }, "HTTP server error"));
  server.keepAliveTimeout = 65_000;
  lifecycle.onShutdown("http server", () =>
    closeHttpServer(server, {
      graceMs: SHUTDOWN_GRACE_MS,
      log,
      endStreams: () => {
        openEventStreams.forEach((stream) => stream.end());
        liveStreams.endAll();
      },
    }),
  );
  // In a cluster the primary says so once every worker listens.
  if (cluster.isWorker) log.debug({ port: address.port }, "worker listening");
  else log.info(readyMessage(address, env));
}

