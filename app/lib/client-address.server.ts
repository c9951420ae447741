/**
 * The header the server overwrites on every request with the client address Express derived
 * (honouring `trust proxy`), so a client cannot choose the address its attempts are counted under.
 */
export const CLIENT_IP_HEADER = "x-frontpage-client-ip";

/** The client address the server put on the request ("unknown" outside that server, e.g. in tests). */
export function clientIpOf(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER)?.trim() || "unknown";
}
