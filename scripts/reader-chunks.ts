import path from "node:path";

/**
 * How the browser build splits JavaScript into files (decision 0029). Left to itself, the bundler
 * gives every module shared by two routes its own file: a reader page then loaded 31 to 38 files,
 * and on a phone's HTTP/1.1 connection each one waits its turn. Here every reader page loads a
 * handful instead:
 *
 * - `framework`: the browser's runtime (Preact: decision 0030) and React Router, which every page runs;
 * - `site`: what every page imports and what two reader routes share (the site's frame, cards,
 *   bylines, icons…);
 * - `<route>-parts`: what one reader route alone imports among the reader's modules;
 * - each route module's own file, and what the bundler splits by itself (back-office code).
 *
 * Back-office code never joins `site`: it is picked by what the reader routes import, not by folder.
 */

/** What every page runs: the browser's runtime (Preact, decision 0030; React in development) and React Router. */
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|preact|react-router|cookie|set-cookie-parser|turbo-stream)[\\/]/;

/** The route modules every page runs (the root) and every reader page runs (the site's layout). */
const FRAME_ROUTES = ["root.tsx", "routes/site/layout.tsx"];
/** The reader's routes (app/routes.ts): what two of them share joins `site`, the rest stays theirs. */
const READER_ROUTES = ["home", "category", "article", "author", "search", "about", "contact", "disclaimer", "cookie-policy", "privacy-policy", "terms-of-service", "not-found"].map((name) => `routes/site/${name}.tsx`);

/**
 * The packages the reader's code may bring into `site`, imported file by file (scripts/deep-imports.ts
 * rewrites imports of their barrels): icons, the button's Slot, class-name joining.
 */
const READER_PACKAGES = /[\\/]node_modules[\\/](clsx|lucide-react[\\/]dist[\\/]esm[\\/](?!lucide-react\.mjs)|@radix-ui[\\/]react-(slot|compose-refs))[\\/]?/;

type ModuleInfo = { importedIds: readonly string[] };
type Context = { getModuleInfo(id: string): ModuleInfo | null };

const isAppModule = (id: string, appDirectory: string) => id.startsWith(appDirectory + path.sep) && !id.includes("?");
/** Route modules are each their route's own file: never moved into `site`. */
const isRouteModule = (id: string, appDirectory: string) => id === path.join(appDirectory, "root.tsx") || id.startsWith(path.join(appDirectory, "routes") + path.sep);
const mayJoinSite = (id: string, appDirectory: string) => isAppModule(id, appDirectory) || READER_PACKAGES.test(id);

/**
 * The modules `routes` import statically (dynamic imports stay lazy) that may join `site`, followed
 * through app/ and the reader packages only. Before tree-shaking, a module placed in `site` brings
 * whatever any route uses of it: so a module of ours that imports another package (zod, Radix's
 * dialogs, sonner…) stays out of `site` and is split automatically, as before.
 */
function candidatesOf(routes: string[], appDirectory: string, ctx: Context): Set<string> {
  const found = new Set<string>();
  const seen = new Set<string>();
  const queue = [...routes];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const imports = ctx.getModuleInfo(id)?.importedIds ?? [];
    if (!isRouteModule(id, appDirectory) && imports.every((imported) => mayJoinSite(imported, appDirectory) || FRAMEWORK.test(imported))) found.add(id);
    for (const imported of imports) if (mayJoinSite(imported, appDirectory)) queue.push(imported);
  }
  return found;
}

/**
 * Which reader chunk each module joins: `site` for what every page imports and what at least two of
 * the reader's main routes import; `<route>-parts` for what one of them alone imports among the
 * reader's modules, so that a module the back office shares (the article's view, with the preview)
 * does not become a file of its own.
 */
function readerChunkOf(appDirectory: string, ctx: Context): Map<string, string> {
  const inApp = (files: string[]) => files.map((file) => path.join(appDirectory, file));
  const chunkOf = new Map<string, string>();
  for (const id of candidatesOf(inApp(FRAME_ROUTES), appDirectory, ctx)) chunkOf.set(id, "site");
  const usedBy = new Map<string, string[]>();
  for (const route of READER_ROUTES) {
    for (const id of candidatesOf(inApp([route]), appDirectory, ctx)) usedBy.set(id, [...(usedBy.get(id) ?? []), path.basename(route, ".tsx")]);
  }
  for (const [id, routes] of usedBy) if (!chunkOf.has(id)) chunkOf.set(id, routes.length >= 2 ? "site" : `${routes[0]}-parts`);
  return chunkOf;
}

/** `output.codeSplitting` for the browser build; `appDirectory` is where app/routes.ts's files live. */
export function readerChunks(appDirectory: string) {
  const chunks = new WeakMap<Context, Map<string, string>>();
  const chunkOf = (ctx: Context) => {
    if (!chunks.has(ctx)) chunks.set(ctx, readerChunkOf(appDirectory, ctx));
    return chunks.get(ctx)!;
  };
  return {
    // Higher priority first: a group takes its modules and what they import before the next one looks.
    groups: [
      { name: "framework", test: FRAMEWORK, priority: 3 },
      { name: (id: string, ctx: Context) => (chunkOf(ctx).get(id) === "site" ? "site" : null), priority: 2 },
      { name: (id: string, ctx: Context) => chunkOf(ctx).get(id) ?? null, priority: 1 },
    ],
  };
}
