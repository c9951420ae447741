import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { betterAuth } from "better-auth/minimal";
import { magicLink } from "better-auth/plugins/magic-link";
import type { Db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { CLIENT_IP_HEADER } from "~/lib/client-address.server";
import { loggableValue, type Logger } from "~/lib/logger.server";

/**
 * Readers' accounts (issue 40, decision 0054): a second Better Auth instance, apart from the staff's
 * (app/domain/accounts/auth.server.ts). Its user is the newsletter subscriber's row (one person, one
 * record), its sessions, accounts and one-time values are tables of its own, and its cookie has a
 * name of its own: no member session is ever a staff session, so no member reaches /admin.
 *
 * Members sign in by an e-mailed link only (Better Auth's magic-link plugin): single use (consumed
 * atomically by Better Auth), 15 minutes, stored hashed. The routes under /account call its API from
 * the server; none of its endpoints is mounted as it is.
 */

/** How long a sign-in link works. */
export const SIGN_IN_LINK_MINUTES = 15;

/** The members' cookie prefix: their session cookie is `frontpage-member.session_token`. */
export const MEMBER_COOKIE_PREFIX = "frontpage-member";
export const MEMBER_SESSION_COOKIE = `${MEMBER_COOKIE_PREFIX}.session_token`;

/** A member's session lasts 60 days, renewed by use once a day (Ghost keeps members signed in for months). */
const SESSION_DAYS = 60;

export interface MemberAuthOptions {
  db: Db;
  baseURL: string;
  secret: string;
  log: Logger;
  /** Sends the sign-in link (the members' mail module builds the message); `token` is the link's secret. */
  sendSignInLink: (email: string, token: string) => Promise<void>;
}

export function createMemberAuth({ db, baseURL, secret, log, sendSignInLink }: MemberAuthOptions) {
  const secure = baseURL.startsWith("https://");
  return betterAuth({
    appName: "Frontpage",
    baseURL,
    basePath: "/api/member-auth",
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: schema.subscribers, session: schema.memberSession, account: schema.memberAccount, verification: schema.memberVerification },
    }),
    session: { expiresIn: SESSION_DAYS * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    plugins: [
      magicLink({
        expiresIn: SIGN_IN_LINK_MINUTES * 60,
        storeToken: "hashed",
        // A new address becomes a member (a free one) when its link is used, never before.
        disableSignUp: false,
        sendMagicLink: ({ email, token }) => sendSignInLink(email, token),
      }),
    ],
    // Sign-in requests are limited by the /account/sign-in action (app's limiter, shared by every process).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    trustedOrigins: (request) => (request ? [new URL(request.url).origin] : []),
    advanced: {
      cookiePrefix: MEMBER_COOKIE_PREFIX,
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure, path: "/" },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: "uuid" },
    },
    logger: {
      log: (level, message, ...args) => {
        const fn = level === "error" ? log.error : level === "warn" ? log.warn : level === "info" ? log.info : log.debug;
        fn.call(log, { betterAuth: args.length ? loggableValue(args) : undefined }, message);
      },
    },
  });
}

export type MemberAuth = ReturnType<typeof createMemberAuth>;
