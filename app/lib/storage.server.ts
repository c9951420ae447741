import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

export const BUCKETS = ["images", "videos", "files"] as const;
export type Bucket = (typeof BUCKETS)[number];

/**
 * Where the store keeps what no browser is ever given (never served by the media route, which takes
 * BUCKETS only): exports waiting for their import, so that any machine's job runner reads them (issue 32).
 */
export type PrivateBucket = "imports";
/** Any place of the store: a media bucket or a private one. */
export type StoredBucket = Bucket | PrivateBucket;

export function isBucket(value: string): value is Bucket {
  return (BUCKETS as readonly string[]).includes(value);
}

/** Where uploaded files live. Local disk by default; an S3-compatible bucket for several processes. */
export interface Storage {
  /** Moves a finished temporary file into the store under bucket/name. */
  put(bucket: StoredBucket, name: string, tempFile: string, contentType: string): Promise<void>;
  delete(bucket: StoredBucket, name: string): Promise<void>;
  exists(bucket: StoredBucket, name: string): Promise<boolean>;
  /** The URL a browser uses for the file. */
  publicUrl(bucket: Bucket, name: string): string;
  /** The file on local disk, when the driver keeps one (served directly, with range support). */
  localPath(bucket: StoredBucket, name: string): string | null;
  /** A public origin (CDN) URL to redirect media requests to, when one is configured. */
  cdnUrl(bucket: Bucket, name: string): string | null;
  /** The stored bytes (a `Range: bytes=…` header value gives a 206 part), or null when missing. */
  fetchObject(bucket: StoredBucket, name: string, range?: string): Promise<Response | null>;
  /** A directory on the same file system as the store, for temporary files that are then renamed. */
  tempDir: string;
}

/** A file name is only ever one we generated: letters, digits, dot, hyphen. */
const SAFE_NAME = /^[a-z0-9][a-z0-9.-]{0,120}$/i;

export function assertSafeName(name: string) {
  if (!SAFE_NAME.test(name) || name.includes("..")) throw new Error(`unsafe media file name: ${name}`);
}

export function createLocalStorage(root: string): Storage {
  const tempDir = path.join(root, ".tmp");
  const filePath = (bucket: StoredBucket, name: string) => {
    assertSafeName(name);
    return path.join(root, bucket, name);
  };
  return {
    tempDir,
    async put(bucket, name, tempFile) {
      const target = filePath(bucket, name);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(tempFile, target);
    },
    async delete(bucket, name) {
      await fs.rm(filePath(bucket, name), { force: true });
    },
    async exists(bucket, name) {
      try {
        await fs.access(filePath(bucket, name));
        return true;
      } catch {
        return false;
      }
    },
    publicUrl(bucket, name) {
      return `/media/${bucket}/${encodeURIComponent(name)}`;
    },
    localPath(bucket, name) {
      return filePath(bucket, name);
    },
    cdnUrl() {
      return null;
    },
    async fetchObject(bucket, name, range) {
      const file = filePath(bucket, name);
      let size: number;
      try {
        size = (await fs.stat(file)).size;
      } catch {
        return null;
      }
      const match = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
      if (match && (match[1] || match[2])) {
        const start = match[1] ? Number(match[1]) : Math.max(0, size - Number(match[2]));
        const end = match[1] && match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
        if (start > end || start >= size) {
          return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
        }
        const body = Readable.toWeb(createReadStream(file, { start, end })) as ReadableStream;
        return new Response(body, {
          status: 206,
          headers: { "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": String(end - start + 1), "Accept-Ranges": "bytes" },
        });
      }
      const body = Readable.toWeb(createReadStream(file)) as ReadableStream;
      return new Response(body, { headers: { "Content-Length": String(size), "Accept-Ranges": "bytes" } });
    },
  };
}
