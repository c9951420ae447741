// The production build, made when there is none (a fresh clone) or when a source file is newer than
// it (after a pull or an edit): used by `npm start` and by `npm run bench`.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
/** The bundled Node entry `npm start` runs (see scripts/bundle-server.ts). */
export const SERVER_ENTRY = path.join(root, "build/node/index.js");
const SOURCES = ["app", "server", "public", "package.json", "package-lock.json", "vite.config.ts", "react-router.config.ts"];

/** The newest modification time among the files the build is made from. */
function newestSource() {
  let newest = 0;
  const visit = (file) => {
    if (!existsSync(file)) return;
    const stat = statSync(file);
    if (stat.isDirectory()) for (const name of readdirSync(file)) visit(path.join(file, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const source of SOURCES) visit(path.join(root, source));
  return newest;
}

function buildReason() {
  if (!existsSync(SERVER_ENTRY) || !existsSync(path.join(root, "build/server/index.js"))) return "No build found";
  if (newestSource() > statSync(SERVER_ENTRY).mtimeMs) return "The sources changed since the last build";
  return null;
}

/** Runs `npm run build` when the build is missing or older than the sources; exits when it fails. */
export function ensureBuild() {
  const reason = buildReason();
  if (!reason) return;
  console.log(`${reason}: building the site first (npm run build)…`);
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
