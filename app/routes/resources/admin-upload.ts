import { data } from "react-router";
import { requireAdminApi } from "~/domain/accounts/guard.server";
import { UPLOAD_RULES, type UploadKind } from "~/lib/upload-rules";
import { rasteriseSvgLogo } from "~/domain/media/media.server";
import { receiveUpload, UploadError } from "~/lib/uploads.server";
import type { Route } from "./+types/admin-upload";

const NO_STORE = { "Cache-Control": "no-store" };

function isUploadKind(kind: string): kind is UploadKind {
  return Object.hasOwn(UPLOAD_RULES, kind);
}

/** Uploads are POST only; a GET of this URL is refused (after the guard, so nothing leaks). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminApi(request, context);
  return data({ error: "Use POST to upload a file." }, { status: 405, headers: { ...NO_STORE, Allow: "POST" } });
}

/**
 * POST /api/admin/uploads/:kind (image | video | file | logo | favicon), multipart field "file".
 * 201 { url, name, originalName, contentType, size }, or { error } with 400 / 413 / 415.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  await requireAdminApi(request, context);
  if (request.method !== "POST") {
    return data({ error: "Use POST to upload a file." }, { status: 405, headers: { ...NO_STORE, Allow: "POST" } });
  }
  const kind = params.kind;
  if (!isUploadKind(kind)) {
    await request.body?.cancel().catch(() => {});
    return data(
      { error: "Unknown upload kind. Use image, video, file, logo or favicon." },
      { status: 400, headers: NO_STORE },
    );
  }
  try {
    const stored = await receiveUpload({
      request,
      db: context.db,
      storage: context.storage,
      kind,
      source: kind === "logo" || kind === "favicon" ? "branding" : "library",
      transform: kind === "logo" ? rasteriseSvgLogo : undefined,
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
    if (error instanceof UploadError) {
      return data({ error: error.message }, { status: error.status, headers: NO_STORE });
    }
    context.log.error({ err: error, kind }, "admin upload failed");
    return data({ error: "The file could not be stored. Please try again." }, { status: 500, headers: NO_STORE });
  }
}
