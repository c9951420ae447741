import { keepDataOnHashMoves } from "./lib/revalidation";
import { useEffect, useRef } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import appCss from "./app.css?url";
import { Toaster } from "./components/ui/toaster";
import { getSessionUser, type SessionUser } from "./domain/accounts/guard.server";
import { activeBreakingNews } from "./domain/settings/breaking-news.schema";
import { publicSettings } from "./domain/settings/settings.schema";
import { useNonce } from "./lib/nonce";
import { VIEW_EVENT } from "./lib/page-view-event";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env } = context;
  const [{ settings, categories, footerPages, bannerLive }, user] = await Promise.all([context.siteFrame(), getSessionUser(request, context)]);
  const banner = activeBreakingNews(settings);
  return {
    settings: publicSettings(settings, env.AD_CLIENT_ID),
    // "LIVE" instead of "Breaking" when the banner links to a live story (issue 31).
    breakingNews: banner ? { ...banner, live: bannerLive } : null,
    categories,
    footerPages,
    publicUrl: env.publicUrl,
    timeZone: env.TIME_ZONE,
    // The signed-in user, if any, and whether they are an admin (checked on every request).
    user: user as SessionUser | null,
  };
}

/**
 * The stylesheet, with a precedence: React then writes it at the top of the <head>, before the
 * scripts' preloads, instead of after them (issue 13: a phone's first paint waited for 37 of them).
 */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: appCss, precedence: "default" }];

// A move within the page ("#" links, then Back) loads nothing again (app/lib/revalidation.ts).
export const shouldRevalidate = keepDataOnHashMoves;

export type RootData = Awaited<ReturnType<typeof loader>>;

/** The root loader's data from a route's meta `matches`. */
export function rootDataFromMatches(matches: readonly ({ id: string; data?: unknown } | undefined)[]): RootData | undefined {
  return matches.find((m) => m?.id === "root")?.data as RootData | undefined;
}

/**
 * `<html data-hydrated>` once the page runs in the browser (its handlers attached): what a style or a
 * browser test that must wait for the script can look for, whichever runtime hydrated (decision 0030).
 */
function useHydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
}

export function Layout({ children }: { children: React.ReactNode }) {
  useHydratedMark();
  const data = useRouteLoaderData<typeof loader>("root");
  const favicon = data?.settings.faviconUrl || "/favicon.png";
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* In the order React writes the head (the stylesheet first), so that Preact, hydrating it, moves nothing (decision 0030). */}
        <Links />
        <link rel="icon" href={favicon} />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        <link rel="alternate" type="application/rss+xml" title={`${data?.settings.siteName ?? "Frontpage"} RSS`} href="/rss.xml" />
        <Meta />
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        <Toaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** The article page's route (app/routes.ts: "article/:slug"). */
const ARTICLE_ROUTE_ID = "routes/site/article";

/**
 * An article page's live view count: loads are counted where they arrive (the server counts this very
 * load, from the page cache too), and a cached page asks for the count once shown.
 */
function useLiveViewCount() {
  const location = useLocation();
  // An article page is the route that renders it (the URL rules' table stays on the server).
  const onArticle = useMatches().some((match) => match.id === ARTICLE_ROUTE_ID);
  // One ask per navigation, even where React runs effects twice (StrictMode in development); a move
  // within the page (a "#" link such as "Skip to content", or Back to before it) asks nothing.
  const recorded = useRef<{ key: string; path: string; hash: string } | null>(null);
  useEffect(() => {
    const path = `${location.pathname}${location.search}`;
    const last = recorded.current;
    if (last?.key === location.key || !onArticle) return;
    recorded.current = { key: location.key, path, hash: location.hash };
    if (last?.path === path && last.hash !== location.hash) return;
    fetch("/api/views", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ path }),
      keepalive: true,
    })
      .then((response) => (response.ok ? response.json() : null))
      .then((result: { path: string; views?: number } | null) => {
        if (result) window.dispatchEvent(new CustomEvent(VIEW_EVENT, { detail: result }));
      })
      .catch(() => {});
  }, [location.key, location.pathname, location.search, location.hash, onArticle]);
}

export default function App() {
  useLiveViewCount();
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let title = "Something went wrong";
  let message = "An unexpected error occurred. Please try again.";
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? "Oops! Page not found" : `${error.status} ${error.statusText}`;
    if (error.status === 404) message = "The page you're looking for doesn't exist.";
    // A refused request (a form with a NUL in a field, …) says why.
    const refusal = error.data as { error?: unknown } | null;
    if (error.status >= 400 && error.status < 500 && error.status !== 404 && typeof refusal?.error === "string") message = refusal.error;
  }
  return (
    <main className="flex flex-1 flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-slate-600">{message}</p>
      <a href="/" className="text-brand-700 underline">
        Return to Home
      </a>
    </main>
  );
}
