import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

/**
 * Rewrites `import { Eye, X } from "lucide-react"` into imports of the files that define each name
 * (what Next.js calls optimizePackageImports), for the browser build. A package's barrel file names
 * every icon or primitive it has: a module importing it reaches all of them before tree-shaking, so
 * the chunking (scripts/reader-chunks.ts) could not tell the few a reader page uses from the rest.
 * Imported straight from their files, the reader's icons join the reader's chunk and the back office's
 * stay out. The names come from the barrel's own re-exports, so renamed icons (PlayCircle →
 * circle-play) follow the package.
 */

type Binding = { file: string; imported: string };

/** The specifiers of `{ a, b as c, type T }` as written, each with the name it takes and the name it gives. */
function specifiersOf(list: string): Array<{ written: string; name: string; local: string }> {
  return list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((written) => {
      const [name, local = name] = written.split(/\s+as\s+/) as [string, string?];
      return { written, name, local };
    });
}

/** `export { default as A, default as B } from './a.mjs'`, `export * as N from "n"`, `import * as N from "n"` + `export { N }`. */
async function bindingsOf(barrelFile: string, resolve: (source: string) => Promise<string | null>): Promise<Map<string, Binding>> {
  const code = await readFile(barrelFile, "utf8");
  const names = new Map<string, Binding>();
  const found: Array<[name: string, source: string, imported: string]> = [];
  for (const [, list, source] of code.matchAll(/export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
    for (const { name, local } of specifiersOf(list!)) found.push([local, source!, name]);
  }
  for (const [, name, source] of code.matchAll(/(?:export|import)\s*\*\s*as\s+(\w+)\s*from\s*["']([^"']+)["']/g)) found.push([name!, source!, "*"]);
  const files = new Map<string, string | null>();
  for (const [name, source, imported] of found) {
    if (!files.has(source)) files.set(source, await resolve(source));
    const file = files.get(source);
    if (file) names.set(name, { file, imported });
  }
  return names;
}

/**
 * Where a package the build leaves external lives: its directory and its ES module barrel (the
 * `import` or `module` entry of its exports, which the server's resolution would not pick: Node's
 * condition chooses the CommonJS one).
 */
async function externalBarrelOf(pkg: string, importer: string): Promise<{ dir: string; barrel: string }> {
  const manifestFile = createRequire(importer).resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(await readFile(manifestFile, "utf8")) as { exports?: Record<string, unknown>; module?: string };
  const entry = manifest.exports?.["."] as { import?: unknown; module?: unknown } | undefined;
  const file = [entry?.import, entry?.module, manifest.module].find((candidate): candidate is string => typeof candidate === "string");
  if (!file) throw new Error(`deep-imports: ${pkg} names no ES module entry`);
  const dir = path.dirname(manifestFile);
  return { dir, barrel: path.join(dir, file) };
}

/**
 * `packages`: the barrels whose imports are rewritten. The browser's build bundles the files it is
 * pointed at; the server's build leaves packages external, so there (`server: true`) each import names
 * the file by the package's own path (`lucide-react/dist/esm/icons/eye.mjs`), which Node resolves
 * through the package's exports like any other import, wherever the build runs.
 */
export function deepImports(packages: string[], { server = false }: { server?: boolean } = {}): Plugin {
  const barrels = new Map<string, Promise<Map<string, Binding>>>();
  const importOf = new RegExp(String.raw`import\s*\{([^}]*)\}\s*from\s*["'](${packages.map((p) => p.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})["'];?`, "g");
  return {
    name: "frontpage:deep-imports",
    apply: "build",
    async transform(code, id) {
      if (id.includes("/node_modules/") || !/\.[cm]?[jt]sx?$/.test(id.split("?")[0]!)) return null;
      const matches = [...code.matchAll(importOf)];
      if (matches.length === 0) return null;
      let out = code;
      for (const match of matches) {
        const [statement, list, pkg] = match as unknown as [string, string, string];
        if (!barrels.has(pkg)) {
          barrels.set(
            pkg,
            (async () => {
              if (server) {
                const { dir, barrel } = await externalBarrelOf(pkg, id);
                const names = await bindingsOf(barrel, async (source) => (source.startsWith(".") ? path.resolve(path.dirname(barrel), source) : null));
                // The package's own path to each file: only files inside it (a re-export of another package stays on the barrel).
                for (const [name, binding] of names) {
                  const inside = path.relative(dir, binding.file);
                  if (inside.startsWith("..")) names.delete(name);
                  else names.set(name, { ...binding, file: `${pkg}/${inside.split(path.sep).join("/")}` });
                }
                return names;
              }
              const barrel = await this.resolve(pkg, id);
              if (!barrel) throw new Error(`deep-imports: cannot resolve ${pkg}`);
              return bindingsOf(barrel.id, async (source) => (await this.resolve(source, barrel.id))?.id ?? null);
            })(),
          );
        }
        const names = await barrels.get(pkg)!;
        const kept: string[] = [];
        const lines: string[] = [];
        for (const { written, name, local } of specifiersOf(list)) {
          const binding = written.startsWith("type ") ? undefined : names.get(name);
          if (!binding) {
            kept.push(written);
            continue;
          }
          const file = JSON.stringify(binding.file);
          if (binding.imported === "*") lines.push(`import * as ${local} from ${file};`);
          else if (binding.imported === "default") lines.push(`import ${local} from ${file};`);
          else lines.push(`import { ${binding.imported} as ${local} } from ${file};`);
        }
        if (kept.length > 0) lines.push(`import { ${kept.join(", ")} } from ${JSON.stringify(pkg)};`);
        out = out.replace(statement, lines.join(" ") + "\n".repeat(statement.split("\n").length - 1));
      }
      return { code: out, map: null };
    },
  };
}
