import { data } from "react-router";
import { z } from "zod";
import { getArticleViews } from "~/domain/articles/articles.server";
import { isCountedPath } from "~/lib/path-classes";
import { articleSlugFromPath } from "~/lib/view-recorder.server";
import type { Route } from "./+types/views";

const beaconSchema = z.object({
  path: z
    .string()
    .min(1)
    .max(2048)
    // What location.pathname + location.search hold: printable ASCII (anything else is percent-encoded).
    .regex(/^\/[!-~]*$/, "path must start with / and hold printable ASCII only"),
});

/**
 * The live count of a page (the article's views, buffered ones included), which a cached page shows
 * once loaded. It counts nothing: loads are counted where they arrive (server/request-handler.ts).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw data({ error: "Method not allowed" }, { status: 405 });
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return data({ error: "Send JSON: { path }" }, { status: 400 });
  }
  const parsed = beaconSchema.safeParse(body);
  if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
  const { path } = parsed.data;
  if (!isCountedPath(path)) return data({ path }, { headers: { "Cache-Control": "no-store" } });
  const slug = articleSlugFromPath(path);
  if (!slug) return data({ path }, { headers: { "Cache-Control": "no-store" } });
  const views = (await context.views.liveViews(slug, () => getArticleViews(context.db, slug))) ?? undefined;
  return data({ path, views }, { headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  throw data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
