import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { deepImports } from "./deep-imports";

const dir = mkdtempSync(path.join(os.tmpdir(), "deep-imports-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A barrel in each form the two packages use: lucide-react's `export { default as … }` lists, and
// radix-ui's `import * as N` re-exported by name.
const iconsBarrel = path.join(dir, "icons.mjs");
writeFileSync(
  iconsBarrel,
  `export { default as CirclePlay, default as PlayCircle, default as LucidePlayCircle } from './icons/circle-play.mjs';
export { default as Eye } from './icons/eye.mjs';
export { createIcon } from './create.mjs';`,
);
const primitivesBarrel = path.join(dir, "primitives.mjs");
writeFileSync(primitivesBarrel, `import * as Slot from "@scope/slot";\nexport * as Dialog from "@scope/dialog";\nexport { Slot };`);

const resolved: Record<string, string> = {
  icons: iconsBarrel,
  primitives: primitivesBarrel,
  "./icons/circle-play.mjs": "/pkg/icons/circle-play.mjs",
  "./icons/eye.mjs": "/pkg/icons/eye.mjs",
  "./create.mjs": "/pkg/create.mjs",
  "@scope/slot": "/pkg/slot/index.mjs",
  "@scope/dialog": "/pkg/dialog/index.mjs",
};

async function transform(code: string, id = "/app/component.tsx") {
  const plugin = deepImports(["icons", "primitives"]);
  const hook = plugin.transform as (this: unknown, code: string, id: string) => Promise<{ code: string } | null>;
  const context = { resolve: async (source: string) => (resolved[source] ? { id: resolved[source] } : null) };
  return (await hook.call(context, code, id))?.code ?? null;
}

describe("deepImports", () => {
  it("imports each name from the file that defines it, renamed icons and namespaces included", async () => {
    const out = await transform(`import { Eye, PlayCircle as Play, createIcon } from "icons";\nimport { Slot, Dialog } from "primitives";\nuse(Eye, Play, createIcon, Slot, Dialog);`);
    expect(out).toContain(`import Eye from "/pkg/icons/eye.mjs";`);
    expect(out).toContain(`import Play from "/pkg/icons/circle-play.mjs";`);
    expect(out).toContain(`import { createIcon as createIcon } from "/pkg/create.mjs";`);
    expect(out).toContain(`import * as Slot from "/pkg/slot/index.mjs";`);
    expect(out).toContain(`import * as Dialog from "/pkg/dialog/index.mjs";`);
    expect(out).not.toMatch(/from "(icons|primitives)"/);
    expect(out!.split("\n")).toHaveLength(3);
  });

  it("keeps type-only names and names it cannot find on the barrel, and the line count of a multi-line import", async () => {
    const out = await transform(`import {\n  Eye,\n  type IconProps,\n  Unknown,\n} from "icons";\nconst x = 1;`);
    expect(out).toContain(`import Eye from "/pkg/icons/eye.mjs";`);
    expect(out).toContain(`import { type IconProps, Unknown } from "icons";`);
    expect(out!.split("\n")).toHaveLength(6);
    expect(out!.split("\n")[5]).toBe("const x = 1;");
  });

  it("leaves other packages, type-only imports and dependencies' own files alone", async () => {
    expect(await transform(`import { useState } from "react";`)).toBeNull();
    expect(await transform(`import type { IconProps } from "icons";`)).toBeNull();
    expect(await transform(`import { Eye } from "icons";`, "/x/node_modules/lib/index.js")).toBeNull();
  });
});

describe("deepImports on the server (packages stay external)", () => {
  // A package as lucide-react ships: CommonJS for Node's condition, an ES module barrel for `import`,
  // and its files open to deep imports through its exports.
  const pkgDir = path.join(dir, "node_modules", "icons-pkg");
  mkdirSync(path.join(pkgDir, "dist/esm/icons"), { recursive: true });
  writeFileSync(
    path.join(pkgDir, "package.json"),
    JSON.stringify({ name: "icons-pkg", exports: { ".": { node: "./dist/cjs/index.js", import: "./dist/esm/index.mjs" }, "./dist/*": "./dist/*", "./package.json": "./package.json" } }),
  );
  writeFileSync(
    path.join(pkgDir, "dist/esm/index.mjs"),
    `export { default as Eye } from './icons/eye.mjs';\nexport { default as CirclePlay, default as PlayCircle } from './icons/circle-play.mjs';\nexport { helper } from 'other-pkg';`,
  );

  async function serverTransform(code: string) {
    const plugin = deepImports(["icons-pkg"], { server: true });
    const hook = plugin.transform as (this: unknown, code: string, id: string) => Promise<{ code: string } | null>;
    // The server build resolves a package as external: the plugin must not rely on it.
    const context = { resolve: async (source: string) => ({ id: source, external: true }) };
    return (await hook.call(context, code, path.join(dir, "app", "component.tsx")))?.code ?? null;
  }

  it("imports each icon by the package's own path to its file, from the ES module barrel", async () => {
    const out = await serverTransform(`import { Eye, PlayCircle as Play } from "icons-pkg";\nuse(Eye, Play);`);
    expect(out).toContain(`import Eye from "icons-pkg/dist/esm/icons/eye.mjs";`);
    expect(out).toContain(`import Play from "icons-pkg/dist/esm/icons/circle-play.mjs";`);
    expect(out).not.toContain(dir);
    expect(out).not.toMatch(/from "icons-pkg"/);
  });

  it("keeps on the barrel a name the package re-exports from another package", async () => {
    const out = await serverTransform(`import { Eye, helper } from "icons-pkg";`);
    expect(out).toContain(`import Eye from "icons-pkg/dist/esm/icons/eye.mjs";`);
    expect(out).toContain(`import { helper } from "icons-pkg";`);
  });
});
