import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * Every TypeScript or JavaScript file below `dir` (declarations and node_modules left out) that `keep`
 * accepts, parsed: for tests that read the code itself (the error family, the server's addresses).
 */
export function parsedSources(dir: string, keep: (file: string) => boolean = () => true): ts.SourceFile[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : parsedSources(full, keep);
    if (!/\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name) || entry.name.endsWith(".d.ts") || !keep(full)) return [];
    return [ts.createSourceFile(full, fs.readFileSync(full, "utf8"), ts.ScriptTarget.Latest, true)];
  });
}
