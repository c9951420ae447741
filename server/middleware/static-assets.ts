import fs from "node:fs";
import path from "node:path";
import express from "express";
import expressStaticGzip from "express-static-gzip";

/** The build's browser files outside /assets (favicon, …), as request paths: read once, the build does not change while it runs. */
export function publicFilePaths(clientDir: string): Set<string> {
  if (!fs.existsSync(clientDir)) return new Set();
  return new Set(
    fs
      .readdirSync(clientDir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${entry.name}`),
  );
}

/**
 * The production build's browser files: hashed assets under /assets, precompressed (Brotli, then
 * gzip) and immutable for a year, a missing one a 404 (never the app's 404 page); the other public
 * files (favicon, …) for an hour. Any other path goes on without a look at the disk (a page render
 * would otherwise pay a file-system check first).
 */
export function staticAssets(clientDir: string): express.Router {
  const router = express.Router();
  router.use(
    "/assets",
    expressStaticGzip(path.join(clientDir, "assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      serveStatic: { immutable: true, maxAge: "1y", fallthrough: false },
    }),
  );
  const publicFiles = publicFilePaths(clientDir);
  const serveFile = express.static(clientDir, { maxAge: "1h", index: false });
  router.use((req, res, next) => (publicFiles.has(req.path) ? serveFile(req, res, next) : next()));
  return router;
}
