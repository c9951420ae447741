import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

// Issue 39: the README is what a newcomer needs and the rest lives in guides under docs/. Every relative
// link and #anchor in README.md and docs/**/*.md resolves (a file or folder that exists, a heading by
// GitHub's slug rules), every guide is linked from the README, and the README stays short.

const ROOT = path.resolve(import.meta.dirname, "../..");
const README_MAX_LINES = 150;

/** GitHub's heading anchor (github-slugger): lower case, punctuation but `-` and `_` dropped, each space a `-`. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link or image: its text
    .replace(/<[^>]+>/g, "") // inline HTML tags
    .replace(/[`*]/g, ""); // code and emphasis marks
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The lines outside fenced code blocks, with inline code spans blanked out. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      lines.push("");
      continue;
    }
    if (marker) {
      fence = marker;
      lines.push("");
      continue;
    }
    lines.push(line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => " ".repeat(span.length)));
  }
  return lines;
}

/** The anchors a Markdown file offers: its headings' slugs (repeats get -1, -2, …) and explicit ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const add = (heading: string) => {
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  };
  const raw = markdown.split("\n");
  const lines = proseLines(markdown);
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) {
      // The heading's own text, inline code included (proseLines blanked it).
      add(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(raw[i]!)![1]!);
    } else if (line.trim() && !/^\s*[|>*+-]/.test(line) && /^ {0,3}(=+|-+)[ \t]*$/.test(lines[i + 1] ?? "")) {
      add(raw[i]!);
    }
    for (const match of line.matchAll(/<a\s[^>]*\b(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  });
  return anchors;
}

/** The link targets of a Markdown file: inline links and images, reference definitions, HTML hrefs. */
function linksOf(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  proseLines(markdown).forEach((line, i) => {
    for (const match of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) {
      links.push({ line: i + 1, target: match[1]!.replace(/^<|>$/g, "") });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
    if (definition) links.push({ line: i + 1, target: definition[1]!.replace(/^<|>$/g, "") });
    for (const match of line.matchAll(/\bhref="([^"]+)"/g)) links.push({ line: i + 1, target: match[1]! });
  });
  return links;
}

/** Why a link from `file` does not resolve, or null when it does (or leaves the repository: a URL). */
function brokenLink(file: string, target: string, root = ROOT): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return null;
  const hash = target.indexOf("#");
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const resolved = pathPart === "" ? file : pathPart.startsWith("/") ? path.join(root, pathPart) : path.resolve(path.dirname(file), pathPart);
  if (path.relative(root, resolved).startsWith("..")) return "points outside the repository";
  if (!fs.existsSync(resolved)) return `no such file: ${path.relative(root, resolved)}`;
  if (anchor === null) return null;
  if (resolved.endsWith(".md") && fs.statSync(resolved).isFile()) {
    return anchorsOf(fs.readFileSync(resolved, "utf8")).has(anchor) ? null : `no heading #${anchor} in ${path.relative(root, resolved)}`;
  }
  // GitHub's line anchors on a source file (#L10, #L10-L20).
  return /^L\d+(-L\d+)?$/.test(anchor) ? null : `#${anchor} on a file that is not Markdown`;
}

function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, "docs"), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join(ROOT, "docs", name));
  return [path.join(ROOT, "README.md"), ...docs.sort()];
}

describe("GitHub heading slugs", () => {
  test.each([
    ["Behind a CDN", "behind-a-cdn"],
    ["Running several processes", "running-several-processes"],
    ["What `npm start` does", "what-npm-start-does"],
    ["Q&A: 2 + 2 = 4?", "qa-2--2--4"],
    ["Über *die* [Seite](x.md)", "über-die-seite"],
    ["snake_case and kebab-case", "snake_case-and-kebab-case"],
  ])("%s → #%s", (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  test("repeated headings get -1, -2; headings in code blocks are not headings", () => {
    const anchors = anchorsOf("# Notes\n\n## Notes\n\n```sh\n# not a heading\n```\n\nSetext\n------\n\n## Notes\n");
    expect([...anchors].sort()).toEqual(["notes", "notes-1", "notes-2", "setext"]);
  });
});

describe("the link checker", () => {
  const readme = path.join(ROOT, "README.md");

  test("finds links outside code, and not inside it", () => {
    const links = linksOf("See [a](docs/a.md) and `[b](b.md)`.\n\n```md\n[c](c.md)\n```\n\n[d]: docs/d.md#x\n");
    expect(links.map((l) => l.target)).toEqual(["docs/a.md", "docs/d.md#x"]);
  });

  test("reports a missing file, a missing heading and a way out of the repository", () => {
    expect(brokenLink(readme, "docs/no-such-guide.md")).toMatch(/no such file/);
    expect(brokenLink(readme, "docs/cdn.md#no-such-heading")).toMatch(/no heading/);
    expect(brokenLink(readme, "#no-such-heading")).toMatch(/no heading/);
    expect(brokenLink(readme, "../outside.md")).toMatch(/outside/);
    expect(brokenLink(readme, "docs/cdn.md#behind-a-cdn")).toBeNull();
    expect(brokenLink(readme, "https://example.com/#anything")).toBeNull();
  });
});

describe("README.md and docs/", () => {
  const files = markdownFiles();

  test.each(files.map((file) => [path.relative(ROOT, file), file]))("every relative link and #anchor in %s resolves", (_name, file) => {
    const broken = linksOf(fs.readFileSync(file, "utf8"))
      .map(({ line, target }) => ({ line, target, why: brokenLink(file, target) }))
      .filter((link) => link.why !== null)
      .map(({ line, target, why }) => `line ${line}: ${target}: ${why}`);
    expect(broken).toEqual([]);
  });

  test(`the README stays short (at most ${README_MAX_LINES} lines)`, () => {
    const lines = fs.readFileSync(path.join(ROOT, "README.md"), "utf8").trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  test("every guide in docs/ is linked from the README and from docs/README.md", () => {
    const guides = fs.readdirSync(path.join(ROOT, "docs")).filter((name) => name.endsWith(".md") && name !== "README.md");
    expect(guides.length).toBeGreaterThan(5);
    const linked = (from: string) =>
      new Set(
        linksOf(fs.readFileSync(from, "utf8"))
          .map(({ target }) => path.resolve(path.dirname(from), target.split("#")[0]!))
          .map((target) => path.relative(path.join(ROOT, "docs"), target)),
      );
    const fromReadme = linked(path.join(ROOT, "README.md"));
    const fromIndex = linked(path.join(ROOT, "docs/README.md"));
    expect(guides.filter((guide) => !fromReadme.has(guide))).toEqual([]);
    expect(guides.filter((guide) => !fromIndex.has(guide))).toEqual([]);
    expect(fromReadme.has("README.md")).toBe(true);
  });
});
