import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import express from "express";
import sharp from "sharp";
import type { Db } from "../app/db/client.server";
import { media } from "../app/db/schema";
import { IMAGE_VARIANT_WIDTHS } from "../app/lib/image-variants";
import { isBucket, type Storage } from "../app/lib/storage.server";

const ONE_YEAR_S = 31_536_000;
const RESIZABLE = new Set(["image/jpeg", "image/png", "image/webp"]);

const baseHeaders = (contentType: string): Record<string, string> => ({
  "Content-Type": contentType,
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  "Cache-Control": `public, max-age=${ONE_YEAR_S}, immutable`,
});

/**
 * Serves stored uploads: the content type recorded at upload (never guessed from the name), nosniff,
 * a sandboxing CSP so nothing stored can run as active content, range requests, long caching.
 * Documents are sent as downloads. `?w=480` on a stored JPEG/PNG/WebP image answers a resized WebP
 * variant (made once, kept beside the store), for `srcset`.
 */
export function mediaRouter(db: Db, storage: Storage, variantDir: string): express.Router {
  const router = express.Router();
  // Content types by file, briefly: a deleted file stops being served within TYPE_TTL_MS everywhere.
  const types = new Map<string, { contentType: string; at: number }>();
  const TYPE_TTL_MS = 10_000;
  const making = new Map<string, Promise<string>>();

  async function variant(source: string, name: string, width: number): Promise<string> {
    const target = path.join(variantDir, `${name}.w${width}.webp`);
    try {
      await fs.access(target);
      return target;
    } catch {
      // not made yet
    }
    let job = making.get(target);
    if (!job) {
      job = (async () => {
        await fs.mkdir(variantDir, { recursive: true });
        const temp = `${target}.${randomBytes(4).toString("hex")}.tmp`;
        await sharp(source).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toFile(temp);
        await fs.rename(temp, target);
        return target;
      })().finally(() => making.delete(target));
      making.set(target, job);
    }
    return job;
  }

  async function removeVariants(name: string) {
    await Promise.all(IMAGE_VARIANT_WIDTHS.map((w) => fs.rm(path.join(variantDir, `${name}.w${w}.webp`), { force: true })));
  }

  router.get("/:bucket/:name", async (req, res, next) => {
    try {
      const { bucket, name } = req.params;
      if (!isBucket(bucket) || !/^[a-z0-9][a-z0-9.-]{0,120}$/i.test(name)) return next();
      const key = `${bucket}/${name}`;
      const cached = types.get(key);
      let contentType = cached && Date.now() - cached.at < TYPE_TTL_MS ? cached.contentType : undefined;
      if (!contentType) {
        const [row] = await db
          .select({ contentType: media.contentType })
          .from(media)
          .where(and(eq(media.bucket, bucket), eq(media.name, name)))
          .limit(1);
        if (!row) {
          types.delete(key);
          // The file was deleted: its resized copies go too.
          if (bucket === "images") await removeVariants(name);
          return next();
        }
        contentType = row.contentType;
        if (types.size > 10_000) types.clear();
        types.set(key, { contentType, at: Date.now() });
      }
      const localPath = storage.localPath(bucket, name);
      if (!localPath) return res.redirect(302, storage.publicUrl(bucket, name));

      const requestedWidth = Number(req.query.w);
      if (bucket === "images" && RESIZABLE.has(contentType) && Number.isInteger(requestedWidth) && requestedWidth > 0) {
        const width = IMAGE_VARIANT_WIDTHS.find((w) => w >= requestedWidth) ?? IMAGE_VARIANT_WIDTHS.at(-1)!;
        const file = await variant(localPath, name, width);
        return res.sendFile(file, { headers: baseHeaders("image/webp"), acceptRanges: true, etag: true, dotfiles: "allow" }, (error) => {
          if (error && !res.headersSent) next(error);
        });
      }

      const headers = baseHeaders(contentType);
      if (bucket === "files") headers["Content-Disposition"] = `attachment; filename="${name}"`;
      res.sendFile(localPath, { headers, acceptRanges: true, lastModified: true, etag: true }, (error) => {
        if (error && !res.headersSent) next();
      });
    } catch (error) {
      next(error);
    }
  });
  return router;
}
