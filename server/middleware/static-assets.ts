import path from "node:path";
import express from "express";
import expressStaticGzip from "express-static-gzip";

/**
 * The production build's browser files: hashed assets under /assets, precompressed (Brotli, then
 * gzip) and immutable for a year, a missing one a 404 (never the app's 404 page); the other public
 * files (favicon, …) for an hour.
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
  router.use(express.static(clientDir, { maxAge: "1h", index: false }));
  return router;
}
