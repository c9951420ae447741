import { tooLargeMessage, type UploadRule } from "~/lib/upload-rules";

/** The least every upload endpoint answers with: the stored file's public URL. */
export interface UploadAnswer {
  url: string;
}

/** The answer of POST /api/admin/uploads/:kind. */
export interface UploadedFile extends UploadAnswer {
  name: string;
  originalName: string;
  contentType: string;
  size: number;
}

/**
 * Browser side of every upload: refuses a file over `rule`'s limit before sending it (the server
 * checks again), posts it as the multipart field "file" to `endpoint`, and resolves with the JSON
 * answer, or rejects with an Error carrying the server's message.
 */
export async function sendUpload<T extends UploadAnswer = UploadAnswer>(endpoint: string, file: File, rule: UploadRule): Promise<T> {
  if (file.size > rule.maxBytes) throw new Error(tooLargeMessage(rule));
  const body = new FormData();
  body.append("file", file);
  let response: Response;
  try {
    response = await fetch(endpoint, { method: "POST", body, credentials: "same-origin" });
  } catch {
    throw new Error("The upload could not reach the server. Check your connection and try again.");
  }
  const result = (await response.json().catch(() => null)) as (Partial<T> & { error?: string }) | null;
  if (!response.ok || !result?.url) {
    throw new Error(result?.error || `The upload failed (HTTP ${response.status}).`);
  }
  return result as T;
}
