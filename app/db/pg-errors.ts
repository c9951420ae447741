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
