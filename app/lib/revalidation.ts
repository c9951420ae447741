import type { ShouldRevalidateFunction } from "react-router";

/**
 * A move within the page is no new load (issue 13: loads are counted where they arrive). React Router
 * runs the loaders again when Back leaves a "#" address for the same page without one ("Skip to
 * content", then Back); this keeps the data instead. A revalidation of the page itself (after a
 * comment) still runs: its address does not change at all.
 */
export const keepDataOnHashMoves: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  const hashOnly = currentUrl.pathname === nextUrl.pathname && currentUrl.search === nextUrl.search && currentUrl.hash !== nextUrl.hash;
  return !formMethod && hashOnly ? false : defaultShouldRevalidate;
};
