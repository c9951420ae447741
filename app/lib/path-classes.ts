/**
 * One table of the site's URL rules. Every path belongs to one class, and the class carries every rule
 * the server (page cache, body limit, form check, admin gate, Cache-Control, cache clearing) and the
 * view counting apply to it, so a new route gets its rules by being named here, once.
 *
 * No Node imports and nothing from app/domain, but kept out of the reader's scripts (they would carry
 * every route's rules): the browser asks React Router's matches instead.
 */

/** Who must be an admin before a request reaches routing (every route still calls its own guard). */
export type AdminGate =
  /** Nobody is checked here. */
  | "none"
  /** Methods other than GET/HEAD: a screen's reads redirect to the login page from its own guard. */
  | "state-changes"
  /** Every request, whatever its method: resources answer 401/403, never a redirect. */
  | "everything";

/** How answers of the class are kept out of browser and shared caches. */
export type PersonalAnswers =
  /** Every answer leaves with exactly `no-store` (an event stream: `no-store, no-transform`). */
  | "always"
  /** A GET/HEAD carrying a session cookie is rendered for its holder: `private, no-store` unless the route set its own Cache-Control. */
  | "when-signed-in"
  /** Express answers these itself (static files, health): their own Cache-Control, or none. */
  | "never";

export interface PathRules {
  /** Anonymous GET/HEAD answers may be kept in the page cache (a public 200 is stored). */
  cacheable: boolean;
  /** A beacon naming this path counts a page view (the back office's screens are no site traffic). */
  countedAsPageView: boolean;
  personal: PersonalAnswers;
  adminGate: AdminGate;
  /** "4mb": the form/JSON limit (MAX_BODY_BYTES); "route": the route streams and enforces its own (uploads). */
  bodyLimit: "4mb" | "route";
  /**
   * A successful write here may change what reader pages show: `true` waits until this process has
   * heard the database's change notices, which drop the pages the write touched (decision 0028);
   * "its article" marks stale the pages of the article the path names (a comment: decision 0024).
   */
  changesPages: boolean | "its article";
  /** Page actions read request.formData(): another body type is refused with 415 before routing. */
  formsOnly: boolean;
  /**
   * A state change (any method but GET, HEAD, OPTIONS) carrying a session cookie must name this site in
   * Origin or Referer, or it is refused with 403 (issue 28). Browsers send one with every such request,
   * so only a program holding someone's cookie sends neither. Where it is false, a signed-in program
   * may call without (a foreign origin is refused everywhere: server/middleware/same-origin.ts).
   */
  signedInChangesNameTheSite: boolean;
  /**
   * The page's head names its script files (`<link rel="modulepreload">`), so they load before the page
   * has been read through: the back office, whose screens are worth nothing until they run. A reader
   * page leaves them out (decision 0029): a phone's connection fetches the stylesheet and the lead
   * image first, and the scripts from the module script at the end of the page.
   */
  preloadsScripts: boolean;
}

/** The rules most public paths share: nothing cached or gated, counted as traffic, personal only when signed in. */
const publicRules = { cacheable: false, countedAsPageView: true, personal: "when-signed-in", adminGate: "none", bodyLimit: "4mb", changesPages: false, formsOnly: true, signedInChangesNameTheSite: true, preloadsScripts: false } as const;
/** The back office's rules: never cached, never counted, always no-store. */
const adminRules = { cacheable: false, countedAsPageView: false, personal: "always", bodyLimit: "4mb", signedInChangesNameTheSite: true, preloadsScripts: true } as const;

/** The classes and their rules. */
export const PATH_CLASSES = {
  /** The back office's screens and their data URLs. */
  "admin page": { ...adminRules, adminGate: "state-changes", changesPages: true, formsOnly: true },
  /** The sign-in screen: open to all, but what it answers is personal. */
  "admin login": { ...adminRules, adminGate: "none", changesPages: false, formsOnly: true },
  /** Admin resource routes (the event stream, and anything else under /api/admin). */
  "admin API": { ...adminRules, adminGate: "everything", changesPages: true, formsOnly: false },
  /** Admin uploads: streamed, with each kind's own size limit. */
  "admin upload": { ...adminRules, bodyLimit: "route", adminGate: "everything", changesPages: true, formsOnly: false },
  /** Better Auth's endpoints (sign-in, sign-up, session, e-mail confirmation). */
  "auth API": { ...publicRules, personal: "always", formsOnly: false },
  /** The header's sign-out form. */
  "sign-out": { ...publicRules, personal: "always" },
  /** A reader's comment attachment: streamed, with its kind's own limit; a page changes only when the comment is posted. */
  "comment upload": { ...publicRules, bodyLimit: "route", formsOnly: false },
  /**
   * The page-view beacon: counts are not part of a cached page's freshness (the beacon answers the live
   * count). Programs call it (the live count), and a count is no change of anyone's: no origin needed.
   */
  "view beacon": { ...publicRules, formsOnly: false, signedInChangesNameTheSite: false },
  /** Public API calls, and anything else under /api that no route names. */
  "public API": { ...publicRules, changesPages: true, formsOnly: false },
  /**
   * A mail service's notifications (SES bounces and complaints through SNS): JSON sent as text/plain by
   * a program with no session or Origin, proved by its signature; it changes subscribers, no page.
   */
  "mail notifications": { ...publicRules, personal: "always", formsOnly: false, signedInChangesNameTheSite: false },
  /**
   * Stripe's webhook (issue 40): JSON posted by Stripe with no session or Origin, proved by its
   * signature (the route reads the raw body); it changes members, no page.
   */
  "payment notifications": { ...publicRules, personal: "always", formsOnly: false, signedInChangesNameTheSite: false },
  /**
   * /subscribe (issue 40): the tiers, a cached reader page with no personal data (a tier change drops
   * it: TIERS_TAG); its POST (a tier chosen) sends the reader to sign in or to Checkout and changes no page.
   */
  "subscribe page": { ...publicRules, cacheable: true },
  /**
   * A member's own billing pages (issue 40): the return from Checkout, the link to the Customer Portal.
   * Personal (no-store), never cached.
   */
  "member billing": { ...publicRules, personal: "always" },
  /** Posting a comment (JSON form): it changes its article's page only. */
  "comment post": { ...publicRules, changesPages: "its article", formsOnly: false },
  /** RSS, sitemap, robots.txt: public documents, cached like pages. */
  feed: { ...publicRules, cacheable: true, changesPages: true },
  /** The reader site's pages (and the 404 page), HTML and client-navigation data alike. */
  "reader page": { ...publicRules, cacheable: true, changesPages: true },
  /** An article page: a reader page whose only write is a comment posted without JavaScript (its own page changes). */
  "article page": { ...publicRules, cacheable: true, changesPages: "its article" },
  /**
   * Site search's result pages: reader pages, but never kept in the page cache (every query would be a
   * new entry, and a stranger could fill the cache with them).
   */
  "search page": { ...publicRules },
  /** Uploaded files, served by Express (server/media-route.ts); a miss falls through to the 404 page. */
  media: { ...publicRules },
  /** The build's hashed assets, served by Express (immutable, precompressed). */
  assets: { ...publicRules, personal: "never" },
  /** A draft's preview through a signed link: public, but personal (no-store), never cached or counted, nothing changed by it. */
  "shared preview": { ...publicRules, personal: "always", countedAsPageView: false },
  /**
   * /newsletter (issue 30): a reader page in the page cache; its POST (every sign-up form's) is one
   * reader's answer, and changes no page.
   */
  "newsletter page": { ...publicRules, cacheable: true },
  /**
   * A newsletter subscriber's own signed links (confirm, preferences, unsubscribe; an e-mail's open
   * pixel and click redirect) and a digest's page in the browser: personal (no-store), never cached or
   * counted. The one-click unsubscribe (RFC 8058) is a mail provider's POST with no
   * cookie, Origin or Referer: accepted as any anonymous POST is, and by a signed-in program too.
   */
  "subscriber link": { ...publicRules, personal: "always", countedAsPageView: false, signedInChangesNameTheSite: false },
  /**
   * An ad's click (issue 43): `/ads/click/{token}`, counted once per token, reader and day, then 302 to
   * the advertiser. Nobody's own page and no page view; never cached (each click must reach us).
   */
  "ad link": { ...publicRules, personal: "always", countedAsPageView: false, signedInChangesNameTheSite: false },
  /**
   * A live story's reader stream (issue 31): server-sent events answered before Express
   * (server/live-door.ts). Never cached (no-store, no-transform), not a page view (the page was
   * counted), and it changes nothing.
   */
  "live stream": { ...publicRules, personal: "always", countedAsPageView: false, formsOnly: false, signedInChangesNameTheSite: false },
  /**
   * A reader's own account (issue 40): the sign-in by e-mail link, /account and its forms. Personal
   * (no-store whoever asks: a signed-out visitor's sign-in form too), never cached, counted or indexed;
   * its state changes name the site when signed in (a member's session counts: server/middleware/same-origin.ts).
   */
  "member account": { ...publicRules, personal: "always", countedAsPageView: false },
  /** The health check, answered by Express. */
  health: { ...publicRules, personal: "never" },
  /**
   * The public port's /metrics (decision 0047): answered before Express to the METRICS_TOKEN bearer
   * (server/metrics/endpoint.ts); without a token it is the 404 page, never cached, never a page view.
   */
  metrics: { ...publicRules, personal: "always", countedAsPageView: false, formsOnly: false },
} as const satisfies Record<string, PathRules>;

export type PathClass = keyof typeof PATH_CLASSES;

/**
 * Every route path of app/routes.ts, exactly as written there ("/" for the index route), and its class.
 * A test walks the route table and fails for a route that is missing here.
 */
export const ROUTE_PATH_CLASSES = {
  "api/views": "view beacon",
  "api/audience/read": "view beacon",
  "api/ads/seen": "view beacon",
  "api/ads/fill": "view beacon",
  "ads/click/:token": "ad link",
  "api/uploads/comment": "comment upload",
  "api/articles/:slug/comments": "comment post",
  "api/newsletter/sns": "mail notifications",
  "api/stripe/webhook": "payment notifications",
  "sitemap.xml": "feed",
  "sitemaps/:file": "feed",
  "news-sitemap.xml": "feed",
  "robots.txt": "feed",
  "rss.xml": "feed",
  "category/:slug/rss.xml": "feed",
  "author/:slug/rss.xml": "feed",
  "tag/:slug/rss.xml": "feed",
  "article/:slug/rss.xml": "feed",
  "api/auth/*": "auth API",
  "auth/sign-out": "sign-out",
  "admin/login": "admin login",
  "admin/forgot-password": "admin login",
  "admin/reset-password": "admin login",
  "join/:token": "admin login",
  "api/admin/uploads/:kind": "admin upload",
  "api/admin/events": "admin API",
  "api/admin/articles/:id/preview-link": "admin API",
  "api/admin/imports": "admin upload",
  "api/admin/imports/:id/report": "admin API",
  "api/admin/redirects.csv": "admin API",
  "api/admin/subscribers.csv": "admin API",
  "api/admin/members.csv": "admin API",
  "preview/:token": "shared preview",
  "newsletter/open/:token": "subscriber link",
  "newsletter/click/:token": "subscriber link",
  "newsletter/view/:id": "subscriber link",
  admin: "admin page",
  "admin/articles": "admin page",
  "admin/articles/new": "admin page",
  "admin/articles/edit/:id": "admin page",
  "admin/articles/edit/:id/history": "admin page",
  "admin/articles/preview/:id": "admin page",
  "admin/articles/live/:id": "admin page",
  "admin/categories": "admin page",
  "admin/tags": "admin page",
  "admin/pages": "admin page",
  "admin/pages/new": "admin page",
  "admin/pages/edit/:id": "admin page",
  "admin/pages/edit/:id/history": "admin page",
  "admin/authors": "admin page",
  "admin/media": "admin page",
  "admin/comments": "admin page",
  "admin/settings": "admin page",
  "admin/redirects": "admin page",
  "admin/ads": "admin page",
  "admin/ads/advertisers/:id": "admin page",
  "admin/ads/campaigns/:id": "admin page",
  "admin/newsletters": "admin page",
  "admin/newsletters/:id": "admin page",
  "admin/subscribers": "admin page",
  "admin/members": "admin page",
  "admin/members/:id": "admin page",
  "admin/activity": "admin page",
  "admin/team": "admin page",
  "admin/profile": "admin page",
  "admin/notifications": "admin page",
  "admin/welcome": "admin page",
  "admin/front-page": "admin page",
  "admin/import": "admin page",
  "admin/members/tiers": "admin page",
  // Audience (issue 42): the screens, Right now's JSON and the CSV exports, read by their loaders' guards.
  "admin/audience": "admin page",
  "admin/audience/now": "admin page",
  "admin/audience/export": "admin page",
  "admin/audience/story/:id": "admin page",
  // Advertising's reports (issue 43): the screens and their CSV files, read by their loaders' guards (ads.manage).
  "admin/ads/campaigns/:id/report": "admin page",
  "admin/ads/campaigns/:id/report.csv": "admin page",
  "admin/ads/advertisers/:id/report": "admin page",
  "admin/ads/advertisers/:id/report.csv": "admin page",
  "/": "reader page",
  "category/:slug": "reader page",
  "article/:slug": "article page",
  "author/:slug": "reader page",
  "tag/:slug": "reader page",
  search: "search page",
  about: "reader page",
  contact: "reader page",
  disclaimer: "reader page",
  "cookie-policy": "reader page",
  "privacy-policy": "reader page",
  "terms-of-service": "reader page",
  newsletter: "newsletter page",
  subscribe: "subscribe page",
  "subscribe/return": "member billing",
  "newsletter/confirm/:token": "subscriber link",
  "newsletter/preferences/:token": "subscriber link",
  "newsletter/unsubscribe/:token": "subscriber link",
  account: "member account",
  "account/sign-in": "member account",
  "account/verify": "member account",
  "account/email": "member account",
  "account/delete": "member account",
  "account/billing": "member account",
  ":slug": "reader page",
  "*": "reader page",
} as const satisfies Record<string, PathClass>;

/**
 * Paths no route of app/routes.ts names. Express answers the first three before React Router, and
 * the public port's /metrics and a live story's stream are answered before Express
 * (server/metrics/endpoint.ts, server/live-door.ts): server/server-addresses.test.ts fails for an
 * address the server's code answers whose first segment no page is kept from (the reserved slugs,
 * app/domain/pages/reserved-slugs.ts, are read from here). The others would reach the 404 page ("*"),
 * but keep the rules of where they are: anything under /admin is gated like the back office, anything
 * under /api takes JSON and is never cached.
 */
export const OTHER_PATH_CLASSES = {
  "media/*": "media",
  "assets/*": "assets",
  healthz: "health",
  metrics: "metrics",
  "admin/*": "admin page",
  "api/admin/*": "admin API",
  "api/live/:id": "live stream",
  "api/*": "public API",
} as const satisfies Record<string, PathClass>;

/** A pattern of the tables above. */
export type PathPattern = keyof typeof ROUTE_PATH_CLASSES | keyof typeof OTHER_PATH_CLASSES;

export interface PathMatch {
  /** The pattern that matched, as written in the tables above. */
  pattern: PathPattern;
  pathClass: PathClass;
  rules: PathRules;
  /** Its parameters, decoded ("*" for a splat's rest), as React Router gives them to the route. */
  params: Record<string, string>;
  /** The path as React Router matches it: see normalizePath. */
  pathname: string;
}

/** React Router's percent-decoding: segment by segment, an encoded "/" stays encoded; a malformed escape leaves the path as sent. */
function decodePath(path: string): string {
  if (!path.includes("%")) return path;
  try {
    return path
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return path;
  }
}

/**
 * The path as React Router matches it: without a query or fragment; a data URL (`/x.data`, and
 * `/_root.data` for the index route) as the page it belongs to; percent-decoded (a malformed escape
 * stays as sent); without trailing slashes. Case is kept: route patterns match it case-insensitively,
 * but Better Auth's endpoint names (app/domain/accounts/auth-handler.server.ts) are exact.
 */
export function normalizePath(path: string): string {
  const query = path.indexOf("?");
  const fragment = path.indexOf("#");
  const end = Math.min(query === -1 ? path.length : query, fragment === -1 ? path.length : fragment);
  let pathname = path.slice(0, end);
  if (pathname === "/_root.data") pathname = "/";
  else if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length);
  pathname = decodePath(pathname);
  let length = pathname.length;
  while (length > 0 && pathname[length - 1] === "/") length--;
  pathname = pathname.slice(0, length);
  return pathname.startsWith("/") ? pathname : `/${pathname}`;
}

interface CompiledPattern {
  pattern: PathPattern;
  pathClass: PathClass;
  matcher: RegExp;
  names: string[];
  score: number;
}

/** A route pattern as React Router compiles it (compilePath): case-insensitive, params, a trailing splat. */
function compile(pattern: PathPattern, pathClass: PathClass): CompiledPattern {
  const names: string[] = [];
  const path = pattern === "/" ? "" : pattern;
  let source =
    "^" +
    path
      .replace(/\/*\*?$/, "")
      .replace(/^\/*/, "/")
      .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
      .replace(/\/:([\w-]+)(\?)?/g, (_match, name: string, optional?: string) => {
        names.push(name);
        return optional ? "(?:/([^\\/]*))?" : "/([^\\/]+)";
      })
      .replace(/\/([\w-]+)\?(\/|$)/g, "(/$1)?$2");
  if (path.endsWith("*")) {
    names.push("*");
    source += path === "*" ? "(.*)$" : "(?:\\/(.+)|\\/*)$";
  } else {
    source += "\\/*$";
  }
  return { pattern, pathClass, matcher: new RegExp(source, "i"), names, score: scoreOf(path) };
}

/** React Router's ranking (computeScore): static segments beat params, params beat a splat. */
function scoreOf(path: string): number {
  const segments = path.split("/");
  let score = segments.length + (segments.includes("*") ? -2 : 0) + (path === "" ? 2 : 0);
  for (const segment of segments) {
    if (segment === "*") continue;
    score += segment.startsWith(":") ? 3 : segment === "" ? 1 : 10;
  }
  return score;
}

const COMPILED: CompiledPattern[] = [
  ...Object.entries(ROUTE_PATH_CLASSES).map(([pattern, pathClass]) => compile(pattern as PathPattern, pathClass)),
  ...Object.entries(OTHER_PATH_CLASSES).map(([pattern, pathClass]) => compile(pattern as PathPattern, pathClass)),
].sort((a, b) => b.score - a.score);

/**
 * Only a speed-up (this runs on every request): the patterns worth trying for a path, by its first
 * segment. A pattern whose first segment is static can only match paths starting with that segment
 * (case-insensitively: ASCII only, as a regular expression's `i` folds it); every list also holds the
 * patterns that start with a parameter or a splat, so the ranking and the regular expressions decide.
 */
const firstSegmentOf = (path: string) => {
  const end = path.indexOf("/", 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
};
const ANY_FIRST_SEGMENT = COMPILED.filter((c) => c.pattern === "/" || /^[:*]/.test(c.pattern));
const BY_FIRST_SEGMENT = new Map<string, CompiledPattern[]>();
for (const candidate of COMPILED) {
  if (ANY_FIRST_SEGMENT.includes(candidate)) continue;
  const first = firstSegmentOf(`/${candidate.pattern}`);
  BY_FIRST_SEGMENT.set(first, [...(BY_FIRST_SEGMENT.get(first) ?? []), candidate]);
}
for (const [first, list] of BY_FIRST_SEGMENT) BY_FIRST_SEGMENT.set(first, [...list, ...ANY_FIRST_SEGMENT].sort((a, b) => b.score - a.score));

/**
 * The class of a request path (a pathname; a query string or fragment is ignored), its rules and
 * its route parameters, matched the way React Router matches: see normalizePath. The catch-all route
 * makes every path match something: a path no other pattern names is a reader page (the 404 page).
 */
export function classifyPath(path: string): PathMatch {
  const pathname = normalizePath(path);
  for (const candidate of BY_FIRST_SEGMENT.get(firstSegmentOf(pathname)) ?? ANY_FIRST_SEGMENT) {
    const match = candidate.matcher.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    candidate.names.forEach((name, i) => {
      const value = match[i + 1];
      if (value !== undefined) params[name] = value;
    });
    return { pattern: candidate.pattern, pathClass: candidate.pathClass, rules: PATH_CLASSES[candidate.pathClass], params, pathname };
  }
  // Unreachable: "*" matches every path. Kept total so no caller has to handle a miss.
  return { pattern: "*", pathClass: "reader page", rules: PATH_CLASSES["reader page"], params: { "*": pathname.slice(1) }, pathname };
}

/** Site traffic is the reader site's: the back office's own screens are not page views. */
export function isCountedPath(path: string): boolean {
  return classifyPath(path).rules.countedAsPageView;
}
