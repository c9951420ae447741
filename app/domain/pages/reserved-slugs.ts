import { OTHER_PATH_CLASSES, ROUTE_PATH_CLASSES } from "~/lib/path-classes";

/**
 * The first path segments the site itself answers, so no page may take them as its slug (issue 29,
 * decision 0039): every route of app/routes.ts (ROUTE_PATH_CLASSES names each one: a test holds them
 * equal) and what the server answers before routing (OTHER_PATH_CLASSES: media, assets, healthz,
 * metrics, …; server/server-addresses.test.ts reads the server's code for addresses missing there),
 * plus the files of public/ at the top level (with their names' stems: /favicon is nobody's page
 * either), plus NOT_FOR_PAGES. One list: a new top-level route is reserved by being named in the path
 * table, as it must be anyway.
 */
const PUBLIC_FILES = ["favicon.png", "favicon.ico", "apple-touch-icon.png", "share-default.png"];

/**
 * Addresses no route answers that a page must not have all the same (issue 39): the folders the
 * server's files come from (build/client holds public/'s files; the development server answers a
 * project file by its path), and WordPress's own addresses, which a site moved from WordPress still
 * gets asked for (old links, editors' bookmarks, scanners all day): a page there would answer them all.
 */
const NOT_FOR_PAGES = ["build", "public", "wp-admin", "wp-login.php", "wp-content", "wp-includes", "wp-json", "xmlrpc.php"];

function firstSegments(patterns: readonly string[]): string[] {
  return patterns
    .map((pattern) => pattern.replace(/^\/+/, "").split("/")[0]!.toLowerCase())
    .filter((segment) => segment !== "" && !segment.startsWith(":") && segment !== "*");
}

/** A file name's stem ("sitemap.xml" → "sitemap"), or the name itself. */
const stem = (name: string) => name.replace(/\.[^.]*$/, "");

const FIRST_SEGMENTS = [...firstSegments(Object.keys(ROUTE_PATH_CLASSES)), ...firstSegments(Object.keys(OTHER_PATH_CLASSES)), ...PUBLIC_FILES, ...NOT_FOR_PAGES];

/** Every reserved slug, sorted (the admin form names a few; tests read them all). */
export const RESERVED_SLUGS: readonly string[] = [...new Set([...FIRST_SEGMENTS, ...FIRST_SEGMENTS.map(stem)])].sort();

const RESERVED = new Set(RESERVED_SLUGS);

/**
 * Whether a page may not have this slug: the site's own routes and files use it. React Router's data
 * URLs ("/about.data") and React Router's own "_root.data" are covered: a slug has no dot, and "_" is no slug.
 */
export function isReservedSlug(slug: string): boolean {
  return RESERVED.has(slug.trim().toLowerCase());
}
