import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { deepImports } from "./scripts/deep-imports.ts";
import { readerChunks } from "./scripts/reader-chunks.ts";

const appDirectory = path.resolve(import.meta.dirname, "app");

/** In the browser's build, React's modules are Preact's compat; the server renders with React (decision 0030). */
const PREACT_IN_THE_BROWSER = [
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-dev-runtime" },
  { find: /^react$/, replacement: "preact/compat" },
];

/**
 * React Router's package resolves to its development build everywhere (remix-run/react-router#12532,
 * #14102): its development warnings, their strings and checks, would ship to every reader. The
 * browser's build takes the production build, which differs only by that flag; every browser import
 * of the package goes through here, so the browser holds one copy.
 */
const routerBuild = path.resolve(import.meta.dirname, "node_modules/react-router/dist/production");
const ROUTER_PRODUCTION_IN_THE_BROWSER = [
  { find: /^react-router$/, replacement: path.join(routerBuild, "index.mjs") },
  { find: /^react-router\/dom$/, replacement: path.join(routerBuild, "dom-export.mjs") },
];

export default defineConfig(({ command, isSsrBuild }) => {
  // The browser's build: not the server's, nor the development server (one module graph serves both there).
  const browserBuild = command === "build" && !isSsrBuild;
  return {
    // The browser's imports of both barrels go to their files (the chunking needs it). So do the
    // server's lucide-react imports, so that a worker never loads the barrel of every icon (300 ms of
    // each start here); Radix's barrel stays whole on the server (one copy of each primitive's context).
    plugins: [
      tailwindcss(),
      reactRouter(),
      ...(command === "build" ? [browserBuild ? deepImports(["lucide-react", "radix-ui"]) : deepImports(["lucide-react"], { server: true })] : []),
    ],
    resolve: { alias: [{ find: "~", replacement: appDirectory }, ...(browserBuild ? [...PREACT_IN_THE_BROWSER, ...ROUTER_PRODUCTION_IN_THE_BROWSER] : [])] },
    build: {
      assetsInlineLimit: 0,
      // A few files per reader page, not thirty (scripts/reader-chunks.ts, decision 0029).
      ...(browserBuild ? { rolldownOptions: { output: { codeSplitting: readerChunks(appDirectory) } } } : {}),
    },
  };
});
