import type http from "node:http";
import type express from "express";
import { CLIENT_IP_HEADER } from "../../app/lib/client-address.server";

/**
 * The client address sign-in, sign-up and upload limits count under: whatever Express derived
 * (honouring "trust proxy"), never a value the client sent in this header itself.
 */
export function clientAddress(): express.RequestHandler {
  return (req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    next();
  };
}

/** Express's compiled "trust proxy" setting (`app.get("trust proxy fn")`): is the hop at `address`, `i` hops away, a trusted proxy? */
export type TrustProxy = (address: string, i: number) => boolean;

/**
 * The client address of a request answered before Express (the live streams' door), as Express would
 * derive it for `req.ip`: the socket's address, then each X-Forwarded-For entry from the nearest, for as
 * long as the hop before is a trusted proxy.
 */
export function forwardedClientAddress(req: http.IncomingMessage, trust: TrustProxy): string {
  const socket = req.socket.remoteAddress ?? "unknown";
  const header = req.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse();
  const hops = [socket, ...forwarded];
  for (let i = 0; i < hops.length - 1; i++) if (!trust(hops[i]!, i)) return hops[i]!;
  return hops[hops.length - 1]!;
}
