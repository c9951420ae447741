import zlib from "node:zlib";

/** Issue 13's budget: the JavaScript a reader page loads, gzipped. */
export const READER_JS_BUDGET_BYTES = 120 * 1024;

/**
 * Issue 41's tighter budget: each reader page's JavaScript as measured before the newspaper redesign
 * (gzipped bytes, main at 9a2b76c, the e2e demo site), plus 10%. The kinds of page: "article" and
 * "author" stand for any story and any author page.
 */
export const READER_JS_BEFORE_REDESIGN = { home: 73_283, category: 72_379, article: 83_990, author: 72_823, search: 73_073, about: 76_002 } as const;
export type ReaderPageKind = keyof typeof READER_JS_BEFORE_REDESIGN;
export const readerJsBudgetOf = (kind: ReaderPageKind) => Math.floor(READER_JS_BEFORE_REDESIGN[kind] * 1.1);

/** Script files an HTML page names: module preloads, script sources, and what its inline modules import (React Router's entry by import()). */
export function scriptsNamedBy(html: string): string[] {
  const found = new Set<string>();
  for (const [, href] of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) found.add(href!);
  for (const [, href] of html.matchAll(/<link[^>]+href="([^"]+)"[^>]*rel="modulepreload"/g)) found.add(href!);
  for (const [, src] of html.matchAll(/<script[^>]+src="([^"]+)"/g)) found.add(src!);
  for (const [, body] of html.matchAll(/<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const [, imported] of body!.matchAll(/\bimport\s*(?:[^"'();]*?\bfrom\s*)?["']([^"']+\.js)["']/g)) found.add(imported!);
    for (const [, imported] of body!.matchAll(/\bimport\(\s*["']([^"']+\.js)["']\s*\)/g)) found.add(imported!);
  }
  return [...found];
}

/** The files a module imports statically (loaded with it, before it runs); dynamic import() is left out. */
function staticImportsOf(code: string): string[] {
  const found: string[] = [];
  for (const [, imported] of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w$*{},\s]*?\bfrom\s*)?["']([^"']+\.js)["']/g)) found.push(imported!);
  for (const [, imported] of code.matchAll(/\bexport\s*(?:\*|\{[^}]*\})\s*from\s*["']([^"']+\.js)["']/g)) found.push(imported!);
  return found;
}

/**
 * The JavaScript a reader's browser loads for `page` before it can run: every script file the HTML
 * names and all they import statically, each counted once, gzipped at level 9 (as the build
 * precompresses them). `get` fetches a URL's bytes.
 */
export async function readerJavaScript(base: string, page: string, get: (url: string) => Promise<Buffer>): Promise<{ files: string[]; gzipBytes: number }> {
  const pageUrl = new URL(page, base);
  const html = (await get(pageUrl.href)).toString("utf8");
  const queue = scriptsNamedBy(html).map((src) => new URL(src, pageUrl).href);
  const seen = new Set<string>();
  let gzipBytes = 0;
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url) || new URL(url).origin !== pageUrl.origin) continue;
    seen.add(url);
    const code = await get(url);
    gzipBytes += zlib.gzipSync(code, { level: 9 }).length;
    for (const imported of staticImportsOf(code.toString("utf8"))) queue.push(new URL(imported, url).href);
  }
  return { files: [...seen].map((url) => new URL(url).pathname), gzipBytes };
}
