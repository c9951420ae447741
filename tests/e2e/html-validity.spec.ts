import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "./fixtures";
import { demoArticlePath } from "./db";

// The reader pages' server HTML checked by the Nu HTML Checker (vnu-jar from npm, run with the
// machine's Java): 0 errors on home, an article, a category, an author and a search page.

const VNU = path.resolve(import.meta.dirname, "../../node_modules/vnu-jar/build/dist/vnu.jar");
/** Java runs the checker: .ci/run installs it; a developer's machine without it skips these checks. */
const HAS_JAVA = spawnSync("java", ["-version"]).status === 0;
if (!HAS_JAVA && process.env.CI) throw new Error("Java is missing: .ci/run installs default-jre-headless");
test.skip(!HAS_JAVA, "no Java on this machine: the Nu HTML checker cannot run");

interface VnuMessage {
  type: string;
  subType?: string;
  url: string;
  message: string;
  lastLine?: number;
  extract?: string;
}

/** Runs the checker over HTML documents: its errors (warnings and notes left out), with the file each came from. */
function vnuErrors(documents: Record<string, string>): VnuMessage[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "frontpage-vnu-"));
  try {
    const files = Object.entries(documents).map(([name, html]) => {
      const file = path.join(dir, `${name.replace(/[^a-z0-9]+/gi, "_")}.html`);
      fs.writeFileSync(file, html);
      return file;
    });
    const run = spawnSync("java", ["-jar", VNU, "--errors-only", "--format", "json", ...files], { encoding: "utf8", timeout: 120_000 });
    if (run.error) throw run.error;
    // vnu writes its JSON report to stderr; exit status 1 means it found errors.
    const report = JSON.parse(run.stderr) as { messages: VnuMessage[] };
    return report.messages.filter((m) => m.type === "error" || m.subType === "fatal");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function html(request: APIRequestContext, pagePath: string): Promise<string> {
  const response = await request.get(pagePath);
  expect(response.status(), pagePath).toBe(200);
  return response.text();
}

test("the Nu HTML checker finds 0 errors on home, article, category, author and search pages", async ({ request }) => {
  test.setTimeout(180_000);
  const article = await demoArticlePath();
  const articleHtml = await html(request, article);
  const author = /href="(\/author\/[^"?#]+)"/.exec(articleHtml)?.[1];
  expect(author, "the article's byline links its author").toBeTruthy();
  const documents = {
    home: await html(request, "/"),
    article: articleHtml,
    category: await html(request, "/category/news"),
    author: await html(request, author!),
    search: await html(request, "/search?q=council"),
    "empty search": await html(request, "/search"),
  };
  const errors = vnuErrors(documents);
  expect(errors.map((e) => `${path.basename(e.url)}:${e.lastLine}: ${e.message} [${e.extract ?? ""}]`)).toEqual([]);
});

test("the checker reports an error in a broken page (so 0 errors above means something)", () => {
  test.setTimeout(120_000);
  const errors = vnuErrors({ broken: "<!DOCTYPE html><html lang=en><head><title>x</title></head><body><p><div></p></body></html>" });
  expect(errors.length).toBeGreaterThan(0);
});
