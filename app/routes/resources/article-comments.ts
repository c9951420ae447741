import { data } from "react-router";
import { clientIpOf } from "~/lib/client-address.server";
import { postComment, type PostCommentResult } from "~/domain/comments/comments.server";
import type { Route } from "./+types/article-comments";

/**
 * POST /api/articles/:slug/comments — the comment form's request (a form body). Answers
 * { ok: true } with 201, or { ok: false, error } with the status, so every failure reaches the
 * form as a toast instead of replacing the article with an error page.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return data({ ok: false, error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data<PostCommentResult>({ ok: false, error: "Send the comment as a form." }, { status: 415 });
  }
  const { status, result } = await postComment(context.db, context.log, params.slug, Object.fromEntries(form), clientIpOf(request));
  return data(result, { status, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
