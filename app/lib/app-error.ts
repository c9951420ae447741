/**
 * The one error family of the application. An expected refusal (bad input, a missing or forbidden
 * thing, a taken slug, a start that cannot go on) is an AppError with:
 * - `code`: stable, for programs and tests (never compare `message`);
 * - `status`: the HTTP status a route answers with;
 * - `message`: for people (shown in the toast, beside the field, or as the operator's one log line);
 * - `field`: the form field it concerns, when there is one.
 * Anything else thrown is unexpected: it reaches the error boundary as a generic message and the log
 * keeps the cause.
 */
export type AppErrorCode =
  /** A required field was blank: the spec's "Missing fields" notice. */
  | "missing_fields"
  /** Input that breaks a rule of the schema or of the service (the message says which). */
  | "invalid_input"
  | "not_found"
  | "unauthorized"
  | "forbidden"
  /** A unique name (slug, e-mail) is taken. */
  | "taken"
  /** The thing is still used elsewhere and cannot be deleted. */
  | "in_use"
  | "too_large"
  | "unsupported_type"
  | "rate_limited"
  /** A bad environment variable: one line for the operator, exit 1. */
  | "invalid_config"
  /** The server cannot start (port taken, PostgreSQL cannot run): one line naming cause and fix, exit 1. */
  | "start_failed";

const DEFAULT_STATUS: Record<AppErrorCode, number> = {
  missing_fields: 400,
  invalid_input: 400,
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  taken: 400,
  in_use: 400,
  too_large: 413,
  unsupported_type: 415,
  rate_limited: 429,
  invalid_config: 500,
  start_failed: 500,
};

export class AppError<Field extends string = string> extends Error {
  readonly code: AppErrorCode;
  readonly status: number;
  readonly field?: Field;

  constructor(code: AppErrorCode, message: string, options: { status?: number; field?: Field; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = options.status ?? DEFAULT_STATUS[code];
    this.field = options.field;
  }
}

/** True for an AppError (of one of `codes`, when given). */
export function isAppError(error: unknown, ...codes: AppErrorCode[]): error is AppError {
  return error instanceof AppError && (codes.length === 0 || codes.includes(error.code));
}
