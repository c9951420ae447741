import { APIError } from "better-auth/api";
import { renderSVG } from "uqr";
import type { AppLoadContext } from "react-router";
import { AppError } from "~/lib/app-error";
import { takeAllowance, type LimitRule } from "~/lib/rate-limit.server";
import { recordActivity } from "~/domain/activity/activity.server";
import { actorOf } from "./actor";
import type { SessionUser } from "./guard.server";
import { COMMON_PASSWORD } from "~/lib/common-passwords.server";

// The signed-in user's own account (issue 12): a second factor, backup codes, the password, and every
// session. Better Auth does the work (its API, called here with the browser's cookie); this module adds
// a limit on password checks, the audit trail and messages for people.

/** Each account may have its password checked from the profile this often (a stolen session cannot guess it). */
export const PROFILE_PASSWORD_LIMIT: LimitRule = {
  bucket: "profile-password",
  max: 10,
  windowMs: 15 * 60 * 1000,
  refusal: "Too many password attempts.",
};

export const WRONG_PASSWORD = "That is not your current password.";
export const WRONG_CODE = "That code is not right. Enter the 6-digit code your authenticator app shows now.";

/**
 * Better Auth's refusals, in words for people (its codes are stable; its messages are for developers).
 * A wrong password is marked on `passwordField`.
 */
function asAppError(error: unknown, passwordField = "password"): never {
  if (error instanceof APIError) {
    const body = error.body as { code?: string; message?: string } | undefined;
    const code = body?.code ?? "";
    if (code === "INVALID_PASSWORD") throw new AppError("invalid_input", WRONG_PASSWORD, { field: passwordField });
    if (code === "INVALID_CODE" || code === "INVALID_TWO_FACTOR_AUTHENTICATION") throw new AppError("invalid_input", WRONG_CODE, { field: "code" });
    if (code === "PASSWORD_TOO_COMMON") throw new AppError("invalid_input", COMMON_PASSWORD, { field: "newPassword" });
    if (code === "PASSWORD_TOO_SHORT") throw new AppError("invalid_input", "The new password must be at least 8 characters.", { field: "newPassword" });
    if (code === "PASSWORD_TOO_LONG") throw new AppError("invalid_input", "The new password must be at most 128 characters.", { field: "newPassword" });
    if (error.statusCode === 429) throw new AppError("rate_limited", body?.message ?? "Too many attempts. Try again later.");
    if (error.statusCode >= 400 && error.statusCode < 500) throw new AppError("invalid_input", body?.message ?? "That could not be done.");
  }
  throw error;
}

async function limitPasswordChecks(context: AppLoadContext, user: SessionUser) {
  const limit = await takeAllowance(context.db, PROFILE_PASSWORD_LIMIT, user.id);
  if (limit.limited) throw new AppError("rate_limited", limit.message);
}

/** Headers of a Better Auth call made for this request: its cookie (the session), nothing else. */
function sessionHeaders(request: Request): Headers {
  const headers = new Headers();
  const cookie = request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);
  return headers;
}

export interface TwoFactorSetup {
  /** The otpauth:// address an authenticator app reads (from the QR code, or typed as the key). */
  totpUri: string;
  /** The secret key, for typing in by hand. */
  secret: string;
  /** The QR code of totpUri, as SVG markup made here (no user input in it). */
  qrSvg: string;
  backupCodes: string[];
}

/** Step 1 of turning two-factor on: the password, then a new secret and backup codes (not on until a code is confirmed). */
export async function startTwoFactor(request: Request, context: AppLoadContext, user: SessionUser, password: string): Promise<TwoFactorSetup> {
  if (!password) throw new AppError("missing_fields", "Enter your password.", { field: "password" });
  await limitPasswordChecks(context, user);
  const result = await context.auth.api.enableTwoFactor({ body: { password }, headers: sessionHeaders(request) }).catch(asAppError);
  if (result.method !== "totp") throw new AppError("server_error", "Two-factor authentication could not be set up. Please try again.");
  const secret = new URL(result.totpURI).searchParams.get("secret") ?? "";
  return { totpUri: result.totpURI, secret, qrSvg: renderSVG(result.totpURI), backupCodes: result.backupCodes };
}

/** Step 2: the first code from the app turns two-factor on. Answers Better Auth's Set-Cookie headers (a renewed session). */
export async function confirmTwoFactor(request: Request, context: AppLoadContext, user: SessionUser, code: string): Promise<Headers> {
  const digits = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(digits)) throw new AppError("invalid_input", WRONG_CODE, { field: "code" });
  const { headers } = await context.auth.api
    .verifyTOTP({ body: { code: digits }, headers: sessionHeaders(request), returnHeaders: true })
    .catch(asAppError);
  await recordActivity(context.db, actorOf(user), { kind: "account.two_factor_on", objectType: "account", objectId: user.id, objectLabel: user.email });
  context.log.info({ userId: user.id }, "two-factor authentication turned on");
  return headers;
}

/** Turns two-factor off (the password again); refused while the newsroom requires it. */
export async function turnOffTwoFactor(request: Request, context: AppLoadContext, user: SessionUser, password: string, required: boolean): Promise<void> {
  if (required) throw new AppError("forbidden", "Your newsroom requires two-factor authentication, so it cannot be turned off.");
  if (!password) throw new AppError("missing_fields", "Enter your password.", { field: "password" });
  await limitPasswordChecks(context, user);
  await context.auth.api.disableTwoFactor({ body: { password }, headers: sessionHeaders(request) }).catch(asAppError);
  await recordActivity(context.db, actorOf(user), { kind: "account.two_factor_off", objectType: "account", objectId: user.id, objectLabel: user.email });
  context.log.info({ userId: user.id }, "two-factor authentication turned off");
}

/** New backup codes (the old ones stop working). */
export async function newBackupCodes(request: Request, context: AppLoadContext, user: SessionUser, password: string): Promise<string[]> {
  if (!password) throw new AppError("missing_fields", "Enter your password.", { field: "password" });
  await limitPasswordChecks(context, user);
  const result = await context.auth.api.generateBackupCodes({ body: { password }, headers: sessionHeaders(request) }).catch(asAppError);
  context.log.info({ userId: user.id }, "new backup codes made");
  return result.backupCodes;
}

/** A new password: every other session ends; this one is renewed (its Set-Cookie headers are answered). */
export async function changePassword(
  request: Request,
  context: AppLoadContext,
  user: SessionUser,
  fields: { currentPassword: string; newPassword: string; confirmPassword: string },
): Promise<Headers> {
  if (!fields.currentPassword || !fields.newPassword || !fields.confirmPassword) {
    throw new AppError("missing_fields", "Please fill in all required fields", { field: !fields.currentPassword ? "currentPassword" : "newPassword" });
  }
  if (fields.newPassword !== fields.confirmPassword) throw new AppError("invalid_input", "The two new passwords are not the same.", { field: "confirmPassword" });
  await limitPasswordChecks(context, user);
  const { headers } = await context.auth.api
    .changePassword({
      body: { currentPassword: fields.currentPassword, newPassword: fields.newPassword, revokeOtherSessions: true },
      headers: sessionHeaders(request),
      returnHeaders: true,
    })
    .catch((error: unknown) => asAppError(error, "currentPassword"));
  await recordActivity(context.db, actorOf(user), { kind: "account.password_change", objectType: "account", objectId: user.id, objectLabel: user.email });
  context.log.info({ userId: user.id }, "password changed; other sessions ended");
  return headers;
}

/** Ends every session of the account, this one included. */
export async function signOutEverywhere(request: Request, context: AppLoadContext, user: SessionUser): Promise<void> {
  await context.auth.api.revokeSessions({ headers: sessionHeaders(request) }).catch(asAppError);
  await recordActivity(context.db, actorOf(user), { kind: "account.sign_out_everywhere", objectType: "account", objectId: user.id, objectLabel: user.email });
  context.log.info({ userId: user.id }, "signed out everywhere");
}
