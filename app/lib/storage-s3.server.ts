import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AwsClient } from "aws4fetch";
import { assertSafeName, type Storage, type StoredBucket } from "./storage.server";

export interface S3Options {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, R2, …); path-style addressing. Omit for AWS itself. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A public origin (CDN) serving the bucket; media requests are redirected there when set. */
  publicUrl?: string;
}

/**
 * The S3-compatible media store, for several app processes sharing one bucket. Object keys are
 * `<images|videos|files>/<generated name>`, and `imports/<generated name>` for exports waiting for their
 * import (never linked: with S3_PUBLIC_URL the bucket is public, and a name is a random UUID, removed
 * once imported). Browser URLs stay `/media/<bucket>/<name>`: the media
 * route proxies them (with ranges) or redirects to S3_PUBLIC_URL, so stored links never change with
 * the driver.
 */
export function createS3Storage(options: S3Options): Storage {
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    region: options.region,
    service: "s3",
  });
  const base = options.endpoint
    ? `${options.endpoint.replace(/\/+$/, "")}/${options.bucket}`
    : `https://${options.bucket}.s3.${options.region}.amazonaws.com`;
  const objectUrl = (bucket: StoredBucket, name: string) => {
    assertSafeName(name);
    return `${base}/${bucket}/${encodeURIComponent(name)}`;
  };
  const tempDir = path.join(os.tmpdir(), "frontpage-uploads");

  async function check(response: Response, what: string) {
    if (response.ok) return response;
    const detail = (await response.text().catch(() => "")).slice(0, 300);
    throw new Error(`S3 ${what} failed: HTTP ${response.status} ${detail}`);
  }

  return {
    tempDir,
    async put(bucket, name, tempFile, contentType) {
      try {
        const body = await fs.readFile(tempFile);
        const headers: Record<string, string> = {
          "Content-Type": contentType,
          "Cache-Control": "public, max-age=31536000, immutable",
        };
        if (bucket === "files") headers["Content-Disposition"] = `attachment; filename="${name}"`;
        await check(await client.fetch(objectUrl(bucket, name), { method: "PUT", body, headers }), `upload of ${name}`);
      } finally {
        await fs.rm(tempFile, { force: true });
      }
    },
    async delete(bucket, name) {
      const response = await client.fetch(objectUrl(bucket, name), { method: "DELETE" });
      if (response.status !== 404) await check(response, `delete of ${name}`);
    },
    async exists(bucket, name) {
      const response = await client.fetch(objectUrl(bucket, name), { method: "HEAD" });
      if (response.status === 404) return false;
      await check(response, `lookup of ${name}`);
      return true;
    },
    publicUrl(bucket, name) {
      return `/media/${bucket}/${encodeURIComponent(name)}`;
    },
    localPath() {
      return null;
    },
    cdnUrl(bucket, name) {
      return options.publicUrl ? `${options.publicUrl.replace(/\/+$/, "")}/${bucket}/${encodeURIComponent(name)}` : null;
    },
    async fetchObject(bucket, name, range) {
      const response = await client.fetch(objectUrl(bucket, name), { method: "GET", headers: range ? { Range: range } : {} });
      if (response.status === 404) return null;
      return check(response, `download of ${name}`);
    },
  };
}
