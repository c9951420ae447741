import type http from "node:http";
import { isIPv6, type AddressInfo } from "node:net";
import { AppError } from "../app/lib/app-error";
import type { Logger } from "../app/lib/logger.server";

/**
 * Listens on PORT and HOST and resolves with the address really bound (PORT 0 picks a free port).
 * The failures an operator can fix are an AppError `start_failed` naming the variable to change
 * (`names`: another listener's, METRICS_PORT and METRICS_HOST).
 */
export async function listen(server: http.Server, port: number, host: string, names: { port: string; host: string } = { port: "PORT", host: "HOST" }): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    const what = names.port === "PORT" ? `port ${port}` : `${names.port} ${port}`;
    const where = `${what} (${names.host} ${host})`;
    if (error.code === "EADDRINUSE") throw new AppError("start_failed", `${what} is already in use (${names.host} ${host}): stop what runs there or set ${names.port} to another port`, { cause: error });
    if (error.code === "EACCES") throw new AppError("start_failed", `no permission to listen on ${where}: set ${names.port} to 1024 or above`, { cause: error });
    if (error.code === "EADDRNOTAVAIL") throw new AppError("start_failed", `${names.host} ${host} is not an address of this machine`, { cause: error });
    throw error;
  });
  return server.address() as AddressInfo;
}

/** The URL of a bound address: http://127.0.0.1:3000, http://[::1]:3000. */
export function urlOf(address: AddressInfo): string {
  const host = isIPv6(address.address) ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The start's last line: where the server really listens, what it was asked for, and the public URL. */
export function readyMessage(address: AddressInfo, env: { HOST: string; PORT: number; publicUrl: string }): string {
  return `Frontpage is ready: listening on ${urlOf(address)} (HOST ${env.HOST}, PORT ${env.PORT}), public URL ${env.publicUrl}`;
}

/**
 * The HTTP server's shutdown step: stop accepting, let in-flight requests finish, and after the grace
 * period cut whatever is left. Event streams never finish on their own: `endStreams` ends them at once
 * (browsers reconnect to another process).
 */
export function closeHttpServer(server: http.Server, options: { graceMs: number; log: Logger; endStreams: () => void }): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      options.log.warn("grace period over; closing remaining connections");
      server.closeAllConnections();
    }, options.graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
    options.endStreams();
  });
}
