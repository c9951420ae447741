import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { Readable } from "node:stream";
import express from "express";
import sharp from "../app/lib/sharp.server";
import type { Db } from "../app/db/client.server";
import { media } from "../app/db/schema";
import {
  cropSize,
  focalCropRect,
  focalParam,
  IMAGE_CROPS,
  IMAGE_VARIANT_WIDTHS,
  isImageCrop,
  parseFocalParams,
  type FocalPoint,
  type ImageCrop,
} from "../app/lib/image-variants";
import { isBucket, type Bucket, type Storage } from "../app/lib/storage.server";

const ONE_YEAR_S = 31_536_000;
const RESIZABLE = new Set(["image/jpeg", "image/png", "image/webp"]);

const baseHeaders = (contentType: string): Record<string, string> => ({
  "Content-Type": contentType,
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  "Cache-Control": `public, max-age=${ONE_YEAR_S}, immutable`,
});

type Shape = { width: number } | { crop: ImageCrop; focus: FocalPoint | null };

/** A variant's file name beside the store (a focal crop's names its point: ".c1x1.f0.9x0.9"). */
function variantName(name: string, shape: Shape): string {
  if (!("crop" in shape)) return `${name}.w${shape.width}.webp`;
  return shape.focus ? `${name}.c${shape.crop}.f${focalParam(shape.focus.x)}x${focalParam(shape.focus.y)}.webp` : `${name}.c${shape.crop}.webp`;
}

/** A crop of exactly its size: around the focal point when there is one (focalCropRect), else around the centre of interest. */
async function writeVariant(input: string | Buffer, shape: Shape, file: string): Promise<void> {
  let image = sharp(input).rotate();
  if ("crop" in shape && shape.focus) {
    const { autoOrient } = await sharp(input).metadata();
    const rect = focalCropRect(autoOrient, cropSize(shape.crop), shape.focus);
    image = image.resize({ width: rect.resizeWidth, height: rect.resizeHeight, fit: "fill" }).extract({ left: rect.left, top: rect.top, width: rect.width, height: rect.height });
  } else if ("crop" in shape) {
    image = image.resize({ ...cropSize(shape.crop), fit: "cover", position: sharp.strategy.attention });
  } else {
    image = image.resize({ width: shape.width, withoutEnlargement: true });
  }
  await image.webp({ quality: 78 }).toFile(file);
}

/**
 * Serves stored uploads: the content type recorded at upload (never guessed from the name), nosniff,
 * a sandboxing CSP so nothing stored can run as active content, range requests, long caching.
 * Documents are sent as downloads. `?w=480` on a stored JPEG/PNG/WebP image answers a resized WebP
 * variant (made once, kept beside the store), for `srcset`; `?crop=16x9` (4x3, 1x1) a cropped one of
 * exactly that ratio and CROP_WIDTH, for structured data and social previews.
 */
export function mediaRouter(db: Db, storage: Storage, variantDir: string): express.Router {
  const router = express.Router();
  // Content types by file, briefly: a deleted file stops being served within TYPE_TTL_MS everywhere.
  const types = new Map<string, { contentType: string; at: number }>();
  const TYPE_TTL_MS = 10_000;
  const making = new Map<string, Promise<string | null>>();

  /** Remote stores: the original, fetched once into the variant folder for resizing. */
  async function downloadSource(name: string): Promise<Buffer | null> {
    const response = await storage.fetchObject("images", name);
    return response ? Buffer.from(await response.arrayBuffer()) : null;
  }

  /** One variant: `width` wide (never enlarged), or a crop of exactly its size (cut around its focal point or centre of interest). */
  async function variant(source: string | (() => Promise<Buffer | null>), name: string, shape: Shape): Promise<string | null> {
    const target = path.join(variantDir, variantName(name, shape));
    try {
      await fs.access(target);
      return target;
    } catch {
      // not made yet
    }
    let job: Promise<string | null> | undefined = making.get(target);
    if (!job) {
      job = (async () => {
        const input = typeof source === "string" ? source : await source();
        if (!input) return null;
        await fs.mkdir(variantDir, { recursive: true });
        const temp = `${target}.${randomBytes(4).toString("hex")}.tmp`;
        await writeVariant(input, shape, temp);
        await fs.rename(temp, target);
        return target;
      })().finally(() => making.delete(target));
      making.set(target, job);
    }
    return job;
  }

  /** Remote stores without a CDN: stream the object through, passing ranges on. */
  async function proxy(req: express.Request, res: express.Response, next: express.NextFunction, bucket: Bucket, name: string, contentType: string) {
    const response = await storage.fetchObject(bucket, name, req.headers.range);
    if (!response) return next();
    const headers = baseHeaders(contentType);
    if (bucket === "files") headers["Content-Disposition"] = `attachment; filename="${name}"`;
    for (const header of ["content-length", "content-range", "accept-ranges", "etag", "last-modified"]) {
      const value = response.headers.get(header);
      if (value) headers[header] = value;
    }
    res.status(response.status).set(headers);
    if (!response.body || req.method === "HEAD") return res.end();
    Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).on("error", (error) => res.destroy(error)).pipe(res);
  }

  async function removeVariants(name: string) {
    const shapes: Shape[] = [...IMAGE_VARIANT_WIDTHS.map((width) => ({ width })), ...Object.keys(IMAGE_CROPS).map((crop) => ({ crop: crop as ImageCrop, focus: null }))];
    await Promise.all(shapes.map((shape) => fs.rm(path.join(variantDir, variantName(name, shape)), { force: true })));
    // Focal crops are named by their point: whichever were made go too.
    const prefix = `${name}.c`;
    const made = await fs.readdir(variantDir).catch(() => [] as string[]);
    await Promise.all(made.filter((file) => file.startsWith(prefix) && file.includes(".f")).map((file) => fs.rm(path.join(variantDir, file), { force: true })));
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
      const cdn = storage.cdnUrl(bucket, name);
      if (cdn) return res.redirect(302, cdn);
      const localPath = storage.localPath(bucket, name);

      const requestedWidth = Number(req.query.w);
      const crop = req.query.crop;
      const resizable = bucket === "images" && RESIZABLE.has(contentType);
      let shape: Shape | null = null;
      // A bad fx/fy is ignored, as a bad `w` is: the crop is cut around the centre of interest.
      if (resizable && isImageCrop(crop)) shape = { crop, focus: parseFocalParams(req.query.fx, req.query.fy) };
      else if (resizable && Number.isInteger(requestedWidth) && requestedWidth > 0) {
        shape = { width: IMAGE_VARIANT_WIDTHS.find((w) => w >= requestedWidth) ?? IMAGE_VARIANT_WIDTHS.at(-1)! };
      }
      if (shape) {
        const file = await variant(localPath ?? (() => downloadSource(name)), name, shape);
        if (!file) return next();
        return res.sendFile(file, { headers: baseHeaders("image/webp"), acceptRanges: true, etag: true, dotfiles: "allow" }, (error) => {
          if (error && !res.headersSent) next(error);
        });
      }

      if (!localPath) return proxy(req, res, next, bucket, name, contentType);
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
