import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import routes from "~/routes";
import { isReservedSlug, RESERVED_SLUGS } from "./reserved-slugs";

type RouteEntry = { path?: string; children?: RouteEntry[] };

/** The first segment of every route's path in app/routes.ts (layouts' children included), parameters and splats left out. */
function firstSegments(entries: RouteEntry[]): string[] {
  return entries.flatMap((entry) => {
    const first = entry.path?.split("/")[0] ?? "";
    const own = first && !first.startsWith(":") && first !== "*" ? [first] : [];
    return [...own, ...firstSegments(entry.children ?? [])];
  });
}

describe("the slugs a page may not take (issue 29)", () => {
  test("every top-level segment of app/routes.ts is reserved (a new route is, by being in the path table)", () => {
    const segments = [...new Set(firstSegments(routes as RouteEntry[]))];
    expect(segments).toEqual(expect.arrayContaining(["about", "admin", "search", "article", "category", "tag", "api", "sitemap.xml", "rss.xml"]));
    expect(segments.filter((s) => !isReservedSlug(s))).toEqual([]);
  });

  test("what Express answers before routing, and every file of public/, is reserved", () => {
    for (const slug of ["media", "assets", "healthz", "favicon", "robots", "sitemap", "rss"]) expect(isReservedSlug(slug), slug).toBe(true);
    const files = fs.readdirSync(path.join(process.cwd(), "public"));
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((name) => !isReservedSlug(name))).toEqual([]);
  });

  test("an ordinary slug is free, whatever its case", () => {
    expect(isReservedSlug("ethics-policy")).toBe(false);
    expect(isReservedSlug("About")).toBe(true);
    expect(RESERVED_SLUGS).toContain("terms-of-service");
  });
});
