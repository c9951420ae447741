import { randomBytes } from "node:crypto";
import { createWriteStream, type Dirent } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { fileTypeFromFile } from "file-type";
import sharp from "./sharp.server";
import type { Db } from "~/db/client.server";
import { media } from "~/db/schema";
import { declaredLengthLimitOf, tooLargeMessage, UPLOAD_RULES, type AcceptedType, type UploadKind } from "~/lib/upload-rules";
import { AppError } from "./app-error";
import type { Logger } from "./logger.server";
import type { Bucket, Storage } from "./storage.server";

export interface StoredUpload {
  url: string;
  bucket: Bucket;
  name: string;
  originalName: string;
  contentType: string;
  size: number;
}

/** Timestamp, base-36 random suffix, original extension: the spec's generated file name. */
export function generateFileName(originalName: string, type: AcceptedType): string {
  // The original extension is kept when it fits the detected type; otherwise the type's own.
  const ext = path.extname(originalName).toLowerCase().slice(1);
  const extension = type.extensions.includes(ext) ? `.${ext}` : `.${type.extension}`;
  const suffix = BigInt(`0x${randomBytes(8).toString("hex")}`).toString(36).slice(0, 10);
  return `${Date.now()}-${suffix}${extension}`;
}

/** Raster images are decoded to check their size in pixels (a small file can hold a huge image). */
const RASTER_IMAGES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_SIDE = 12_000;

async function checkImageDimensions(file: string) {
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(file, { limitInputPixels: false }).metadata());
  } catch {
    throw new AppError("unsupported_type", "The image could not be read. Please upload a valid image file.");
  }
  if (!width || !height) throw new AppError("unsupported_type", "The image could not be read. Please upload a valid image file.");
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw new AppError("too_large", `The image is ${width} × ${height} pixels; images can be at most 40 megapixels and ${MAX_IMAGE_SIDE} pixels on a side.`);
  }
}

/**
 * Removes every piece of metadata a photo carries (EXIF with GPS position and camera, XMP, IPTC, ICC,
 * PNG text chunks), keeping what the reader sees: the EXIF orientation is applied to the pixels first,
 * colours are converted to sRGB, and an animated GIF or WebP stays animated. An image without any is
 * left byte for byte as it came (no needless re-compression). Rewrites `file` in place.
 */
export async function stripImageMetadata(file: string, mime: string): Promise<void> {
  const animated = mime === "image/gif" || mime === "image/webp";
  const input = () => sharp(file, { animated, limitInputPixels: MAX_IMAGE_PIXELS });
  const meta = await input().metadata();
  const carries =
    Boolean(meta.exif || meta.xmp || meta.iptc || meta.icc || meta.tifftagPhotoshop) ||
    (meta.orientation !== undefined && meta.orientation !== 1) ||
    Boolean(meta.comments?.length);
  if (!carries) return;
  // rotate() with no angle applies the EXIF orientation; sharp writes no metadata unless asked to.
  let image = animated ? input() : input().rotate();
  if (mime === "image/jpeg") image = image.jpeg({ quality: 90, mozjpeg: true });
  else if (mime === "image/png") image = image.png({ compressionLevel: 9 });
  else if (mime === "image/webp") image = image.webp({ quality: 90 });
  else image = image.gif();
  const clean = `${file}.clean`;
  try {
    await image.toFile(clean);
    await fs.rename(clean, file);
  } finally {
    await fs.rm(clean, { force: true });
  }
}

/** The SVG check: a text file whose root element is <svg>. Sanitising happens where SVGs are accepted. */
async function looksLikeSvg(file: string) {
  const handle = await fs.open(file, "r");
  try {
    const buffer = Buffer.alloc(2048);
    const { bytesRead } = await handle.read(buffer, 0, 2048, 0);
    const head = buffer.subarray(0, bytesRead).toString("utf8");
    return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head);
  } finally {
    await handle.close();
  }
}

/** Reads a request body to its end and drops it; past `maxBytes` it stops reading (the connection is cut). */
async function discardBody(body: ReadableStream<Uint8Array> | null, maxBytes: number) {
  if (!body) return;
  const reader = body.getReader();
  let seen = 0;
  try {
    while (seen <= maxBytes) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.byteLength;
    }
  } catch {
    // The client went away: nothing to answer.
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * A new file name in this process's folder of partial uploads (created 700 when missing): only this
 * account may open the folder, and files are written 600, so until a file is checked and stored it is
 * nobody else's to read (issue 28). Stale parts are removed by removeStaleUploadParts.
 */
export async function newUploadPart(storage: Pick<Storage, "tempDir">): Promise<string> {
  const partsDir = path.join(storage.tempDir, PARTS_FOLDER);
  await fs.mkdir(partsDir, { recursive: true, mode: 0o700 });
  return path.join(partsDir, `upload-${Date.now()}-${randomBytes(6).toString("hex")}`);
}

/**
 * Streams one uploaded file (multipart field "file") to a temporary file, enforcing the size limit
 * while streaming, decides its type from its bytes, then moves it into the store under a generated
 * name and records it. Anything refused leaves no file behind.
 */
export async function receiveUpload(options: {
  request: Request;
  db: Db;
  storage: Storage;
  kind: UploadKind;
  source: string;
  /**
   * Runs on the received file before it is stored (e.g. rasterising an SVG); may rewrite it in place.
   * When it returns a type, the file is stored and recorded as that type (name extension included).
   */
  transform?: (file: string, contentType: string) => Promise<AcceptedType | void>;
}): Promise<StoredUpload> {
  const { request, db, storage, kind } = options;
  const rule = UPLOAD_RULES[kind];
  const tempFile = await newUploadPart(storage);
  try {
    const received = await receiveMultipartFile(request, tempFile, {
      maxBytes: rule.maxBytes,
      declaredLimit: declaredLengthLimitOf(rule),
      tooLarge: () => new AppError("too_large", tooLargeMessage(rule)),
    });
    return await storeCheckedUpload({ db, storage, kind, source: options.source, tempFile, originalName: received.originalName, transform: options.transform });
  } finally {
    // Stored files were moved away; anything refused is removed.
    await fs.rm(tempFile, { force: true });
  }
}

/**
 * Streams the multipart field "file" of `request` into `dest` (written 600), enforcing `maxBytes`
 * while streaming (a declared length beyond `declaredLimit` is refused before reading). Throws the
 * upload's AppErrors: not multipart, nothing sent, empty, too large (`tooLarge()`), unreadable.
 */
export async function receiveMultipartFile(
  request: Request,
  dest: string,
  limits: { maxBytes: number; declaredLimit: number; tooLarge: () => AppError },
): Promise<{ originalName: string; size: number }> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new AppError("invalid_input", "Send the file as multipart/form-data.");
  }
  const declaredLength = Number(request.headers.get("content-length"));
  // Multipart framing adds a little; anything far beyond the limit is refused before reading it.
  if (Number.isFinite(declaredLength) && declaredLength > limits.declaredLimit) {
    // Read what the client sends (up to twice the limit) before answering: a connection closed under
    // a client still sending is reset, and the client never sees the 413 and its reason.
    await discardBody(request.body, 2 * limits.maxBytes);
    throw limits.tooLarge();
  }
  if (!request.body) throw new AppError("invalid_input", "No file was sent.");
  const body = request.body;
  const received = await new Promise<{ originalName: string; size: number; truncated: boolean }>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        limits: { files: 1, fileSize: limits.maxBytes + 1, fields: 10, fieldSize: 1024 },
      });
    } catch {
      reject(new AppError("invalid_input", "The upload could not be read."));
      return;
    }
    let seen: Promise<{ originalName: string; size: number; truncated: boolean }> | null = null;
    parser.on("file", (field, stream, info) => {
      if (field !== "file" || seen) {
        stream.resume();
        return;
      }
      let size = 0;
      let truncated = false;
      stream.on("data", (chunk: Buffer) => (size += chunk.length));
      stream.on("limit", () => {
        truncated = true;
        // Stop writing the rest; busboy discards what follows.
        stream.unpipe();
        stream.resume();
      });
      seen = pipeline(stream, createWriteStream(dest, { mode: 0o600 })).then(
        () => ({ originalName: info.filename ?? "upload", size, truncated }),
        (error) => (truncated ? { originalName: info.filename ?? "upload", size, truncated } : Promise.reject(error)),
      );
    });
    parser.on("error", () => reject(new AppError("invalid_input", "The upload could not be read.")));
    parser.on("close", () => {
      if (!seen) reject(new AppError("invalid_input", "No file was sent."));
      else seen.then(resolve, reject);
    });
    Readable.fromWeb(body as unknown as NodeWebReadableStream).on("error", reject).pipe(parser);
  });
  if (received.truncated || received.size > limits.maxBytes) throw limits.tooLarge();
  if (received.size === 0) throw new AppError("invalid_input", "The file is empty.");
  return { originalName: received.originalName, size: received.size };
}

/**
 * The second half of every upload, for a file already on disk in the store's temporary folder (a
 * browser's upload, or an import's fetched image): its type decided from its bytes, a raster image's
 * size checked and its metadata stripped, then moved into the store under a generated name and
 * recorded. Throws the upload's own AppErrors; the caller removes `tempFile` if it is still there.
 */
export async function storeCheckedUpload(options: {
  db: Db;
  storage: Storage;
  kind: UploadKind;
  source: string;
  tempFile: string;
  originalName: string;
  transform?: (file: string, contentType: string) => Promise<AcceptedType | void>;
}): Promise<StoredUpload> {
  const { db, storage, kind, tempFile } = options;
  const rule = UPLOAD_RULES[kind];
  const detected = await fileTypeFromFile(tempFile);
  let mime = detected?.mime as string | undefined;
  let extension = detected?.ext as string | undefined;
  if (!detected && rule.types.some((t) => t.mime === "image/svg+xml") && (await looksLikeSvg(tempFile))) {
    mime = "image/svg+xml";
    extension = "svg";
  }
  const detectedType = rule.types.find((t) => t.mime === mime || (t.detectedAs && t.detectedAs === extension));
  if (!mime || !detectedType) throw new AppError("unsupported_type", rule.wrongTypeMessage);
  if (RASTER_IMAGES.has(detectedType.mime)) {
    await checkImageDimensions(tempFile);
    // Readers' photos must not publish where they were taken (issue 12): every raster upload, from
    // comments, the media library or the branding, is stored without its metadata.
    await stripImageMetadata(tempFile, detectedType.mime);
  }

  const accepted = (options.transform && (await options.transform(tempFile, detectedType.mime))) || detectedType;
  const { size } = await fs.stat(tempFile);
  const name = generateFileName(options.originalName, accepted);
  const originalName = path.basename(options.originalName).slice(0, 200) || name;
  // Checked and about to be published: stored media is readable as before (a web server in front
  // may serve DATA_DIR/media itself).
  await fs.chmod(tempFile, 0o644);
  await storage.put(rule.bucket, name, tempFile, accepted.mime);
  try {
    await db.insert(media).values({
      bucket: rule.bucket,
      name,
      originalName,
      contentType: accepted.mime,
      size,
      source: options.source,
    });
  } catch (error) {
    await storage.delete(rule.bucket, name).catch(() => {});
    throw error;
  }
  return { url: storage.publicUrl(rule.bucket, name), bucket: rule.bucket, name, originalName, contentType: accepted.mime, size };
}

/** A file in the uploads' temporary folder not written for this long is a partial left by a crash. */
export const STALE_UPLOAD_PART_MS = 10 * 60 * 1000;

/**
 * Each process writes its uploads' partial files in a folder of its own, `<host>-<pid>-<random>`, under
 * the storage's temporary folder, which the workers of a cluster share (decision 0027) and, with S3
 * (the system's temporary folder), so may other servers on the machine. A folder whose process has
 * ended can have no upload in flight: it is removed whole, at once, however fresh its files (a process
 * killed in the middle of a 60 MB upload; issue 28). The random part keeps a new process from taking
 * over the folder of an ended one that had the same process id.
 */
const PARTS_FOLDER = `${os.hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
const PARTS_FOLDER_PATTERN = /^(.+)-(\d+)-[0-9a-f]{6}$/;

/** Whether the process `pid` of this machine has ended; a process we may not signal still runs. */
function hasEnded(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Removes what interrupted uploads left in the storage's temporary folder: the folder of every process
 * of this machine that has ended, and anywhere else (another machine's folder, files of versions before
 * the folders) every file not written for `maxAgeMs`. An upload under way writes continuously, so its
 * file is never that old. Returns how many files were removed.
 */
export async function removeStaleUploadParts(storage: Pick<Storage, "tempDir">, maxAgeMs = STALE_UPLOAD_PART_MS, now = Date.now()): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(storage.tempDir, { withFileTypes: true });
  } catch {
    return 0; // no uploads yet
  }
  let removed = 0;
  const removeOld = async (file: string) => {
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile() || now - stat.mtimeMs < maxAgeMs) return;
    await fs.rm(file, { force: true });
    removed++;
  };
  for (const entry of entries) {
    const entryPath = path.join(storage.tempDir, entry.name);
    if (entry.isFile()) {
      await removeOld(entryPath);
      continue;
    }
    if (!entry.isDirectory()) continue;
    const owner = PARTS_FOLDER_PATTERN.exec(entry.name);
    const files = await fs.readdir(entryPath).catch(() => [] as string[]);
    if (owner && owner[1] === os.hostname() && hasEnded(Number(owner[2]))) {
      await fs.rm(entryPath, { recursive: true, force: true });
      removed += files.length;
      continue;
    }
    for (const name of files) await removeOld(path.join(entryPath, name));
  }
  return removed;
}

/** One cleaning of the temporary folder, its result logged; it never throws. */
export function cleanUploadParts(storage: Pick<Storage, "tempDir">, log: Logger): Promise<void> {
  return removeStaleUploadParts(storage)
    .then((n) => {
      if (n > 0) log.info({ files: n, dir: storage.tempDir }, "removed partial files of interrupted uploads");
    })
    .catch((error: unknown) => log.error({ err: error }, "could not clean the uploads' temporary folder"));
}

/** Cleans the temporary folder at start and every STALE_UPLOAD_PART_MS after; returns the stop function. */
export function scheduleUploadPartsCleanup(storage: Pick<Storage, "tempDir">, log: Logger): () => void {
  void cleanUploadParts(storage, log);
  const timer = setInterval(() => void cleanUploadParts(storage, log), STALE_UPLOAD_PART_MS);
  timer.unref();
  return () => clearInterval(timer);
}
