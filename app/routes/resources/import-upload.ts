import { data, redirect } from "react-router";
import { actorOf } from "~/domain/accounts/actor";
import { requireCapabilityApi } from "~/domain/accounts/guard.server";
import { uploadExport } from "~/domain/import/import-admin.server";
import { AppError, isAppError } from "~/lib/app-error";
import { refuse } from "~/lib/forms";
import type { Route } from "./+types/import-upload";

const NO_STORE = { "Cache-Control": "no-store" };

/** A browser's form without JavaScript is led back to the screen; the screen's script and programs get JSON. */
const wantsJson = (request: Request) => (request.headers.get("accept") ?? "").includes("application/json");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapabilityApi(request, context, "import.run");
  return refuse(new AppError("method_not_allowed", "Use POST to upload an export."), undefined, { headers: { ...NO_STORE, Allow: "POST" } });
}

/**
 * POST /api/admin/imports (multipart field "file"): a WordPress or Ghost export, received into
 * DATA_DIR/imports and its dry run queued. 201 { id, url } (url: the import screen showing it); a file
 * that is not an export, empty or too large: 400/413 { error }. Admins only.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireCapabilityApi(request, context, "import.run");
  try {
    const id = await uploadExport(context.db, context.storage, context.env.dataDir, request, actorOf(user));
    context.log.info({ importId: id, userId: user.id }, "export uploaded: dry run queued");
    const url = `/admin/import?id=${id}`;
    if (!wantsJson(request)) return redirect(url, { status: 303, headers: NO_STORE });
    return data({ id, url }, { status: 201, headers: NO_STORE });
  } catch (error) {
    if (!wantsJson(request) && isAppError(error)) {
      return redirect(`/admin/import?refused=${encodeURIComponent(error.message)}`, { status: 303, headers: NO_STORE });
    }
    return refuse(error, undefined, { headers: NO_STORE });
  }
}
