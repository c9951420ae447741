import { data } from "react-router";
import { READER_UPLOAD_SOURCE } from "~/domain/media/media-publish.schema";
import { AppError } from "~/lib/app-error";
import { clientIpOf } from "~/lib/client-address.server";
import { expectedOr, refuse } from "~/lib/forms";
import { takeAllowance, type LimitRule } from "~/lib/rate-limit.server";
import { receiveUpload } from "~/lib/uploads.server";
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
 * Answers 201 { url } or a refusal (4xx { ok: false, code, error }) with the reason.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return loader();
  const kind = new URL(request.url).searchParams.get("kind");
  if (kind !== "image" && kind !== "video") return refuse(new AppError("invalid_input", "Choose an image or a video to attach."));
  const allowance = await takeAllowance(context.db, COMMENT_UPLOAD_LIMIT, clientIpOf(request));
  if (allowance.limited) {
    return refuse(new AppError("rate_limited", allowance.message), undefined, { headers: { "Retry-After": String(allowance.retryAfterSeconds) } });
  }
  try {
    const stored = await receiveUpload({ request, db: context.db, storage: context.storage, kind, source: READER_UPLOAD_SOURCE });
    return data({ url: stored.url, contentType: stored.contentType }, { status: 201, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return refuse(expectedOr(error, "The upload failed. Please try again.", (err) => context.log.error({ err }, "comment upload failed")));
  }
}

export function loader() {
  return refuse(new AppError("method_not_allowed", "Method not allowed"), undefined, { headers: { Allow: "POST" } });
}
