import { data } from "react-router";
import type { z } from "zod";
import { AppError, isAppError, type AppErrorCode } from "./app-error";

/**
 * The spec's notice for a blank required field. Its title is one; its description is written three
 * ways in the spec, one per form.
 */
export const MISSING_FIELDS = {
  title: "Missing fields",
  /** Article and category forms. */
  description: "Please fill in all required fields",
  /** The comment form (the spec ends this one with a full stop). */
  commentDescription: "Please fill in all required fields.",
  /** Sign-in and sign-up. */
  loginDescription: "Please enter both email and password",
} as const;

/**
 * What every route answers when it refuses a request: the same shape for forms and JSON calls. The
 * page picks the spec's notice from `code` ("missing_fields" → "Missing fields"), shows `error` in the
 * "Error" notice and `fieldErrors` beside the fields, and refills the form from `values`.
 */
export interface Refusal<Field extends string = string> {
  ok: false;
  code: AppErrorCode;
  /** For people: the notice's description. */
  error: string;
  fieldErrors: Partial<Record<Field, string>>;
  /** What was submitted, so the form shows it again (also without JavaScript). */
  values?: Partial<Record<Field, string>>;
}

/** The refusal of a form with a NUL in a field (no text can hold one: PostgreSQL refuses it). */
export const NUL_REFUSED = "A field contains a NUL character (U+0000), which is not allowed. Remove it and try again.";
/** Control characters a field loses (not tab, line feed or carriage return): invisible, and never meant. */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const STRAY_CONTROLS = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
/** Fields kept exactly as typed (a password is compared, not shown). */
const VERBATIM_FIELDS = /password|confirm/i;

/** Refusals formValues throws (an answer, not a failure): expectedOr passes them on untouched. */
const thrownRefusals = new WeakSet<object>();

/**
 * The one way to read a form: each named field as a string (an absent field, or a file, is ""), with
 * stray control characters removed. A field holding NUL refuses the whole form: this throws a 400
 * answer with NUL_REFUSED (thrown, so it answers wherever the action reads its form).
 */
export function formValues<Field extends string>(formData: FormData, fields: readonly Field[]): Record<Field, string> {
  const values = {} as Record<Field, string>;
  for (const name of fields) {
    const value = formData.get(name);
    const text = typeof value === "string" ? value : "";
    if (text.includes("\0")) {
      const refusal = data<Refusal<Field>>(refusalOf(new AppError("invalid_input", NUL_REFUSED, { field: name })), { status: 400 });
      thrownRefusals.add(refusal);
      throw refusal;
    }
    values[name] = VERBATIM_FIELDS.test(name) ? text : text.replace(STRAY_CONTROLS, "");
  }
  return values;
}

/**
 * Parses submitted values with the form's shared schema. Throws an AppError when they break it:
 * "missing_fields" when a required field is blank after trimming (with `missingMessage`, the spec's
 * text), else "invalid_input" with the first problem as its message; either way with every field's
 * first problem in `fieldErrors`.
 */
export function parseForm<Schema extends z.ZodType, Values extends Record<string, string>>(
  schema: Schema,
  values: Values,
  options: { required?: readonly (keyof Values & string)[]; missingMessage?: string } = {},
): z.output<Schema> {
  type Field = keyof Values & string;
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const fieldErrors: Partial<Record<Field, string>> = {};
  for (const issue of result.error.issues) fieldErrors[issue.path[0] as Field] ??= issue.message;
  const blank = (options.required ?? []).find((name) => values[name]!.trim() === "");
  if (blank !== undefined) {
    throw new AppError("missing_fields", options.missingMessage ?? MISSING_FIELDS.description, { field: blank, fieldErrors });
  }
  const first = result.error.issues[0]!;
  throw new AppError("invalid_input", first.message, { field: first.path[0] as Field, fieldErrors });
}

/** The refusal an AppError makes (its field's message beside that field when no other field errors came with it). */
export function refusalOf<Field extends string>(error: AppError, values?: Partial<Record<Field, string>>): Refusal<Field> {
  const fieldErrors = (error.fieldErrors ?? (error.field ? { [error.field]: error.message } : {})) as Partial<Record<Field, string>>;
  return { ok: false, code: error.code, error: error.message, fieldErrors, ...(values ? { values } : {}) };
}

/**
 * The route's answer to an expected refusal: the Refusal with the error's HTTP status. Anything that
 * is not an AppError is unexpected and is thrown on, to the error boundary and the log.
 */
export function refuse<Field extends string>(error: unknown, values?: Partial<Record<Field, string>>, init: { headers?: HeadersInit } = {}) {
  if (!isAppError(error)) throw error;
  return data<Refusal<Field>>(refusalOf(error, values), { status: error.status, headers: init.headers });
}

/**
 * The notice a page shows for a refusal, as [title, description]: the spec's "Missing fields" with
 * the form's own wording, else "Error" with the server's message. A form that marks the refused
 * fields beside them says so instead of repeating one field's message.
 */
export function refusalNotice(refusal: Pick<Refusal, "code" | "error">, options: { marksFields?: boolean } = {}): [string, string] {
  if (refusal.code === "missing_fields") return [MISSING_FIELDS.title, refusal.error];
  if (options.marksFields && refusal.code === "invalid_input") return ["Error", "Please correct the highlighted fields."];
  return ["Error", refusal.error];
}

/**
 * For a route that answers even an unexpected failure in its own shape: an AppError stays as it is;
 * anything else is reported to `logUnexpected` (the log keeps the cause) and becomes a
 * "server_error" refusal with `message` for people.
 */
export function expectedOr(error: unknown, message: string, logUnexpected: (error: unknown) => void): AppError {
  if (isAppError(error)) return error;
  if (typeof error === "object" && error !== null && thrownRefusals.has(error)) throw error;
  logUnexpected(error);
  return new AppError("server_error", message, { cause: error });
}
