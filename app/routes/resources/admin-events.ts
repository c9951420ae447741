import { data } from "react-router";
import { requireCapabilityApi } from "~/domain/accounts/guard.server";
import type { ChangeEvent } from "~/lib/change-feed.server";
import type { Route } from "./+types/admin-events";

/** A comment line keeps proxies and load balancers from closing an idle stream. */
export const SSE_PING_INTERVAL_MS = 25_000;
/** How long the browser waits before reconnecting after the stream drops. */
const SSE_RETRY_MS = 2_000;

const encoder = new TextEncoder();

/**
 * GET /api/admin/events: a server-sent event stream for the admin dashboard. Every change to
 * articles, comments, categories or settings (PostgreSQL notifications, so from any app process or
 * a direct database write) is forwarded as one `data:` message; the page then reloads its figures.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireCapabilityApi(request, context, "backOffice");
  const { changes, log } = context;

  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const onChange = (event: ChangeEvent) => {
        send(`data: ${JSON.stringify({ table: event.table, op: event.op })}\n\n`);
      };
      const ping = setInterval(() => send(`: ping\n\n`), SSE_PING_INTERVAL_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(ping);
        changes.off("change", onChange);
        request.signal.removeEventListener("abort", cleanup);
        try {
          controller.close();
        } catch {
          // Already closed by the reader going away.
        }
      };
      changes.on("change", onChange);
      request.signal.addEventListener("abort", cleanup);
      if (request.signal.aborted) return cleanup();
      // Opens the stream at once (headers and a first chunk) and sets the reconnect delay.
      send(`retry: ${SSE_RETRY_MS}\n: connected\n\n`);
      log.debug("admin event stream opened");
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}

/** Anything but GET: the guard answers first (401/403), then 405 for an admin. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireCapabilityApi(request, context, "backOffice");
  throw data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "GET" } });
}
