import type express from "express";
import { isSessionCookiePresent } from "../../app/lib/auth-cookie";
import { pathClassOf } from "../request-path-class";

/**
 * The one layer that decides Cache-Control for personal answers, from the class of the path
 * (`personal` in app/lib/path-classes.ts) and whether the request carries a session cookie:
 * - "always" (the back office, its login and API, the auth API, sign-out): exactly `no-store`,
 *   whatever a route set; an event stream `no-store, no-transform`, so no compressing proxy buffers it;
 * - "when-signed-in" (reader pages, feeds, public API): a GET/HEAD with a session cookie is rendered
 *   for its holder, so unless the route chose its own Cache-Control it is `private, no-store` and
 *   varies on Cookie: no shared cache (CDN, proxy) may keep it;
 * - "never" (assets, health): Express's own answers are left as they are.
 * Set as the headers go out, after every route and layer had its say, so there is one value, not two.
 */
export function personalAnswers(): express.RequestHandler {
  return (req, res, next) => {
    const { personal } = pathClassOf(req).rules;
    const read = req.method === "GET" || req.method === "HEAD";
    const decide =
      personal === "always" ? noStore : personal === "when-signed-in" && read && isSessionCookiePresent(req.headers.cookie) ? privateUnlessChosen : null;
    if (decide) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: express.Response, ...args: Parameters<typeof writeHead>) {
        decide(this);
        return writeHead.apply(this, args);
      } as typeof writeHead;
    }
    next();
  };
}

function noStore(res: express.Response) {
  const stream = /^text\/event-stream/i.test(String(res.getHeader("content-type") ?? ""));
  res.setHeader("Cache-Control", stream ? "no-store, no-transform" : "no-store");
}

function privateUnlessChosen(res: express.Response) {
  if (res.hasHeader("cache-control")) return;
  res.setHeader("Cache-Control", "private, no-store");
  res.vary("Cookie");
}
