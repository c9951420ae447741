/**
 * The one error family of the application. An expected refusal (bad input, a missing or forbidden
 * thing, a taken slug, a start that cannot go on) is an AppError with:
 * - `code`: stable, for programs and tests (never compare `message`);
 * - `status`: the HTTP status a route answers with;
 * - `message`: for people (shown in the toast, beside the field, or as the operator's one log line);
 * - `field`: the form field it concerns, when there is one, and `fieldErrors` when a form broke
 *   several rules at once (a schema's problems, field by field).
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
  /** The route answers other methods only (the answer names them in Allow). */
  | "method_not_allowed"
  | "forbidden"
  /** A slug another article or category already has. */
  | "slug_taken"
  /** A slug that is still the old address of another article (it redirects there): taken only when asked to. */
  | "slug_redirects"
  /** An account with that e-mail address exists already. */
  | "already_exists"
  /** A file is still used (by an article, a comment, the settings) and cannot be deleted. */
  | "in_use"
  /** A media URL that is not a file of this site's media store (of the right kind). */
  | "invalid_media"
  /** A category that no longer exists. */
  | "unknown_category"
  | "too_large"
  | "unsupported_type"
  | "rate_limited"
  /** The same work is already under way (another import runs): try again when it ends. */
  | "busy"
  /** Another service (a CDN, an old site's server, SNS's certificate host) refused or could not be reached. */
  | "upstream_failed"
  /** Something failed unexpectedly (the cause is logged): the answer only says to try again. */
  | "server_error"
  /** A bad environment variable: one line for the operator, exit 1. */
  | "invalid_config"
  /** The server cannot start (port taken, PostgreSQL cannot run): one line naming cause and fix, exit 1. */
  | "start_failed";

const DEFAULT_STATUS: Record<AppErrorCode, number> = {
  missing_fields: 400,
  invalid_input: 400,
  not_found: 404,
  unauthorized: 401,
  method_not_allowed: 405,
  forbidden: 403,
  slug_taken: 400,
  slug_redirects: 409,
  already_exists: 400,
  in_use: 409,
  invalid_media: 400,
  unknown_category: 400,
  too_large: 413,
  unsupported_type: 415,
  rate_limited: 429,
  busy: 409,
  upstream_failed: 502,
  server_error: 500,
  invalid_config: 500,
  start_failed: 500,
};

export class AppError<Field extends string = string> extends Error {
  readonly code: AppErrorCode;
  readonly status: number;
  readonly field?: Field;
  readonly fieldErrors?: Partial<Record<Field, string>>;

  constructor(
    code: AppErrorCode,
    message: string,
    options: { status?: number; field?: Field; fieldErrors?: Partial<Record<Field, string>>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = options.status ?? DEFAULT_STATUS[code];
    this.field = options.field;
    this.fieldErrors = options.fieldErrors;
  }
}

/** True for an AppError (of one of `codes`, when given). */
export function isAppError(error: unknown, ...codes: AppErrorCode[]): error is AppError {
  return error instanceof AppError && (codes.length === 0 || codes.includes(error.code));
}
