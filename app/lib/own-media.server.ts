import type { Bucket, Storage } from "./storage.server";

const SAFE_NAME = /^[a-z0-9][a-z0-9.-]{0,120}$/i;

/**
 * True when `url` is the public URL of a file in our own media store's bucket with an accepted
 * extension, and that file exists. (Nothing else may be saved as an article's image or video.)
 */
export async function isOwnMediaUrl(storage: Storage, bucket: Bucket, url: string, extensions: readonly string[]) {
  const lastSlash = url.lastIndexOf("/");
  if (lastSlash === -1) return false;
  let name: string;
  try {
    name = decodeURIComponent(url.slice(lastSlash + 1));
  } catch {
    return false;
  }
  if (!SAFE_NAME.test(name) || name.includes("..")) return false;
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  if (!name.includes(".") || !extensions.includes(ext)) return false;
  if (storage.publicUrl(bucket, name) !== url) return false;
  return storage.exists(bucket, name);
}
