import path from "node:path";
import type { Env } from "./env.server";
import { createS3Storage } from "./storage-s3.server";
import { createLocalStorage, type Storage } from "./storage.server";

/** The media store the configuration names: the S3 bucket of S3_BUCKET, else DATA_DIR/media on local disk. */
export function storageFromEnv(env: Env): Storage {
  return env.S3_BUCKET
    ? createS3Storage({
        bucket: env.S3_BUCKET,
        region: env.S3_REGION,
        endpoint: env.S3_ENDPOINT,
        accessKeyId: env.S3_ACCESS_KEY_ID!,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
        publicUrl: env.S3_PUBLIC_URL,
      })
    : createLocalStorage(path.join(env.dataDir, "media"));
}
