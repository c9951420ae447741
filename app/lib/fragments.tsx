import { createContext, createElement, useContext, type ReactElement, type ReactNode } from "react";
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FrameworkContext as FrameworkContext,
  UNSAFE_LocationContext as LocationContext,
  UNSAFE_NavigationContext as NavigationContext,
  UNSAFE_RouteContext as RouteContext,
} from "react-router";

/**
 * Rendered HTML of a part of a page, kept by a key of everything the part shows (issue 32, decision
 * 0048): a story card is the same markup for every reader until its story (or its view count, the
 * site's name or zone) changes, and it took a large share of each render. The server renders a part
 * once (react-dom/server's renderToString, which writes text separators as the page's stream does) and
 * puts the HTML inside the same wrapper element; the browser renders the part's children as ever, so
 * the DOM it hydrates is the same.
 *
 * Only for parts whose markup is a function of their key: no nonce, no useId, no preloads (React
 * writes those into the <head> of the render they happen in), no links that depend on where the page
 * is (a NavLink's active state, a relative path).
 */
export interface FragmentCache {
  /** The HTML of `render()`'s element, from the cache when `key` was rendered before in `pool`. */
  html(pool: string, key: string, render: () => ReactElement): string;
}

/** Set by app/entry.server.tsx; null in the browser (and wherever a render has no cache). */
export const FragmentCacheContext = createContext<FragmentCache | null>(null);

/**
 * Bounded maps of rendered fragments, one per pool (the story cards, the footer, search results), so
 * that many different searches never push the cards out; past `maxEntries`, a pool starts afresh
 * (keys carry their inputs: nothing is ever stale).
 */
export function createFragmentCache(
  renderToString: (element: ReactElement) => string,
  { maxEntries = 2_000 }: { maxEntries?: number } = {},
): FragmentCache & { size(): number } {
  const pools = new Map<string, Map<string, string>>();
  return {
    html(pool, key, render) {
      let kept = pools.get(pool);
      let html = kept?.get(key);
      if (html === undefined) {
        html = renderToString(render());
        if (!kept || kept.size >= maxEntries) pools.set(pool, (kept = new Map()));
        kept.set(key, html);
      }
      return html;
    },
    size: () => [...pools.values()].reduce((sum, kept) => sum + kept.size, 0),
  };
}

type Tag = "article" | "div" | "footer" | "li" | "section";

/**
 * `<as {...props}>{children}</as>`, with its inner HTML from the fragment cache's `pool` on the server
 * under `cacheKey` (null: rendered as usual). The children are rendered within the page's router contexts
 * (their links resolve as they would in place), and must show nothing but what the key names.
 */
export function CachedElement({
  as,
  pool,
  cacheKey,
  children,
  ...props
}: { as: Tag; pool: string; cacheKey: string | null; children: ReactNode } & Record<string, unknown>) {
  const cache = useContext(FragmentCacheContext);
  const contexts = useRouterContexts();
  if (!cache || cacheKey === null) return createElement(as, props, children);
  // The wrapper's tag and attributes are in the key too: only its inside is kept.
  const html = cache.html(pool, `${as}\u0000${JSON.stringify(props)}\u0000${cacheKey}`, () => withRouterContexts(contexts, children));
  return createElement(as, { ...props, dangerouslySetInnerHTML: { __html: html } });
}

function useRouterContexts() {
  return {
    dataRouter: useContext(DataRouterContext),
    dataRouterState: useContext(DataRouterStateContext),
    framework: useContext(FrameworkContext),
    navigation: useContext(NavigationContext),
    location: useContext(LocationContext),
    route: useContext(RouteContext),
  };
}

function withRouterContexts(contexts: ReturnType<typeof useRouterContexts>, children: ReactNode): ReactElement {
  return (
    <DataRouterContext.Provider value={contexts.dataRouter}>
      <DataRouterStateContext.Provider value={contexts.dataRouterState}>
        <FrameworkContext.Provider value={contexts.framework}>
          <NavigationContext.Provider value={contexts.navigation}>
            <LocationContext.Provider value={contexts.location}>
              <RouteContext.Provider value={contexts.route}>{children}</RouteContext.Provider>
            </LocationContext.Provider>
          </NavigationContext.Provider>
        </FrameworkContext.Provider>
      </DataRouterStateContext.Provider>
    </DataRouterContext.Provider>
  );
}
