import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { isReservedSlug } from "../app/domain/pages/reserved-slugs";
import { classifyPath } from "../app/lib/path-classes";
import { isSlug } from "../app/lib/slugs";
import { parsedSources } from "../tests/setup/source-files";
import { ROOT } from "./root";

// Issue 39: a page at /{slug} (decision 0039) must never take an address the server answers before
// React Router's routes (a door in front of Express, or what Express mounts itself), or the two shadow
// each other. The server's code is read for the addresses it answers: a new one whose first segment no
// page is kept from fails here, so it is added to the path table (OTHER_PATH_CLASSES) with its rules.

/** Files under server/ that are no part of the site's server (stand-ins that tests run). */
const NOT_THE_SITE = new Set(["server/cdn/recording-server.ts"]);
/** Express's (and node:http's) ways of answering an address: app.get("/healthz"), app.use("/media", …). */
const MOUNTS = new Set(["get", "head", "post", "put", "patch", "delete", "options", "all", "use", "route"]);

/** A string written in the code as it is: "…", '…' or `…` without substitutions. */
const literalText = (node: ts.Node): string | null => (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : null);

/**
 * Every address the server's code answers, as "file: address": a path mounted with Express, and a path
 * a request's URL is compared with (`url === "/metrics"`, `url.startsWith(PREFIX)`, PREFIX a constant
 * of the file).
 */
function addressesAnswered(): string[] {
  const found: string[] = [];
  const serverCode = (file: string) => !file.endsWith(".test.ts") && !NOT_THE_SITE.has(path.relative(ROOT, file));
  for (const source of parsedSources(path.join(ROOT, "server"), serverCode)) {
    const file = source.fileName;
    const constants = new Map<string, string>();
    const collect = (node: ts.Node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        const text = literalText(node.initializer);
        if (text !== null) constants.set(node.name.text, text);
      }
      ts.forEachChild(node, collect);
    };
    collect(source);
    const valueOf = (node: ts.Node) => literalText(node) ?? (ts.isIdentifier(node) ? (constants.get(node.text) ?? null) : null);
    const note = (value: string | null) => {
      if (value?.startsWith("/")) found.push(`${path.relative(ROOT, file)}: ${value}`);
    };
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        if (MOUNTS.has(method) && node.arguments[0]) note(valueOf(node.arguments[0]));
        if (method === "startsWith" && node.arguments[0]) note(valueOf(node.arguments[0]));
      }
      if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(node.operatorToken.kind)) {
        note(valueOf(node.left));
        note(valueOf(node.right));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The segment a page's slug would compete with: the first one, without a query. */
const firstSegmentOf = (address: string) => address.slice(1).split(/[/?#]/)[0]!.toLowerCase();

describe("the addresses the server answers before routing (issue 39)", () => {
  const answered = addressesAnswered();

  test("the server's code is read: its doors and Express's own paths are found", () => {
    const segments = new Set(answered.map((entry) => firstSegmentOf(entry.split(": ")[1]!)));
    for (const known of ["metrics", "healthz", "media", "assets", "api"]) expect(segments, known).toContain(known);
  });

  test("no page may take the first segment of an address the server answers (a segment no slug can be is no matter)", () => {
    const open = answered.filter((entry) => {
      const segment = firstSegmentOf(entry.split(": ")[1]!);
      return segment !== "" && !segment.startsWith(":") && isSlug(segment) && !isReservedSlug(segment);
    });
    expect(open).toEqual([]);
  });

  test("each has its own rules in the path table: not the pages' (:slug) or the 404 page's", () => {
    const segments = [...new Set(answered.map((entry) => firstSegmentOf(entry.split(": ")[1]!)))].filter((segment) => segment !== "" && isSlug(segment));
    expect(segments.filter((segment) => ["*", ":slug"].includes(classifyPath(`/${segment}`).pattern))).toEqual([]);
  });

  test("metrics, build, public and WordPress's addresses are reserved, whatever their case", () => {
    for (const slug of ["metrics", "Metrics", "build", "public", "wp-admin", "wp-login", "wp-content", "xmlrpc"]) expect(isReservedSlug(slug), slug).toBe(true);
    expect(isReservedSlug("metrics-explained")).toBe(false);
  });
});
