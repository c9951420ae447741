import type { AddressInfo } from "node:net";
import express from "express";
import { createLogger, type Logger } from "../../app/lib/logger.server";

/** Runs an Express app on a free local port for one test file; `close` stops it. */
export async function serve(app: express.Express): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A logger that keeps what is logged, for assertions. */
export function recordingLogger(): { log: Logger; entries: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const log = createLogger("debug", { write: (line: string) => void lines.push(line) });
  return { log, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
