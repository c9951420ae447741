import { z } from "zod";

/** The role that opens the admin back office (user_roles.role). */
export const ADMIN_ROLE = "admin";

/** Better Auth's password bounds, as configured in app/domain/accounts/auth.server.ts. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** An e-mail address as accounts store it: trimmed and lowercased. */
export const accountEmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "is not a valid e-mail address" }));

export const accountPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { error: `must be at least ${PASSWORD_MIN_LENGTH} characters` })
  .max(PASSWORD_MAX_LENGTH, { error: `must be at most ${PASSWORD_MAX_LENGTH} characters` });
