import "../app/lib/app-context.server";
import path from "node:path";
import { sql } from "drizzle-orm";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import type { AppLoadContext, ServerBuild } from "react-router";
import { createDb } from "../app/db/client.server";
import { ChangeFeed } from "../app/lib/change-feed.server";
import { EnvError, loadEnv } from "../app/lib/env.server";
import { createLogger } from "../app/lib/logger.server";
import { createLocalStorage } from "../app/lib/storage.server";
import { ViewRecorder } from "../app/lib/view-recorder.server";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-db";
import { mediaRouter } from "./media-route";
import { migrateDatabase } from "./migrate";
import { PageCache } from "./page-cache";
import { createAppHandler } from "./request-handler";
import { seedDatabase } from "./seed";

const ROOT = path.resolve(import.meta.dirname, "..");
const SHUTDOWN_GRACE_MS = 10_000;

let embedded: EmbeddedDatabase | null = null;

async function main() {
  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(env.LOG_LEVEL);
  const dev = env.NODE_ENV === "development";

  const shutdownHooks: (() => Promise<unknown>)[] = [];
  let shuttingDown = false;

  async function shutdown(signal: string) {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info({ signal }, "shutting down");
    for (const hook of shutdownHooks.reverse()) {
      try {
        await hook();
      } catch (error) {
        log.error({ err: error }, "error during shutdown");
      }
    }
    await embedded?.stop().catch((error) => log.error({ err: error }, "could not stop PostgreSQL"));
    log.info("bye");
    process.exit(0);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(env.dataDir, log);
    databaseUrl = embedded.url;
  }
  const { db, pool } = createDb(databaseUrl);
  shutdownHooks.push(() => pool.end());
  await migrateDatabase(pool);

  const storage = createLocalStorage(path.join(env.dataDir, "media"));
  await seedDatabase({ db, storage, log, demo: env.SEED_DEMO ?? Boolean(embedded?.created) });

  const changes = new ChangeFeed(databaseUrl, log);
  await changes.start();
  shutdownHooks.push(() => changes.stop());
  const views = new ViewRecorder(db, log);
  views.start();
  shutdownHooks.push(() => views.stop());

  const cache = dev ? null : new PageCache();
  changes.on("change", () => cache?.clear());

  const services: AppLoadContext = { db, env, log, storage, views, changes };

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback, linklocal, uniquelocal");
  app.use((req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    if (shuttingDown) res.setHeader("Connection", "close");
    next();
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
  app.use("/media", mediaRouter(db, storage));

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (dev) {
    const vite = await import("vite");
    const viteServer = await vite.createServer({ server: { middlewareMode: true }, root: ROOT });
    shutdownHooks.push(() => viteServer.close());
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

  app.all(
    "/{*path}",
    createAppHandler({ build, mode: dev ? "development" : "production", cache, getLoadContext: () => services }),
  );
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    log.error({ err: error, path: req.originalUrl }, "unhandled request error");
    if (!res.headersSent) res.status(500).type("text/plain").send("Internal Server Error");
    else res.end();
  });

  const server = app.listen(env.PORT, env.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    log.info(`Frontpage is ready on http://localhost:${port}`);
  });
  server.keepAliveTimeout = 65_000;
  shutdownHooks.push(
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
      }),
  );
}

main().catch(async (error) => {
  console.error(error);
  // A failed start must not leave its PostgreSQL running behind it.
  await embedded?.stop().catch(() => {});
  process.exit(1);
});
