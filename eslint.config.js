// ESLint flat config. The import rules (which folder may import which) are explained in
// docs/decisions/0006-eslint-boundaries.md; scripts/lint-boundaries.test.ts proves they catch both
// `~/…` and relative imports.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const ROOT = import.meta.dirname;

// Layers, top to bottom: routes → components / domain → lib → db. A layer imports only the layers
// below it. app/root.tsx is the root route module, so it counts as a route here.
const ROUTE_MODULES = ["./app/routes", "./app/root.tsx"];
const layerZones = [
  {
    target: "./app/db",
    from: ["./app/lib", "./app/domain", "./app/components", ...ROUTE_MODULES],
    message: "app/db is the bottom layer: it imports nothing else from app/.",
  },
  {
    target: "./app/lib",
    from: ["./app/domain", "./app/components", ...ROUTE_MODULES],
    message: "app/lib is infrastructure: it may import app/db, not domain, components or routes.",
  },
  {
    target: "./app/domain",
    from: ["./app/components", ...ROUTE_MODULES],
    message: "app/domain may import app/lib and app/db, not components or routes.",
  },
  {
    target: "./app/components",
    from: ["./app/routes"],
    message: "Components may not import route modules; move what they share into components/, domain/ or lib/.",
  },
];
// server/ and scripts/ are the Node side: they may import app/, never the other way round.
const nodeSideZones = [
  { target: "./app", from: "./server", message: "app/ may not import server/ (the Node entry imports app/, not the other way round)." },
  { target: "./app", from: "./scripts", message: "app/ may not import scripts/." },
];
// Route modules are referenced by app/routes.ts as strings; only tests import them.
const routeZones = [
  {
    target: ["./app", "./server", "./scripts"],
    from: "./app/routes",
    message: "Only app/routes.ts (by file name) and tests refer to route modules.",
  },
];
// Files that may end up in the browser bundle. Route modules are left out on purpose: React Router
// strips their loaders and actions (and so their .server imports) from the client build.
const BROWSER_FILES = ["app/components/**/*.{ts,tsx}", "app/lib/**/*.{ts,tsx}", "app/domain/**/*.{ts,tsx}", "app/db/**/*.{ts,tsx}"];
const NOT_BROWSER_FILES = ["app/**/*.server.{ts,tsx}", "app/**/.server/**", "app/**/*.test.{ts,tsx}"];
const browserZones = [
  {
    target: "./app",
    from: ["./app/**/*.server.{ts,tsx}", "./app/**/.server/**"],
    message: "Only *.server modules and route modules may import a *.server module: this file can reach the browser bundle.",
  },
];

const restrictedPaths = (...zones) => ["error", { basePath: ROOT, zones: zones.flat() }];

export default defineConfig([
  globalIgnores(["build/", ".react-router/", "node_modules/", "public/", "drizzle/", "data/", "test-results/", "playwright-report/"]),

  js.configs.recommended,
  // Not the type-aware set: it took 81 s here (2 cores) against 20 s, and tsc already runs in npm test.
  tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks a parameter kept for its position (Express's 4-argument error
      // handler, a mock's signature); `const { a: _, ...rest } = x` is how a key is left out.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: globals.node },
  },

  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },

  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: `${ROOT}/tsconfig.json` })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": restrictedPaths(layerZones, nodeSideZones, routeZones),
    },
  },
  {
    files: BROWSER_FILES,
    ignores: NOT_BROWSER_FILES,
    rules: { "import-x/no-restricted-paths": restrictedPaths(layerZones, nodeSideZones, routeZones, browserZones) },
  },
  {
    // Everything the browser build can reach, route modules included.
    files: ["app/**/*.{ts,tsx}"],
    ignores: [...NOT_BROWSER_FILES, "app/entry.server.tsx"],
    rules: {
      // The browser runs Preact's compat (decision 0030): React 19's newest hooks are not in it.
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "react",
              importNames: ["use", "useActionState", "useOptimistic", "useFormStatus", "useEffectEvent", "Activity"],
              message: "Preact's compat runs this in the browser (decision 0030) and has no such API.",
            },
            { name: "react-dom", importNames: ["useFormStatus", "preload", "preinit", "preinitModule", "preloadModule", "preconnect", "prefetchDNS"], message: "Preact's compat runs this in the browser (decision 0030) and has no such API." },
          ],
        },
      ],
    },
  },
  {
    // Tests may import route modules (to call a loader or action directly).
    files: ["**/*.test.{ts,tsx}", "tests/**"],
    rules: { "import-x/no-restricted-paths": restrictedPaths(layerZones, nodeSideZones) },
  },
]);
