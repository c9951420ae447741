import { rootDataFromMatches } from "~/root";
import { buildMeta, type SeoInput } from "~/lib/seo";

/** A route's meta tags, with the site name and canonical origin from the root loader. */
export function pageMeta(matches: readonly ({ id: string; data?: unknown } | undefined)[], page: SeoInput) {
  const root = rootDataFromMatches(matches);
  return buildMeta(page, root && { ...root.settings, publicUrl: root.publicUrl });
}

/** The answer headers of a preview (back office or shared link): never stored by a browser or a proxy, never indexed. */
export const PREVIEW_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" };

/** The meta tags of a preview: the page's own, and never indexed. */
export function previewMeta(matches: Parameters<typeof pageMeta>[0], page: SeoInput) {
  return [...pageMeta(matches, page), { name: "robots", content: "noindex, nofollow" }];
}
