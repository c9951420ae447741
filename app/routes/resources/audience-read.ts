import { isbot } from "isbot";
import { data } from "react-router";
import { parseReadReport } from "~/domain/audience/read-report";
import { clientIpOf } from "~/lib/client-address.server";
import { AddressWindow } from "~/lib/address-window.server";
import type { Route } from "./+types/audience-read";

/**
 * Reports one address may send a minute, in this process: a page sends one every 5 s at most while
 * read, and an office or a carrier shares one address among many readers.
 */
export const READ_REPORTS_PER_MINUTE = 600;
const perAddress = new AddressWindow(READ_REPORTS_PER_MINUTE, 60_000);

const noContent = () => new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });

/**
 * POST /api/audience/read (issue 42): a story page's reading report, `{ path, loadId, engagedMs, depth }`
 * as JSON (sendBeacon sends it as text/plain). 400 with the reason for a bad one; 204 otherwise, stored
 * (buffered, with the reader's visitor hash) when the path is a public story's, the sender no bot and
 * audience recording on. Counted per address in memory (a database limiter would store the address).
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  const parsed = parseReadReport(await request.text());
  if ("error" in parsed) return data({ error: parsed.error }, { status: 400, headers: { "Cache-Control": "no-store" } });
  const userAgent = request.headers.get("user-agent") ?? "";
  if (!context.env.AUDIENCE_RECORDING || isbot(userAgent)) return noContent();
  const address = clientIpOf(request);
  if (!perAddress.take(address)) {
    return data({ error: "Too many reading reports from this address. Try again in a minute." }, { status: 429, headers: { "Retry-After": "60", "Cache-Control": "no-store" } });
  }
  const { path, loadId, engagedMs, depth } = parsed.report;
  context.audience.recordRead({ path, loadId, engagedMs, depth, address, userAgent });
  return noContent();
}

export function loader() {
  throw data({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST" } });
}
