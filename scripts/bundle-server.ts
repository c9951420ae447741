import path from "node:path";
import { build } from "esbuild";

// The Node entry (server/ and the app modules it imports) as one plain-JavaScript file, so
// `npm start` runs it with no TypeScript loader in the process (tsx's loader thread alone costs
// about 100 MB of memory). Packages stay in node_modules; the React Router build is loaded at run time.
const root = path.resolve(import.meta.dirname, "..");
await build({
  absWorkingDir: root,
  entryPoints: ["server/index.ts"],
  outfile: "build/node/index.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
console.log("bundled the server into build/node/index.js");
