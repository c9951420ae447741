import { rootDataFromMatches } from "~/root";
import { buildMeta, type SeoInput } from "~/lib/seo";

/** A route's meta tags, with the site name and canonical origin from the root loader. */
export function pageMeta(matches: readonly ({ id: string; data?: unknown } | undefined)[], page: SeoInput) {
  const root = rootDataFromMatches(matches);
  return buildMeta(page, root && { ...root.settings, publicUrl: root.publicUrl });
}
