import { rootDataFromMatches, type RootData } from "~/root";
import { buildMeta, PREVIEW_ROBOTS, type SeoInput } from "~/lib/seo";
import { breadcrumbJsonLd, type JsonLd, type SiteFacts } from "~/lib/structured-data";

type Matches = readonly ({ id: string; data?: unknown } | undefined)[];

/** What the structured data says about the site, from the root loader's settings. */
function siteFacts(root: RootData | undefined): SiteFacts {
  const settings = root?.settings;
  return {
    name: settings?.siteName ?? "Frontpage",
    origin: root?.publicUrl ?? "",
    description: settings?.siteDescription,
    logoUrl: settings?.logoUrl,
    sameAs: settings ? Object.values(settings.social) : [],
  };
}

/**
 * A route's meta tags, with the site name and canonical origin from the root loader. `structuredData`
 * gets the site's facts, so a page states only its own part of the JSON-LD; an indexable page that
 * states none (about, contact, the legal pages) gets its breadcrumb, Home → the page.
 */
export function pageMeta(matches: Matches, page: Omit<SeoInput, "structuredData"> & { structuredData?: (site: SiteFacts) => JsonLd[] }) {
  const root = rootDataFromMatches(matches);
  const { structuredData, ...rest } = page;
  const site = siteFacts(root);
  const blocks =
    structuredData?.(site) ??
    (page.title && !page.robots
      ? [
          breadcrumbJsonLd(site, [
            { name: "Home", path: "/" },
            { name: page.title, path: page.path },
          ]),
        ]
      : undefined);
  return buildMeta({ ...rest, structuredData: blocks }, root && { ...root.settings, publicUrl: root.publicUrl });
}

/** The answer headers of a preview (back office or shared link): never stored by a browser or a proxy, never indexed. */
export const PREVIEW_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": PREVIEW_ROBOTS };

/** The meta tags of a preview: the page's own, and never indexed. */
export function previewMeta(matches: Matches, page: SeoInput) {
  return pageMeta(matches, { ...page, structuredData: undefined, robots: PREVIEW_ROBOTS });
}

/** The meta tags of a back-office screen (and of an invitation's page): its title, never indexed. */
export function backOfficeMeta(matches: Matches, page: { title: string; path: string }) {
  return pageMeta(matches, { ...page, robots: PREVIEW_ROBOTS });
}
