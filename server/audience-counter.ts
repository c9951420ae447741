import type http from "node:http";
import type { AudienceRecorder } from "../app/domain/audience/audience-recorder.server";
import type { PageViewCounter } from "./request-handler";

/**
 * The audience's half of counting a load (issue 42, decision 0058), called where the page view is
 * counted (server/index.ts's PageViewCounter): the page's path without its query, the query's utm tags
 * and `ref`, the Referer, the user agent and the client address (`addressOf`: as Express derives it,
 * honouring "trust proxy"), handed to the recorder, which keeps only their hash and classes.
 */
export function audienceCounter(recorder: Pick<AudienceRecorder, "record">, addressOf: (req: http.IncomingMessage) => string): PageViewCounter {
  return (viewed, articleSlug, req) => {
    const url = req.url ?? "/";
    const queryAt = url.indexOf("?");
    const pathEnd = viewed.indexOf("?");
    recorder.record({
      path: pathEnd === -1 ? viewed : viewed.slice(0, pathEnd),
      articleSlug,
      address: addressOf(req),
      userAgent: req.headers["user-agent"] ?? "",
      referrer: req.headers.referer ?? "",
      query: queryAt === -1 ? "" : url.slice(queryAt + 1),
    });
  };
}
