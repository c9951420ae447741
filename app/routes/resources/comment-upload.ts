import { data } from "react-router";
import { clientIpOf } from "~/lib/client-address.server";
import { takeAllowance, type LimitRule } from "~/lib/rate-limit.server";
import { UploadError, receiveUpload } from "~/lib/uploads.server";
import type { Route } from "./+types/comment-upload";

/**
 * Anyone may attach files to comments, up to 100 MB each: an address may upload this many an hour,
 * so no single client can fill the disk (abandoned uploads are pruned after a few hours).
 */
export const COMMENT_UPLOAD_LIMIT: LimitRule = {
  bucket: "comment-upload",
  max: 10,
  windowMs: 60 * 60 * 1000,
  refusal: "You have uploaded many files in a short time.",
};

/**
 * POST /api/uploads/comment?kind=image|video — a reader's comment attachment (multipart field "file").
 * Answers 201 { url } or 4xx { error } with the reason.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  const kind = new URL(request.url).searchParams.get("kind");
  if (kind !== "image" && kind !== "video") {
    return data({ error: "Choose an image or a video to attach." }, { status: 400 });
  }
  const allowance = await takeAllowance(context.db, COMMENT_UPLOAD_LIMIT, clientIpOf(request));
  if (allowance.limited) {
    return data({ error: allowance.message }, { status: 429, headers: { "Retry-After": String(allowance.retryAfterSeconds) } });
  }
  try {
    const stored = await receiveUpload({ request, db: context.db, storage: context.storage, kind, source: "comment" });
    return data({ url: stored.url, contentType: stored.contentType }, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (error instanceof UploadError) return data({ error: error.message }, { status: error.status });
    context.log.error({ err: error }, "comment upload failed");
    return data({ error: "The upload failed. Please try again." }, { status: 500 });
  }
}

export function loader() {
  return data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
