/**
 * PostgreSQL's refusals, read from a failed query's SQLSTATE code. Drizzle wraps the driver's error
 * in `cause`, so the chain is followed.
 */
export function pgErrorCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** 23505: a unique index refused the row (a slug or name taken, maybe by a concurrent write). */
export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === "23505";

/** 23503: a foreign key refused the row (the row it names was deleted meanwhile). */
export const isForeignKeyViolation = (error: unknown) => pgErrorCode(error) === "23503";

/** Class 22, "data exception": a value the database refuses as data (bad encoding, out of range, …). */
export const isDataException = (error: unknown) => pgErrorCode(error)?.startsWith("22") ?? false;

/** The constraint a refusal names (a foreign key's or index's name), following the chain like pgErrorCode. */
export function pgConstraint(error: unknown): string | undefined {
  for (let e = error as { constraint?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.constraint === "string") return e.constraint;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** What a lost or refused connection says (node-postgres' and Node's own words, not SQLSTATE codes). */
const UNAVAILABLE_MESSAGES = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout/;
const UNAVAILABLE_SYSTEM_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * Whether a failure is the database being away (killed, restarting, out of reach), not a refusal of
 * this statement: class 08 (connection exception), 57P01–57P03 (shut down, crashed, not yet accepting
 * connections), or the driver's lost-connection errors, anywhere in the chain. Work that meets it
 * stops and is tried again whole later, instead of counting the item it was on as bad (issue 39).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    const code = typeof e.code === "string" ? e.code : "";
    if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || UNAVAILABLE_SYSTEM_CODES.has(code)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}
