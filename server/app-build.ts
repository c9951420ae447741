import type http from "node:http";
import path from "node:path";
import type express from "express";
import type { ServerBuild } from "react-router";
import { withoutTheirExitHooks } from "./exit-hooks";
import type { Lifecycle } from "./lifecycle";
import { staticAssets } from "./middleware/static-assets";
import { ROOT } from "./root";

export type AppBuild = ServerBuild | (() => Promise<ServerBuild>);

/**
 * The React Router build, with what serves the browser's files mounted on `app`: in development,
 * Vite in middleware mode (its HMR rides on our own HTTP server, so several dev servers never fight
 * over a port); in production, build/client's static assets and build/server's render.
 */
const SERVER_BUILD = path.join(ROOT, "build/server/index.js");

/** Starts loading the production build's modules (mountAppBuild then finds them loaded); a failure is mountAppBuild's to report. */
export function preloadAppBuild(dev: boolean) {
  if (!dev) import(SERVER_BUILD).catch(() => {});
}

export async function mountAppBuild(options: { app: express.Express; server: http.Server; dev: boolean; lifecycle: Lifecycle }): Promise<AppBuild> {
  const { app, server, lifecycle } = options;
  if (options.dev) {
    const vite = await import("vite");
    const viteServer = await withoutTheirExitHooks(() => vite.createServer({ server: { middlewareMode: true, hmr: { server } }, root: ROOT }));
    lifecycle.onShutdown("vite", () => viteServer.close());
    app.use(viteServer.middlewares);
    return () => viteServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  }
  app.use(staticAssets(path.join(ROOT, "build/client")));
  return (await import(SERVER_BUILD)) as ServerBuild;
}
