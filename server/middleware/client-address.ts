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
