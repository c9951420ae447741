import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

// `npm start` on a fresh clone: build once when there is no build yet, then serve it.
const root = path.resolve(import.meta.dirname, "..");
if (!existsSync(path.join(root, "build/server/index.js"))) {
  console.log("No build found: building the site first (npm run build)…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
process.env.NODE_ENV ??= "production";
await import("../server/index.ts");
