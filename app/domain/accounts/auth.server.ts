import { createHash } from "node:crypto";
import { and, eq, like, lte, ne } from "drizzle-orm";
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

/** The second step of a sign-in, where Better Auth would take `trustDevice` (decision 0037). */
const SECOND_FACTOR_PATHS = new Set(["/two-factor/verify-totp", "/two-factor/verify-backup-code", "/two-factor/verify-otp"]);
/** Better Auth's name for the cookie of a trusted device (its two-factor plugin does not export it). */
const TRUST_DEVICE_COOKIE = "trust_device";
export const TRUST_DEVICE_OFF = "This site does not remember devices: it asks for the second factor at every sign-in.";

/**
 * A new password ends every one-time value the account still has outstanding (decision 0037): its
 * password-reset links (the older of two, or one mailed before a change) and any sign-in waiting for
 * its second factor, which was begun with the old password. Better Auth stores only hashes of their
 * identifiers, so they are found by the account id each one holds as its value.
 */
async function endOutstandingTokens(db: Db, userId: string) {
  await db.delete(schema.verification).where(eq(schema.verification.value, userId));
}

/** How Better Auth names a password-reset link: this, then the link's token. */
const RESET_LINK_PREFIX = "reset-password:";
/**
 * What a stored reset link's identifier starts with. Never RESET_LINK_PREFIX: Better Auth also looks
 * an identifier up as sent, so a stored "reset-password:<hash>" would open as the link of token <hash>.
 */
const STORED_RESET_LINK_PREFIX = "reset-password-sha256:";

/**
 * How a reset link's identifier is stored (decision 0037, issue 39): SHA-256 (base64url, as Better
 * Auth's "hashed") of the whole identifier, after a prefix in clear. The prefix names no link, but it
 * lets a new request find the account's older links among its other one-time values.
 */
async function storedResetIdentifier(identifier: string): Promise<string> {
  return `${STORED_RESET_LINK_PREFIX}${createHash("sha256").update(identifier).digest("base64url")}`;
}

/**
 * A new reset link ends every older one of the account (issue 39): only the newest link mailed works.
 * Older by creation, so of two requests at once the later one's link stays.
 */
async function endOlderResetLinks(db: Db, userId: string, token: string) {
  const newest = await storedResetIdentifier(`${RESET_LINK_PREFIX}${token}`);
  const [row] = await db.select({ createdAt: schema.verification.createdAt }).from(schema.verification).where(eq(schema.verification.identifier, newest));
  await db
    .delete(schema.verification)
    .where(
      and(
        eq(schema.verification.value, userId),
        like(schema.verification.identifier, `${STORED_RESET_LINK_PREFIX}%`),
        ne(schema.verification.identifier, newest),
        row ? lte(schema.verification.createdAt, row.createdAt) : undefined,
      ),
    );
}

/** The cookie header without Better Auth's trusted-device cookie; null when it holds none. */
function withoutTrustCookie(cookieHeader: string | null | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  const pairs = cookieHeader.split(";");
  const kept = pairs.filter((pair) => pair.split("=")[0]!.trim() !== name);
  return kept.length === pairs.length ? null : kept.join(";");
}

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
      // The link used ends every other one (a change of password does the same: hooks.after below).
      onPasswordReset: ({ user }) => endOutstandingTokens(db, user.id),
      async sendResetPassword({ user, url, token }) {
        await endOlderResetLinks(db, user.id, token);
        const settings = await getSettings(db).catch(() => null);
        await mailer.send(passwordResetMail({ to: user.email, siteName: settings?.siteName ?? "Frontpage", url, minutes: PASSWORD_RESET_MINUTES }));
      },
    },
    // Reset links and sign-ins waiting for a code are kept as SHA-256 hashes of their identifiers
    // (decision 0037): a row read from the table, or from a backup, is no usable link. A reset link's
    // hash follows its prefix, so a newer request can end the older links (issue 39). (The e-mail
    // confirmation link is a signed JWT that is not stored at all.)
    verification: { storeIdentifier: { default: "hashed", overrides: { [RESET_LINK_PREFIX]: { hash: storedResetIdentifier } } } },
    // TOTP with backup codes (issue 12). Better Auth locks an account's second factor for 15 minutes
    // after 10 wrong codes; it is only asked after the right password. Its "trust this device" (30 days
    // without the second factor) is off: see hooks.before.
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
        // No device is trusted to skip the second factor (decision 0037): a code sent with trustDevice
        // is refused rather than quietly taken, and a trust cookie a browser still holds from before is
        // never shown to Better Auth, whatever the verification table holds.
        if (SECOND_FACTOR_PATHS.has(ctx.path) && (ctx.body as Record<string, unknown> | undefined)?.trustDevice) {
          throw new APIError("BAD_REQUEST", { message: TRUST_DEVICE_OFF, code: "TRUST_DEVICE_OFF" });
        }
        const cookie = withoutTrustCookie(ctx.headers?.get("cookie"), ctx.context.createAuthCookie(TRUST_DEVICE_COOKIE).name);
        if (cookie !== null) {
          // The request's other headers (its address, its origin) stay as they were.
          const headers = new Headers(ctx.headers);
          headers.set("cookie", cookie);
          return { context: { headers } };
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        // A changed password ends the account's outstanding reset links (a reset does it in onPasswordReset).
        if (ctx.path !== "/change-password") return;
        const returned = ctx.context.returned;
        const userId = returned && !(returned instanceof APIError) ? (returned as { user?: { id?: string } }).user?.id : undefined;
        if (userId) await endOutstandingTokens(db, userId);
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
