import { format, stripVTControlCharacters } from "node:util";
import pino from "pino";

export type Logger = pino.Logger;

/** What an error may show in the log besides its type, message, stack and cause: codes, never values. */
const SAFE_ERROR_FIELDS = ["code", "status", "statusCode", "field", "constraint", "table", "column", "severity", "routine", "errno", "syscall"];

/**
 * An error as the log keeps it (the `err` of every log line). A failed query shows its SQL but never
 * its parameters (Drizzle puts them in the message: a commenter's e-mail, a session token), and a
 * database error never its `detail` (it quotes the values). Causes are kept the same way.
 */
export function loggableError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const query = (error as { query?: unknown }).query;
  const message = typeof query === "string" && "params" in error ? `Failed query: ${query} (parameters not logged)` : error.message;
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  const out: Record<string, unknown> = { type: error.constructor.name || error.name, message, stack: [`${error.name}: ${message}`, ...frames].join("\n") };
  for (const field of SAFE_ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (value !== undefined && (typeof value === "string" || typeof value === "number")) out[field] = value;
  }
  if (error.cause !== undefined && depth < 5) out.cause = loggableError(error.cause, depth + 1);
  return out;
}

/**
 * Something a library hands its logger (Better Auth: the failed query with its parameters, the
 * database error), made safe like loggableError: errors as above, `params` and `detail` dropped.
 */
export function loggableValue(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return loggableError(value);
  if (typeof value !== "object" || value === null || depth > 4) return value;
  if (Array.isArray(value)) return value.map((item) => loggableValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "params" || key === "parameters" || key === "detail") continue;
    out[key] = loggableValue(item, depth + 1);
  }
  return out;
}

/** The process's logger (to stdout; `destination` for tests). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const pretty = !destination && process.stdout.isTTY && process.env.NODE_ENV !== "test";
  const options: pino.LoggerOptions = {
    level,
    serializers: { err: loggableError },
    ...(pretty ? { transport: { target: "pino-pretty", options: { translateTime: "HH:MM:ss", ignore: "pid,hostname" } } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Makes what others print in this process lines of `log`: libraries' console output (React Router's
 * warning about a malformed percent-escape in a URL, once per request that sends one; Vite's in
 * development) and Node's own warnings. Any client could otherwise write a plain-text line into a
 * log that programs read as one JSON object a line (issue 28). Colour codes are dropped.
 */
export function logConsoleOutput(log: Logger): void {
  const to =
    (level: "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]) => {
      const err = args.find((arg) => arg instanceof Error);
      const text = stripVTControlCharacters(format(...args.filter((arg) => arg !== err)));
      log[level]({ source: "console", ...(err ? { err } : {}) }, text);
    };
  console.log = to("info");
  console.info = to("info");
  console.debug = to("debug");
  console.warn = to("warn");
  console.error = to("error");
  // Node's own printer is the only listener it adds; without it, a warning is printed once, here.
  process.removeAllListeners("warning");
  process.on("warning", (warning) => log.warn({ source: "node", err: warning }, warning.message));
}
