import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { ServerRouter, type AppLoadContext, type EntryContext, type HandleErrorFunction } from "react-router";
import { createFragmentCache, FragmentCacheContext } from "./lib/fragments";
import { htmlStream } from "./lib/html-stream.server";
import { NonceContext } from "./lib/nonce";
import { classifyPath } from "./lib/path-classes";

// React Router's default Node entry, with two additions: every script the page carries (React Router's
// context and module scripts, React's streaming scripts, the scroll restoration) is given this
// answer's nonce, the only way a script runs under the Content-Security-Policy; and the page goes out
// through htmlStream (what React writes at once leaves as one chunk; a reader page's head leaves out
// React Router's script preloads: decision 0029).

export const streamTimeout = 5_000;

/** The rendered HTML of page parts the same for every reader (story cards), kept by their inputs (app/lib/fragments.tsx). */
const fragments = createFragmentCache(renderToString);

/**
 * A loader's or action's unexpected error, in the app's log (whose serializer keeps query parameters
 * and database details out), instead of React Router's console.error of the whole error. A request the
 * client aborted is no error.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => logRenderError(error, request, context as AppLoadContext | undefined);

function logRenderError(error: unknown, request: Request, context: AppLoadContext | undefined) {
  if (request.signal.aborted) return;
  if (context?.log) context.log.error({ err: error, method: request.method, path: new URL(request.url).pathname }, "request failed");
  else console.error(error);
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  const nonce = loadContext.cspNonce ?? "";

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers wait for all content (they read the whole page at once); readers get the shell first.
    const readyOption: keyof RenderToPipeableStreamOptions = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <FragmentCacheContext.Provider value={fragments}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce || undefined} />
        </FragmentCacheContext.Provider>
      </NonceContext.Provider>,
      {
        nonce: nonce || undefined,
        [readyOption]() {
          shellRendered = true;
          // What React writes at once goes out at once (decision 0031); a reader page's scripts load
          // after its stylesheet and images (decision 0029).
          const body = htmlStream({ dropModulePreloads: !classifyPath(new URL(request.url).pathname).rules.preloadsScripts });
          body.once("finish", () => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
          });
          responseHeaders.set("Content-Type", "text/html");
          pipe(body);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors inside the shell reach handleError; later ones (streamed) only here, logged the same way.
          if (shellRendered) logRenderError(error, request, loadContext);
        },
      },
    );
  });
}
