import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The project's folder (the one holding package.json), found from this module's location, so the
 * same code works from server/ under tsx and from the bundle in build/node/.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const ROOT = findRoot(import.meta.dirname);
