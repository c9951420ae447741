import { Writable } from "node:stream";
import { createLogger, type Logger } from "../../app/lib/logger.server";

/** A logger whose lines are kept (JSON objects), for the purge tests (decision 0045) to read what was said. */
export function recordingLog(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger(
    "debug",
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    }),
  );
  return { log, lines };
}
