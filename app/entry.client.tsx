import { Fragment, options } from "preact";
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { inTimeZone, siteTimeZoneOf } from "./lib/dates";

// React Router's default browser entry, run by Preact (decision 0030), with two changes below.

/**
 * It hydrates once the router has decoded the page's data from the HTML. HydratedRouter's first call
 * starts that decoding and throws its promise (React Router 7.18); React waits at its root for such a
 * promise, Preact has no root to wait at, so the entry waits for it first and hydrates in one pass after.
 */
function pageDataDecoded(): Promise<unknown> {
  try {
    (HydratedRouter as (props: object) => unknown)({});
  } catch (pending) {
    if (pending instanceof Promise) return pending;
    return Promise.reject(pending);
  }
  return Promise.resolve();
}

/**
 * Preact hydrates a document into its <html> element, so the <html> our root layout renders stands
 * for the element that is already there: its children are hydrated in place.
 */
const nextVNodeHook = options.vnode;
options.vnode = (vnode) => {
  if (vnode.type === "html") vnode.type = Fragment;
  nextVNodeHook?.(vnode);
};

/**
 * A page's first date loads ICU's time-zone data (15–19 ms here, four times that on Lighthouse's slow
 * phone). Formatting one date in the site's zone first, in a task of its own, keeps that out of the
 * hydration's single task (issue 13: Total Blocking Time); the formatter stays cached for it.
 */
function datesReady(): Promise<void> {
  // The root loader's data, as React Router has just decoded it into its context.
  const state = (window as { __reactRouterContext?: { state?: { loaderData?: { root?: { timeZone?: string } } } } }).__reactRouterContext?.state;
  inTimeZone(new Date(), siteTimeZoneOf(state?.loaderData?.root));
  return new Promise((resolve) => setTimeout(resolve, 0));
}

void pageDataDecoded()
  .then(datesReady)
  .then(() =>
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    ),
  );
