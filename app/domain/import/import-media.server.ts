import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import dns from "node:dns";
import net from "node:net";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import ipaddr from "ipaddr.js";
import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { importedRows } from "~/db/schema";
import { AppError, isAppError } from "~/lib/app-error";
import type { Storage } from "~/lib/storage.server";
import { newUploadPart, storeCheckedUpload } from "~/lib/uploads.server";
import { UPLOAD_RULES } from "~/lib/upload-rules";

// An import's images (issue 29): each old address is taken once, from the folder of the old site's
// uploads when one is given, else over http(s), and goes through the upload pipeline every upload
// takes (type from the bytes, size checked, metadata stripped, stored, recorded). Fetching refuses
// loopback, private, link-local and other non-public addresses (an export is untrusted input: its
// URLs must not reach the machine's own services) unless IMPORT_ALLOW_PRIVATE_HOSTS=1.

/** How long one image may take to arrive, whole. */
export const MEDIA_FETCH_TIMEOUT_MS = 30_000;
/** Redirects followed per image (each one checked like the first address). */
const MAX_REDIRECTS = 5;

/** An image of the old site that could not be fetched: its message is the report's sentence. */
export class MediaFetchError extends AppError {
  constructor(message: string) {
    super("upstream_failed", message);
    this.name = "MediaFetchError";
  }
}

/** Whether an address is one on the public internet (not loopback, private, link-local, reserved…). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === "unicast";
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that answers only public addresses (what a connection is then made to: no second lookup to race). */
function publicOnlyLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "");
    const list = addresses as dns.LookupAddress[];
    const refused = list.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new MediaFetchError(`${hostname} is a private or local address (${refused.address}): not fetched`), "");
    if (options.all) return callback(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
}

/**
 * Downloads `url` into `dest`, following up to five redirects, refusing what is not http(s), not a
 * public address (unless `allowPrivateHosts`), not a 200, larger than `maxBytes` or slower than
 * `timeoutMs` in all. Throws MediaFetchError with a sentence for the report.
 */
export async function downloadFile(url: string, dest: string, options: { maxBytes: number; timeoutMs?: number; allowPrivateHosts?: boolean }): Promise<void> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? MEDIA_FETCH_TIMEOUT_MS);
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let target: URL;
    try {
      target = new URL(current);
    } catch {
      throw new MediaFetchError(`not a web address: ${current}`);
    }
    if (target.protocol !== "http:" && target.protocol !== "https:") throw new MediaFetchError(`only http and https addresses are fetched: ${current}`);
    const host = target.hostname.replace(/^\[|\]$/g, "");
    if (net.isIP(host) && !options.allowPrivateHosts && !isPublicAddress(host)) {
      throw new MediaFetchError(`${host} is a private or local address: not fetched`);
    }
    const client = target.protocol === "https:" ? https : http;
    const next = await new Promise<string | null>((resolve, reject) => {
      const request = client.get(
        target,
        {
          signal,
          headers: { "user-agent": "Frontpage importer", accept: "image/*,*/*;q=0.5" },
          ...(options.allowPrivateHosts ? {} : { lookup: publicOnlyLookup as unknown as typeof dns.lookup }),
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400 && response.headers.location) {
            response.resume();
            resolve(new URL(response.headers.location, target).href);
            return;
          }
          if (status !== 200) {
            response.resume();
            reject(new MediaFetchError(`the old site answered ${status} for ${current}`));
            return;
          }
          const declared = Number(response.headers["content-length"]);
          if (Number.isFinite(declared) && declared > options.maxBytes) {
            response.destroy();
            reject(new MediaFetchError(`${current} is larger than ${Math.round(options.maxBytes / 1_000_000)} MB: not imported`));
            return;
          }
          let seen = 0;
          const limit = new Transform({
            transform(chunk: Buffer, _encoding, done) {
              seen += chunk.length;
              if (seen > options.maxBytes) done(new MediaFetchError(`${current} is larger than ${Math.round(options.maxBytes / 1_000_000)} MB: not imported`));
              else done(null, chunk);
            },
          });
          pipeline(response, limit, createWriteStream(dest, { mode: 0o600 })).then(() => resolve(null), reject);
        },
      );
      request.on("error", (error) => reject(error instanceof MediaFetchError ? error : new MediaFetchError(`${current} could not be fetched: ${signal.aborted ? "timed out" : error.message}`)));
    });
    if (next === null) return;
    current = next;
  }
  throw new MediaFetchError(`${url} redirects more than ${MAX_REDIRECTS} times: not fetched`);
}

/**
 * Where an old upload's address is in a folder of the old site's uploads, when it is there: the part
 * of the path after `wp-content/uploads/` (or `content/images/` for Ghost), looked up in the folder
 * itself, its `wp-content/uploads` and its `uploads`. Never outside the folder.
 */
export async function findInMediaDir(mediaDir: string, url: string): Promise<string | null> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, "http://old.invalid").pathname);
  } catch {
    return null;
  }
  const match = /\/(?:wp-content\/uploads|content\/images)\/(.+)$/.exec(pathname);
  const rest = match ? match[1]! : pathname.replace(/^\/+/, "");
  const root = path.resolve(mediaDir);
  for (const base of [root, path.join(root, "wp-content", "uploads"), path.join(root, "uploads"), path.join(root, "content", "images")]) {
    const candidate = path.resolve(base, rest);
    if (!candidate.startsWith(root + path.sep)) continue;
    const stat = await fs.stat(candidate).catch(() => null);
    if (stat?.isFile()) return candidate;
  }
  return null;
}

export interface MediaImporterOptions {
  db: Db;
  storage: Storage;
  /** The import's source key (imported_rows.source). */
  source: string;
  mediaDir: string | null;
  allowPrivateHosts: boolean;
  timeoutMs?: number;
}

export type ImportedImage = { ok: true; url: string } | { ok: false; reason: string };

/**
 * Imports images by their old address, each once: a second request for the same address (in this run
 * or a later one: imported_rows) answers the stored image's URL.
 */
export function createMediaImporter(options: MediaImporterOptions) {
  const { db, storage, source } = options;
  const seen = new Map<string, Promise<ImportedImage>>();
  const rule = UPLOAD_RULES.image;

  // What earlier runs of this source imported, read once (a first import reads nothing).
  let imported: Promise<Map<string, string>> | null = null;
  const importedBefore = () =>
    (imported ??= db
      .select({ url: importedRows.sourceId, path: importedRows.targetPath })
      .from(importedRows)
      .where(and(eq(importedRows.source, source), eq(importedRows.sourceType, "media")))
      .then((rows) => new Map(rows.filter((r) => r.path).map((r) => [r.url, r.path!]))));

  async function importOne(url: string): Promise<ImportedImage> {
    const known = (await importedBefore()).get(url);
    if (known) return { ok: true, url: known };

    const tempFile = await newUploadPart(storage);
    try {
      // With a folder of the old site's uploads, images come from there only (an export moved with
      // its files, perhaps where the old site no longer answers); without one, from the web.
      const local = options.mediaDir ? await findInMediaDir(options.mediaDir, url) : null;
      if (options.mediaDir && !local) return { ok: false, reason: `${url} is not in the media folder ${options.mediaDir}` };
      if (local) {
        const stat = await fs.stat(local);
        if (stat.size > rule.maxBytes) return { ok: false, reason: `${url} is larger than ${Math.round(rule.maxBytes / 1_000_000)} MB: not imported` };
        await fs.copyFile(local, tempFile);
        await fs.chmod(tempFile, 0o600);
      } else {
        await downloadFile(url, tempFile, { maxBytes: rule.maxBytes, allowPrivateHosts: options.allowPrivateHosts, timeoutMs: options.timeoutMs });
      }
      const originalName = path.basename(new URL(url, "http://old.invalid").pathname) || "image";
      const stored = await storeCheckedUpload({ db, storage, kind: "image", source: "import", tempFile, originalName });
      await db
        .insert(importedRows)
        .values({ source, sourceType: "media", sourceId: url, targetId: stored.name, targetPath: stored.url })
        .onConflictDoNothing();
      return { ok: true, url: stored.url };
    } catch (error) {
      if (error instanceof MediaFetchError) return { ok: false, reason: error.message };
      if (isAppError(error)) return { ok: false, reason: `${url}: ${error.message}` };
      throw error;
    } finally {
      await fs.rm(tempFile, { force: true });
    }
  }

  return {
    /** The image at this old address, imported (or why it could not be). */
    image(url: string): Promise<ImportedImage> {
      let pending = seen.get(url);
      if (!pending) {
        pending = importOne(url);
        seen.set(url, pending);
      }
      return pending;
    },
  };
}

export type MediaImporter = ReturnType<typeof createMediaImporter>;
