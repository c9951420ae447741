import "../app/lib/app-context.server";
import http from "node:http";
import path from "node:path";
import { sql } from "drizzle-orm";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import type { AppLoadContext, ServerBuild } from "react-router";
import { createDb } from "../app/db/client.server";
import { scheduleCommentUploadPruning } from "../app/domain/comments/comment-uploads.server";
import { ensureAdminAccount } from "../app/domain/accounts/accounts.server";
import { getSessionUser } from "../app/domain/accounts/guard.server";
import { CLIENT_IP_HEADER, createAuth } from "../app/lib/auth.server";
import { ChangeFeed } from "../app/lib/change-feed.server";
import { AppError, isAppError } from "../app/lib/app-error";
import { loadEnv } from "../app/lib/env.server";
import { createLogger, type Logger } from "../app/lib/logger.server";
import { createMailer } from "../app/lib/mail.server";
import { createS3Storage } from "../app/lib/storage-s3.server";
import { createLocalStorage } from "../app/lib/storage.server";
import { ViewRecorder } from "../app/lib/view-recorder.server";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-db";
import { withoutTheirExitHooks } from "./exit-hooks";
import { mediaRouter } from "./media-route";
import { migrateDatabase } from "./migrate";
import { PageCache } from "./page-cache";
import { answerExpectContinue, createAppHandler, openEventStreams } from "./request-handler";
import { ROOT } from "./root";
import { loadSecrets } from "./secrets";
import { seedDatabase } from "./seed";

/** The request path as React Router matches it: percent-decoded (a malformed escape stays as sent). */
function routedPath(req: express.Request): string {
  try {
    return decodeURIComponent(req.path);
  } catch {
    return req.path;
  }
}
const SHUTDOWN_GRACE_MS = 10_000;


let processLog: Logger | null = null;
let embedded: EmbeddedDatabase | null = null;
let embeddedStarting: Promise<EmbeddedDatabase> | null = null;
const shutdownHooks: { name: string; run: () => Promise<unknown> }[] = [];
const onShutdown = (name: string, run: () => Promise<unknown>) => shutdownHooks.push({ name, run });
let shuttingDown = false;
let exitCode = 0;

let startup: Promise<void> | null = null;

/** Waits until `promise` settles (true) or `ms` pass (false); never throws. */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]).finally(() => clearTimeout(timer));
}

function logError(error: unknown, message: string) {
  if (processLog) processLog.error({ err: error }, message);
  else console.error(message, error);
}

/**
 * Stops in order: the HTTP server (no new connections; in-flight requests get SHUTDOWN_GRACE_MS),
 * the services (buffered page views are written), the database pool, and last the embedded
 * PostgreSQL, also when the signal came while it was still starting. Then exits.
 */
async function shutdown(reason: string, code = 0) {
  exitCode = Math.max(exitCode, code);
  if (shuttingDown) {
    processLog?.debug({ reason }, "already shutting down");
    return;
  }
  shuttingDown = true;
  if (processLog) processLog.info({ reason }, "shutting down");
  // A signal during the start: the start stops at its next step (it checks shuttingDown), so that
  // what it opened is all registered before the steps below close it.
  if (startup) await settledWithin(startup, SHUTDOWN_GRACE_MS + 2000);
  for (const hook of shutdownHooks.reverse()) {
    processLog?.debug({ step: hook.name }, "shutdown step");
    try {
      // No step may hold the exit hostage: each gets the grace period and a little more.
      // The timer stays referenced: it also keeps the process alive until every step has run.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([hook.run(), new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS + 2000)))]);
      clearTimeout(timer);
    } catch (error) {
      processLog?.error({ err: error, step: hook.name }, "error during shutdown");
    }
  }
  // PostgreSQL runs in its own process group (it never saw a terminal's Ctrl-C): stop it now that
  // the pool is closed. If it is still starting, wait for that, so it is not left without an owner.
  let database = embedded;
  if (!database && embeddedStarting && (await settledWithin(embeddedStarting, 60_000))) {
    database = await embeddedStarting.catch(() => null);
  }
  await database?.stop().catch((error) => logError(error, "could not stop PostgreSQL"));
  processLog?.info("bye");
  process.exit(exitCode);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
// Whatever fails unexpectedly, PostgreSQL must not be left running behind the process.
process.on("uncaughtException", (error) => {
  logError(error, "uncaught exception");
  void shutdown("uncaught exception", 1);
});
process.on("unhandledRejection", (error) => {
  logError(error, "unhandled promise rejection");
  void shutdown("unhandled promise rejection", 1);
});

async function main() {
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (isAppError(error, "invalid_config")) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(env.LOG_LEVEL);
  processLog = log;
  const dev = env.NODE_ENV === "development";

  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    embeddedStarting = startEmbeddedPostgres(env.dataDir, log);
    embedded = await embeddedStarting;
    databaseUrl = embedded.url;
  }
  if (shuttingDown) return;
  const { db, pool } = createDb(databaseUrl);
  onShutdown("database pool", () => pool.end());
  await migrateDatabase(pool);
  if (shuttingDown) return;

  const storage = env.S3_BUCKET
    ? createS3Storage({
        bucket: env.S3_BUCKET,
        region: env.S3_REGION,
        endpoint: env.S3_ENDPOINT,
        accessKeyId: env.S3_ACCESS_KEY_ID!,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
        publicUrl: env.S3_PUBLIC_URL,
      })
    : createLocalStorage(path.join(env.dataDir, "media"));
  await seedDatabase({ db, storage, log, demo: env.SEED_DEMO ?? Boolean(embedded?.created) });
  if (shuttingDown) return;

  const changes = new ChangeFeed(databaseUrl, log);
  await changes.start();
  onShutdown("change feed", () => changes.stop());
  if (shuttingDown) return;
  const views = new ViewRecorder(db, log);
  views.start();
  onShutdown("view recorder", () => views.stop());

  const stopPruning = scheduleCommentUploadPruning(db, storage, log);
  onShutdown("upload pruning", async () => stopPruning());

  const cache = dev ? null : new PageCache();
  changes.on("change", () => cache?.clear());

  const sessionSecret = env.SESSION_SECRET ?? (await loadSecrets(env.dataDir)).sessionSecret;
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, log });
  const auth = createAuth({ db, baseURL: env.publicUrl, secret: sessionSecret, mailer, log });
  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    const { created, granted, refused } = await ensureAdminAccount(auth, db, env.ADMIN_EMAIL, env.ADMIN_PASSWORD);
    if (refused) {
      log.warn(
        { email: env.ADMIN_EMAIL },
        "an account with ADMIN_EMAIL exists with another password: not made admin. If it is yours, run `npm run admin -- grant <email>`",
      );
    }
    if (created) log.info({ email: env.ADMIN_EMAIL }, "created the ADMIN_EMAIL account");
    if (granted) log.info({ email: env.ADMIN_EMAIL }, "granted admin to the ADMIN_EMAIL account");
  }

  const services: AppLoadContext = { db, auth, env, log, storage, views, changes };

  const app = express();
  const server = http.createServer(app);
  server.on("checkContinue", (req, res) => answerExpectContinue(req, res, () => server.emit("request", req, res)));
  app.disable("x-powered-by");
  // Only proxies the operator names may set the client address (it keys the sign-in limits).
  app.set("trust proxy", env.TRUST_PROXY);
  app.use((req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    if (shuttingDown) res.setHeader("Connection", "close");
    next();
  });

  // The client address sign-in limits count under: whatever Express derived (honouring trust proxy),
  // never a value the client sent in this header itself.
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    next();
  });

  // Personal answers are never stored by browsers or proxies: whatever a route set, these paths
  // leave with exactly "no-store" (set as the headers go out, so there is one value, not two).
  // That includes the dashboard's data URL /admin.data, and any spelling React Router matches
  // (its paths are case-insensitive).
  app.use((req, res, next) => {
    if (/^\/(admin|api\/admin|api\/auth)(\/|\.data$|$)/i.test(routedPath(req))) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
        // An event stream also keeps no-transform: a compressing proxy must not buffer it.
        const stream = /^text\/event-stream/i.test(String(this.getHeader("content-type") ?? ""));
        this.setHeader("Cache-Control", stream ? "no-store, no-transform" : "no-store");
        return writeHead.apply(this, args);
      } as typeof writeHead;
    }
    next();
  });

  // A state change must come from this site: a cross-site form post (or fetch) is refused. Requests
  // with neither Origin nor Referer (curl, server-to-server) pass; browsers send Origin on every
  // cross-site POST.
  const publicOrigin = new URL(env.publicUrl).origin;
  app.use((req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const source = req.get("origin") ?? req.get("referer");
    if (!source) return next();
    let origin: string | null;
    try {
      origin = source === "null" ? null : new URL(source).origin;
    } catch {
      origin = null;
    }
    const ownOrigin = `${req.protocol}://${req.get("host")}`;
    if (origin && (origin === ownOrigin || origin === publicOrigin)) return next();
    log.warn({ method: req.method, path: req.path, origin: source }, "cross-site request refused");
    res.status(403).setHeader("Cache-Control", "no-store");
    res.type("text/plain").send("Forbidden: cross-site request refused");
  });

  // Defence in depth at the door of the back office: a state change under /admin, and any request
  // under /api/admin, from someone who is not an admin right now is answered 401/403 before routing
  // (so even a screen without an action never answers 405 to an anonymous caller). Every loader,
  // action and resource route still calls the guard itself.
  app.use(async (req, res, next) => {
    // Case-insensitive and percent-decoded, as React Router matches: /ADMIN and /%61dmin are /admin.
    const pathname = routedPath(req);
    const adminPage = /^\/admin(\/|\.data$|$)/i.test(pathname) && !/^\/admin\/login(\.data)?\/?$/i.test(pathname);
    const adminApi = /^\/api\/admin(\/|$)/i.test(pathname);
    if (!(adminApi || (adminPage && req.method !== "GET" && req.method !== "HEAD"))) return next();
    try {
      const headers = new Headers();
      if (req.headers.cookie) headers.set("cookie", req.headers.cookie);
      const user = await getSessionUser(new Request(`${publicOrigin}${req.originalUrl}`, { headers }), services);
      if (user?.isAdmin) return next();
      res.status(user ? 403 : 401).json({ error: user ? "Admin access required" : "Sign in required" });
    } catch (error) {
      next(error);
    }
  });

  app.get("/healthz", async (_req, res) => {
    try {
      await Promise.race([
        db.execute(sql`select 1`),
        new Promise((_, reject) => setTimeout(() => reject(new Error("database timeout")), 2000).unref()),
      ]);
      res.status(200).json({ status: "ok", database: "up" });
    } catch (error) {
      log.warn({ err: error }, "health check failed");
      res.status(503).json({ status: "error", database: "down" });
    }
  });
  app.use("/media", mediaRouter(db, storage, path.join(env.dataDir, "media", ".variants")));

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (dev) {
    const vite = await import("vite");
    // HMR rides on our own HTTP server, so several dev servers never fight over a port.
    const viteServer = await withoutTheirExitHooks(() =>
      vite.createServer({ server: { middlewareMode: true, hmr: { server } }, root: ROOT }),
    );
    onShutdown("vite", () => viteServer.close());
    app.use(viteServer.middlewares);
    build = () => viteServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  } else {
    const clientDir = path.join(ROOT, "build/client");
    app.use(
      "/assets",
      expressStaticGzip(path.join(clientDir, "assets"), {
        enableBrotli: true,
        orderPreference: ["br", "gzip"],
        serveStatic: { immutable: true, maxAge: "1y", fallthrough: false },
      }),
    );
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
    build = (await import(path.join(ROOT, "build/server/index.js"))) as ServerBuild;
  }

  // app.use, not app.all("/{*path}"): Express would decode that parameter and answer a malformed
  // escape (/%E0%A4%A) with an error; React Router answers it with the 404 page.
  app.use(createAppHandler({ build, mode: dev ? "development" : "production", cache, getLoadContext: () => services }));
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    // Express's own refusals (a malformed escape in a route parameter: 400) keep their status.
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      log.warn({ path: req.originalUrl, status }, "request refused");
      if (!res.headersSent) return void res.status(status).type("text/plain").send(status === 404 ? "Not Found" : "Bad Request");
      return void res.end();
    }
    log.error({ err: error, path: req.originalUrl }, "unhandled request error");
    if (!res.headersSent) res.status(500).type("text/plain").send("Internal Server Error");
    else res.end();
  });

  if (shuttingDown) return;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.PORT, env.HOST, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE") {
      throw new AppError("start_failed", `port ${env.PORT} is already in use (HOST ${env.HOST}): stop what runs there or set PORT to another port`);
    }
    if (error.code === "EACCES") throw new AppError("start_failed", `no permission to listen on port ${env.PORT} (HOST ${env.HOST}): set PORT to 1024 or above`);
    if (error.code === "EADDRNOTAVAIL") throw new AppError("start_failed", `HOST ${env.HOST} is not an address of this machine`);
    throw error;
  });
  server.on("error", (error) => log.error({ err: error }, "HTTP server error"));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  log.info(`Frontpage is ready on http://localhost:${port}`);
  server.keepAliveTimeout = 65_000;
  onShutdown(
    "http server",
    () =>
      new Promise<void>((resolve) => {
        // Stop accepting; let in-flight requests finish, then cut whatever is left after the grace period.
        const timer = setTimeout(() => {
          log.warn("grace period over; closing remaining connections");
          server.closeAllConnections();
        }, SHUTDOWN_GRACE_MS);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
        // Event streams never finish on their own; browsers reconnect to another process.
        for (const stream of openEventStreams) stream.end();
      }),
  );
}

startup = main();
startup.catch((error) => {
  // A step cut short by a shutdown already under way (its pool closed) is no failure of its own.
  if (shuttingDown) return processLog?.debug({ err: error }, "start interrupted by the shutdown");
  // A failed start stops what it started (the pool, PostgreSQL) and exits 1.
  // A start that cannot go on says why in one line for the operator, without a stack.
  if (isAppError(error, "start_failed")) {
    if (processLog) processLog.fatal(error.message);
    else console.error(error.message);
  } else {
    logError(error, "could not start");
  }
  void shutdown("start failed", 1);
});
