import { describe, expect, test } from "vitest";
import routes from "~/routes";
import { classifyPath, normalizePath, OTHER_PATH_CLASSES, PATH_CLASSES, ROUTE_PATH_CLASSES, type PathClass } from "./path-classes";

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };

/** Every route of app/routes.ts with its whole path ("/" for the home page), layouts' children included. */
function routePaths(entries: RouteEntry[], parent = ""): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const own = entry.path ? [parent, entry.path].filter(Boolean).join("/") : parent;
    const self = entry.index || entry.path ? [{ path: own || "/", file: entry.file }] : [];
    return [...self, ...routePaths(entry.children ?? [], own)];
  });
}

const ROUTES = routePaths(routes as RouteEntry[]);
const SAMPLE_PARAMS: Record<string, string> = { slug: "a-story", id: "42", kind: "image", token: "6f1c.kx.SiGn_x-1", file: "articles-2026-11.xml" };

/** A concrete address for a route pattern: its parameters filled in. */
function sampleOf(pattern: string): string {
  if (pattern === "/") return "/";
  if (pattern === "*") return "/no/such-page";
  return `/${pattern.replace(/:([\w-]+)/g, (_, name: string) => SAMPLE_PARAMS[name]!).replace(/\*$/, "x/y")}`;
}

/** Every character but the slashes percent-encoded, as a client may send it. */
function percentEncoded(path: string): string {
  return path.replace(/[^/]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

describe("the path table and the route table", () => {
  test("the route table is read whole (layouts' children included)", () => {
    expect(ROUTES.length).toBeGreaterThan(20);
    expect(ROUTES.map((r) => r.path)).toEqual(expect.arrayContaining(["/", "admin", "admin/articles/edit/:id", "article/:slug", "*"]));
  });

  test("the path table names no route that app/routes.ts does not have", () => {
    const paths = new Set(ROUTES.map((r) => r.path));
    expect(Object.keys(ROUTE_PATH_CLASSES).filter((pattern) => !paths.has(pattern))).toEqual([]);
  });

  for (const route of ROUTES) {
    test(`${route.path} (${route.file}) is named in the path table, and each spelling of its address falls in that class`, () => {
      expect(Object.hasOwn(ROUTE_PATH_CLASSES, route.path), `add "${route.path}" to ROUTE_PATH_CLASSES in app/lib/path-classes.ts`).toBe(true);
      const expected = ROUTE_PATH_CLASSES[route.path as keyof typeof ROUTE_PATH_CLASSES] as PathClass;
      const sample = sampleOf(route.path);
      const spellings = [
        sample,
        sample === "/" ? "/_root.data" : `${sample}.data`,
        sample.toUpperCase(),
        sample === "/" ? "//" : `${sample}/`,
        percentEncoded(sample),
        `${sample}?from=test`,
      ];
      for (const spelling of spellings) {
        const match = classifyPath(spelling);
        expect(match.pathClass, spelling).toBe(expected);
        expect(match.pattern, spelling).toBe(route.path);
      }
      // The route's parameters come back decoded, as React Router hands them to the route.
      const expectedParams = Object.fromEntries([...route.path.matchAll(/:([\w-]+)/g)].map(([, name]) => [name, SAMPLE_PARAMS[name!]]));
      for (const spelling of [sample, `${sample}.data`, percentEncoded(sample)]) {
        const { params } = classifyPath(spelling);
        for (const [name, value] of Object.entries(expectedParams)) expect(params[name], `${spelling} :${name}`).toBe(value);
      }
    });
  }

  test("every back-office route is behind the admin gate, except the screens of signing in (login, forgotten password)", () => {
    for (const route of ROUTES) {
      const { rules, pathClass } = classifyPath(sampleOf(route.path));
      if (["admin/login", "admin/forgot-password", "admin/reset-password"].includes(route.path)) expect(pathClass).toBe("admin login");
      else if (/^admin(\/|$)/.test(route.path) || route.file.startsWith("routes/admin/")) expect(rules.adminGate, route.path).toBe("state-changes");
      else if (/^api\/admin(\/|$)/.test(route.path)) expect(rules.adminGate, route.path).toBe("everything");
      else expect(rules.adminGate, route.path).toBe("none");
    }
  });

  test("whatever is personal is never cached, and only back-office screens, previews, subscribers' links, ad clicks, members' account pages, live streams and /metrics are not counted", () => {
    for (const [name, rules] of Object.entries(PATH_CLASSES)) {
      if (rules.personal === "always" || rules.adminGate !== "none") expect(rules.cacheable, name).toBe(false);
      if (rules.adminGate !== "none") expect(rules.personal, name).toBe("always");
      expect(rules.countedAsPageView, name).toBe(!name.startsWith("admin") && name !== "shared preview" && name !== "subscriber link" && name !== "ad link" && name !== "member account" && name !== "live stream" && name !== "metrics");
    }
  });
});

describe("classifyPath", () => {
  const classOf = (path: string) => classifyPath(path).pathClass;

  test("newsletter pages: /newsletter is a cached reader page; a subscriber's links are personal, uncounted, and take a POST naming no origin", () => {
    expect(classifyPath("/newsletter").rules).toMatchObject({ cacheable: true, countedAsPageView: true, changesPages: false });
    for (const path of ["/newsletter/confirm/x.y", "/newsletter/preferences/x.y", "/newsletter/unsubscribe/x.y?send=1"]) {
      expect(classifyPath(path).pathClass, path).toBe("subscriber link");
      expect(classifyPath(path).rules, path).toMatchObject({ cacheable: false, countedAsPageView: false, personal: "always", signedInChangesNameTheSite: false });
    }
  });

  test("matches case-insensitively and percent-decoded, as React Router does", () => {
    expect(classOf("/ADMIN/Settings")).toBe("admin page");
    expect(classOf("/%61dmin")).toBe("admin page");
    expect(classOf("/Admin/Login")).toBe("admin login");
    expect(classOf("/API/ADMIN/uploads/image")).toBe("admin upload");
    expect(classifyPath("/api/admin/uploads/%76ideo").params).toEqual({ kind: "video" });
    expect(classifyPath("/article/hello%2Dworld?ref=home").params).toEqual({ slug: "hello-world" });
  });

  test("a data URL is the page it belongs to; /_root.data is the home page", () => {
    expect(classifyPath("/_root.data")).toMatchObject({ pattern: "/", pathClass: "reader page", pathname: "/" });
    expect(classOf("/admin.data")).toBe("admin page");
    expect(classOf("/admin/login.data")).toBe("admin login");
    expect(classifyPath("/article/a-story.data").params).toEqual({ slug: "a-story" });
    expect(classOf("/rss.xml.data")).toBe("feed");
    // A live story's feed (issue 31) is a feed, not its article's page.
    expect(classifyPath("/article/storm-live/rss.xml")).toMatchObject({ pathClass: "feed", params: { slug: "storm-live" } });
    // Only the suffix React Router strips: an encoded dot is part of the name.
    // (One segment: a page's address, issue 29, whose loader answers 404 for no such page.)
    expect(classifyPath("/about%2Edata")).toMatchObject({ pattern: ":slug", params: { slug: "about.data" } });
  });

  test("trailing slashes are ignored", () => {
    expect(classifyPath("/admin/login/").pattern).toBe("admin/login");
    expect(classifyPath("/admin/login//").pattern).toBe("admin/login");
    expect(classifyPath("/healthz/").pathClass).toBe("health");
    expect(classifyPath("/").pattern).toBe("/");
  });

  test("a malformed escape stays as sent (and names no page but the 404 one)", () => {
    expect(classifyPath("/article/%E0%A4%A")).toMatchObject({ pathClass: "article page", params: { slug: "%E0%A4%A" } });
    expect(classifyPath("/%E0%A4%A")).toMatchObject({ pattern: ":slug", pathClass: "reader page", pathname: "/%E0%A4%A" });
    expect(classifyPath("/a/%E0%A4%A")).toMatchObject({ pattern: "*", pathname: "/a/%E0%A4%A" });
    expect(classOf("/admin/%E0%A4%A")).toBe("admin page");
  });

  test("an encoded slash stays inside its segment", () => {
    expect(classifyPath("/article/a%2Fb")).toMatchObject({ pattern: "article/:slug", params: { slug: "a%2Fb" } });
    expect(classifyPath("/article/a/b").pattern).toBe("*");
  });

  test("paths no route names keep the rules of where they are", () => {
    expect(classifyPath("/admin/no-such-screen")).toMatchObject({ pattern: "admin/*", pathClass: "admin page" });
    expect(classifyPath("/admin//settings")).toMatchObject({ pathClass: "admin page" });
    expect(classifyPath("/api/admin")).toMatchObject({ pattern: "api/admin/*", pathClass: "admin API" });
    expect(classifyPath("/api/admin/media")).toMatchObject({ pattern: "api/admin/*", pathClass: "admin API" });
    expect(classifyPath("/api/admin/events.data").pathClass).toBe("admin API");
    expect(classifyPath("/api/no-such-call")).toMatchObject({ pattern: "api/*", pathClass: "public API" });
    // A live story's reader stream (issue 31): never cached, not a page view.
    expect(classifyPath("/api/live/7d3e4f1a-0000-4000-8000-000000000001?after=12")).toMatchObject({
      pattern: "api/live/:id",
      pathClass: "live stream",
      params: { id: "7d3e4f1a-0000-4000-8000-000000000001" },
      rules: { cacheable: false, countedAsPageView: false, personal: "always", changesPages: false },
    });
    expect(classifyPath("/api/live/x/y").pathClass).toBe("public API");
    // One segment is a page's address (issue 29); deeper, the 404 page.
    expect(classifyPath("/administration-news")).toMatchObject({ pattern: ":slug", pathClass: "reader page" });
    expect(classifyPath("/adminx")).toMatchObject({ pattern: ":slug", pathClass: "reader page" });
    expect(classifyPath("/adminx/y")).toMatchObject({ pattern: "*", pathClass: "reader page" });
  });

  test("what Express answers before React Router has its own entries", () => {
    expect(classifyPath("/media/images/a.png")).toMatchObject({ pathClass: "media", params: { "*": "images/a.png" } });
    expect(classOf("/MEDIA/images/a.png")).toBe("media");
    expect(classOf("/assets/entry.client-abc123.js")).toBe("assets");
    expect(classOf("/healthz")).toBe("health");
    expect(classOf("/healthzz")).toBe("reader page");
    // The public port's /metrics (decision 0047): its door answers the token's bearer; without one, the 404 page (issue 39).
    expect(classifyPath("/metrics")).toMatchObject({ pattern: "metrics", pathClass: "metrics", rules: { cacheable: false, countedAsPageView: false, personal: "always" } });
    expect(Object.values(OTHER_PATH_CLASSES)).toEqual(expect.arrayContaining(["media", "assets", "health"]));
  });

  test("the auth API's splat holds the endpoint; /api/auth itself is the auth API too", () => {
    expect(classifyPath("/api/auth/sign-in/email")).toMatchObject({ pathClass: "auth API", params: { "*": "sign-in/email" } });
    expect(classOf("/api/auth")).toBe("auth API");
    expect(classOf("/API/Auth/get-session")).toBe("auth API");
  });

  test("the rules that were spread over the server", () => {
    // Uploads stream under their own limits; every other body has the 4 MB limit.
    expect(classifyPath("/api/uploads/comment").rules.bodyLimit).toBe("route");
    expect(classifyPath("/api/admin/uploads/video/").rules.bodyLimit).toBe("route");
    expect(classifyPath("/api/views").rules.bodyLimit).toBe("4mb");
    // Page actions take forms; API routes their own body types.
    expect(classifyPath("/admin/login").rules.formsOnly).toBe(true);
    expect(classifyPath("/article/a").rules.formsOnly).toBe(true);
    expect(classifyPath("/api/views").rules.formsOnly).toBe(false);
    expect(classifyPath("/Api/Auth/sign-in/email").rules.formsOnly).toBe(false);
    // Reader pages load their scripts after the stylesheet and images; the back office preloads them (decision 0029).
    for (const path of ["/", "/article/a", "/category/news", "/search", "/about", "/no-such-page", "/preview/t"]) expect(classifyPath(path).rules.preloadsScripts, path).toBe(false);
    for (const path of ["/admin", "/admin/articles/edit/1", "/admin/login", "/join/t"]) expect(classifyPath(path).rules.preloadsScripts, path).toBe(true);
    // Writes that never change a reader page.
    for (const path of ["/api/views", "/API/Views", "/api/uploads/comment", "/api/auth/sign-in/email", "/auth/sign-out", "/admin/login"]) {
      expect(classifyPath(path).rules.changesPages, path).toBe(false);
    }
    for (const path of ["/admin/articles/new", "/api/admin/media/3"]) {
      expect(classifyPath(path).rules.changesPages, path).toBe(true);
    }
    // A comment changes its own article's page only.
    for (const path of ["/article/some-story", "/api/articles/a/comments"]) {
      expect(classifyPath(path).rules.changesPages, path).toBe("its article");
    }
  });
});

describe("normalizePath", () => {
  test("decodes, drops the data suffix, the trailing slashes and the query, and keeps the case", () => {
    expect(normalizePath("/api/auth/sign-%69n/email/")).toBe("/api/auth/sign-in/email");
    expect(normalizePath("/API/Auth/Get-Session?x=1")).toBe("/API/Auth/Get-Session");
    expect(normalizePath("/admin/settings.data?_routes=a")).toBe("/admin/settings");
    expect(normalizePath("/_root.data")).toBe("/");
    expect(normalizePath("")).toBe("/");
    expect(normalizePath("/%E0%A4%A/")).toBe("/%E0%A4%A");
  });
});
