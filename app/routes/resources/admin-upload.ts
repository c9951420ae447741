import { data } from "react-router";
import { requireCapabilityApi } from "~/domain/accounts/guard.server";
import { actorOf } from "~/domain/accounts/actor";
import { can } from "~/domain/accounts/roles";
import { recordActivity } from "~/domain/activity/activity.server";
import { rasteriseSvgLogo } from "~/domain/media/media.server";
import { AppError } from "~/lib/app-error";
import { expectedOr, refuse } from "~/lib/forms";
import { UPLOAD_RULES, type UploadKind } from "~/lib/upload-rules";
import { receiveUpload } from "~/lib/uploads.server";
import type { Route } from "./+types/admin-upload";

const NO_STORE = { "Cache-Control": "no-store" };

function isUploadKind(kind: string): kind is UploadKind {
  return Object.hasOwn(UPLOAD_RULES, kind);
}

const POST_ONLY = () => new AppError("method_not_allowed", "Use POST to upload a file.");

/** Uploads are POST only; a GET of this URL is refused (after the guard, so nothing leaks). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapabilityApi(request, context, "media.upload");
  return refuse(POST_ONLY(), undefined, { headers: { ...NO_STORE, Allow: "POST" } });
}

/**
 * POST /api/admin/uploads/:kind (image | video | file | logo | favicon), multipart field "file".
 * 201 { url, name, originalName, contentType, size }, or a refusal ({ ok: false, code, error }) with 400 / 413 / 415.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireCapabilityApi(request, context, "media.upload");
  if (request.method !== "POST") return refuse(POST_ONLY(), undefined, { headers: { ...NO_STORE, Allow: "POST" } });
  const kind = params.kind;
  try {
    if (!isUploadKind(kind)) {
      await request.body?.cancel().catch(() => {});
      throw new AppError("invalid_input", "Unknown upload kind. Use image, video, file, logo or favicon.");
    }
    // The site's logo and favicon are settings: an admin's.
    if ((kind === "logo" || kind === "favicon") && !can(user.role, "settings.manage")) {
      await request.body?.cancel().catch(() => {});
      throw new AppError("forbidden", "Your role cannot change the site's logo or favicon.");
    }
    const stored = await receiveUpload({
      request,
      db: context.db,
      storage: context.storage,
      kind,
      source: kind === "logo" || kind === "favicon" ? "branding" : "library",
      transform: kind === "logo" ? rasteriseSvgLogo : undefined,
    });
    // The audit trail (decision 0017); the file's row was written by receiveUpload just before.
    await recordActivity(context.db, actorOf(user), {
      kind: "media.upload",
      objectType: "media",
      objectId: `${stored.url}`,
      objectLabel: stored.originalName,
      details: { kind, size: stored.size, contentType: stored.contentType },
    });
    return data(
      {
        url: stored.url,
        name: stored.name,
        originalName: stored.originalName,
        contentType: stored.contentType,
        size: stored.size,
      },
      { status: 201, headers: NO_STORE },
    );
  } catch (error) {
    const refusal = expectedOr(error, "The file could not be stored. Please try again.", (err) => context.log.error({ err, kind }, "admin upload failed"));
    return refuse(refusal, undefined, { headers: NO_STORE });
  }
}
