import { UPLOAD_RULES, type UploadKind } from "~/domain/media/media.schema";

/** The answer of POST /api/admin/uploads/:kind. */
export interface UploadedFile {
  url: string;
  name: string;
  originalName: string;
  contentType: string;
  size: number;
}

/**
 * Sends one file to the admin upload endpoint and resolves with the stored file, or rejects with the
 * server's message. A file over the limit is refused before it is sent (the server checks again).
 */
export async function uploadAdminFile(kind: UploadKind, file: File): Promise<UploadedFile> {
  const rule = UPLOAD_RULES[kind];
  if (file.size > rule.maxBytes) throw new Error(`${rule.label} is larger than the ${rule.maxLabel} limit.`);
  const body = new FormData();
  body.append("file", file);
  let response: Response;
  try {
    response = await fetch(`/api/admin/uploads/${kind}`, { method: "POST", body, credentials: "same-origin" });
  } catch {
    throw new Error("The upload could not reach the server. Check your connection and try again.");
  }
  const result = (await response.json().catch(() => null)) as (UploadedFile & { error?: string }) | null;
  if (!response.ok || !result?.url) {
    throw new Error(result?.error ?? `The upload failed (HTTP ${response.status}).`);
  }
  return result;
}
