import { data } from "react-router";
import { COMMENT_FIELDS, COMMENT_GUARD_FIELDS, type PostCommentResult } from "~/domain/comments/comments.schema";
import { postComment } from "~/domain/comments/comments.server";
import { AppError } from "~/lib/app-error";
import { clientIpOf } from "~/lib/client-address.server";
import { formValues, refuse } from "~/lib/forms";
import type { Route } from "./+types/article-comments";

/**
 * POST /api/articles/:slug/comments — the comment form's request (a form body). Answers
 * { ok: true } with 201, { ok: true, held: true } with 202 when it awaits moderation, or a refusal ({ ok: false, code, error }) with its status, so every failure reaches the
 * form as a toast instead of replacing the article with an error page.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return loader();
  const noStore = { "Cache-Control": "no-store" };
  try {
    const form = await request.formData().catch((cause: unknown) => {
      throw new AppError("unsupported_type", "Send the comment as a form.", { cause });
    });
    const values = formValues(form, [...COMMENT_FIELDS, ...COMMENT_GUARD_FIELDS]);
    const { held } = await postComment(context.db, context.log, params.slug, values, clientIpOf(request), context.commentSpam);
    // 202 for a comment held for moderation: accepted, not yet published.
    return data<PostCommentResult>(held ? { ok: true, held } : { ok: true }, { status: held ? 202 : 201, headers: noStore });
  } catch (error) {
    return refuse(error, undefined, { headers: noStore });
  }
}

export function loader() {
  return refuse(new AppError("method_not_allowed", "Method not allowed"), undefined, { headers: { Allow: "POST" } });
}
