import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { betterAuth } from "better-auth/minimal";
import { twoFactor } from "better-auth/plugins/two-factor";
import type { Db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { getSettings } from "~/domain/settings/settings.server";
import { CLIENT_IP_HEADER } from "~/lib/client-address.server";
import { loggableValue, type Logger } from "~/lib/logger.server";
import { passwordResetMail, verificationMail, type Mailer } from "~/lib/mail.server";
import { COMMON_PASSWORD, isCommonPassword } from "~/lib/common-passwords.server";

/** Better Auth's endpoints that set a new password, and the body field that holds it. */
const NEW_PASSWORD_FIELDS: Record<string, string> = { "/sign-up/email": "password", "/change-password": "newPassword", "/reset-password": "newPassword" };

/** How long a password-reset link works. */
export const PASSWORD_RESET_MINUTES = 30;

/** Better Auth's sign-up and sign-in need a name; the login form has none, so the address's local part serves. */
export function defaultNameFor(email: string): string {
  return email.split("@")[0] || email;
}

export interface AuthOptions {
  db: Db;
  /** The site's canonical origin (env.publicUrl): links in mails and the secure-cookie decision. */
  baseURL: string;
  secret: string;
  mailer: Mailer;
  log: Logger;
}

/**
 * Better Auth for e-mail + password with sessions in PostgreSQL (through Drizzle). Sign-up makes an
 * ordinary account and does not sign in; the confirmation mail's link returns to the site root.
 * Sign-in attempts are limited by the /api/auth route against the login_attempts table, so Better
 * Auth's own in-memory limiter is off.
 */
export function createAuth({ db, baseURL, secret, mailer, log }: AuthOptions) {
  const secure = baseURL.startsWith("https://");
  return betterAuth({
    appName: "Frontpage",
    baseURL,
    basePath: "/api/auth",
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: schema.user, session: schema.session, account: schema.account, verification: schema.verification, twoFactor: schema.twoFactor },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: false,
      autoSignIn: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      // "Forgot your password?": a link by e-mail (the /api/auth route limits how often, and answers
      // the same for known and unknown addresses); a reset ends every session of the account.
      resetPasswordTokenExpiresIn: PASSWORD_RESET_MINUTES * 60,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, url }) {
        const settings = await getSettings(db).catch(() => null);
        await mailer.send(passwordResetMail({ to: user.email, siteName: settings?.siteName ?? "Frontpage", url, minutes: PASSWORD_RESET_MINUTES }));
      },
    },
    // TOTP with backup codes (issue 12). Better Auth locks an account's second factor for 15 minutes
    // after 10 wrong codes; it is only asked after the right password.
    plugins: [twoFactor({ issuer: "Frontpage", skipVerificationOnEnable: false, backupCodeOptions: { amount: 10, length: 10 } })],
    hooks: {
      // A new password on the list of common passwords is refused, wherever it is set.
      before: createAuthMiddleware(async (ctx) => {
        const field = NEW_PASSWORD_FIELDS[ctx.path];
        const password = field ? (ctx.body as Record<string, unknown> | undefined)?.[field] : undefined;
        // (A too-short one gets Better Auth's own refusal, "Password too short".)
        if (typeof password === "string" && password.length >= 8 && isCommonPassword(password)) {
          throw new APIError("BAD_REQUEST", { message: COMMON_PASSWORD, code: "PASSWORD_TOO_COMMON" });
        }
      }),
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      async sendVerificationEmail({ user, url }) {
        const settings = await getSettings(db).catch(() => null);
        await mailer.send(verificationMail({ to: user.email, siteName: settings?.siteName ?? "Frontpage", url }));
      },
    },
    // A browser on this very origin is trusted as well as PUBLIC_URL (server/index.ts refuses cross-site posts first).
    trustedOrigins: (request) => (request ? [new URL(request.url).origin] : []),
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure, path: "/" },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    logger: {
      log: (level, message, ...args) => {
        const fn = level === "error" ? log.error : level === "warn" ? log.warn : level === "info" ? log.info : log.debug;
        fn.call(log, { betterAuth: args.length ? loggableValue(args) : undefined }, message);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
