import { Fragment, options } from "preact";
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

/**
 * React Router's default browser entry, run by Preact (decision 0030), with one change: it hydrates
 * once the router has decoded the page's data from the HTML. HydratedRouter's first call starts that
 * decoding and throws its promise (React Router 7.18); React waits at its root for such a promise,
 * Preact has no root to wait at, so the entry waits for it first and hydrates in one pass after.
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

void pageDataDecoded().then(() =>
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  ),
);
