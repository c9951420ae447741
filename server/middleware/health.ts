import type express from "express";
import type { Logger } from "../../app/lib/logger.server";

/**
 * GET /healthz: 200 { status: "ok", database: "up" } when the database answers `ping` within
 * `timeoutMs`, else 503 { status: "error", database: "down" } (and a warning in the log).
 */
export function healthCheck(options: { ping: () => Promise<unknown>; log: Logger; timeoutMs?: number; onAnswer?: () => void }): express.RequestHandler {
  const timeoutMs = options.timeoutMs ?? 2000;
  return async (_req, res) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
    try {
      const answer = await Promise.race([options.ping().then(() => "up" as const), late]);
      if (answer === "up") {
        // The pages' gate (server/database-health.ts) agrees at once: no 503 after a 200 here.
        options.onAnswer?.();
        return void res.status(200).json({ status: "ok", database: "up" });
      }
      options.log.warn({ timeoutMs }, "health check failed: the database did not answer in time");
    } catch (error) {
      options.log.warn({ reason: (error as Error).message }, "health check failed");
    } finally {
      clearTimeout(timer);
    }
    res.status(503).json({ status: "error", database: "down" });
  };
}
