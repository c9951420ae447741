import { eq, and } from "drizzle-orm";
import express from "express";
import type { Db } from "../app/db/client.server";
import { media } from "../app/db/schema";
import { isBucket, type Storage } from "../app/lib/storage.server";

const ONE_YEAR_S = 31_536_000;

/**
 * Serves stored uploads: the content type recorded at upload (never guessed from the name), nosniff,
 * a sandboxing CSP so nothing stored can run as active content, range requests, long caching.
 * Documents are sent as downloads.
 */
export function mediaRouter(db: Db, storage: Storage): express.Router {
  const router = express.Router();
  const types = new Map<string, string>();
  router.get("/:bucket/:name", async (req, res, next) => {
    try {
      const { bucket, name } = req.params;
      if (!isBucket(bucket) || !/^[a-z0-9][a-z0-9.-]{0,120}$/i.test(name)) return next();
      const key = `${bucket}/${name}`;
      let contentType = types.get(key);
      if (!contentType) {
        const [row] = await db
          .select({ contentType: media.contentType })
          .from(media)
          .where(and(eq(media.bucket, bucket), eq(media.name, name)))
          .limit(1);
        if (!row) return next();
        contentType = row.contentType;
        if (types.size > 10_000) types.clear();
        types.set(key, contentType);
      }
      const headers: Record<string, string> = {
        "Content-Type": contentType,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
        "Cache-Control": `public, max-age=${ONE_YEAR_S}, immutable`,
      };
      if (bucket === "files") headers["Content-Disposition"] = `attachment; filename="${name}"`;
      const localPath = storage.localPath(bucket, name);
      if (!localPath) return res.redirect(302, storage.publicUrl(bucket, name));
      res.sendFile(localPath, { headers, acceptRanges: true, lastModified: true, etag: true }, (error) => {
        if (error && !res.headersSent) next();
      });
    } catch (error) {
      next(error);
    }
  });
  return router;
}
