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
/** How long the link that confirms a new e-mail address works (Better Auth's change-email flow). */
export const EMAIL_CHANGE_LINK_MINUTES = 60;

/** The members' cookie prefix: their session cookie is `frontpage-member.session_token`. */
export const MEMBER_COOKIE_PREFIX = "frontpage-member";
export const MEMBER_SESSION_COOKIE = `${MEMBER_COOKIE_PREFIX}.session_token`;

/** A member's session lasts 60 days, renewed by use once a day (Ghost keeps members signed in for months). */
const SESSION_DAYS = 60;
/** A member's session's lifetime in seconds (the header's hint cookie lives as long). */
export const MEMBER_SESSION_SECONDS = SESSION_DAYS * 24 * 60 * 60;

export interface MemberAuthOptions {
  db: Db;
  baseURL: string;
  secret: string;
  log: Logger;
  /**
   * Sends the sign-in link (the members' mail module builds the message); `token` is the link's secret,
   * `next` the same-site path to open after signing in (already checked by safeNextPath), if any.
   */
  sendSignInLink: (email: string, token: string, next?: string) => Promise<void>;
  /**
   * Sends the link that confirms a member's new address to that NEW address (Better Auth's change-email
   * flow: the change is made only when the link is used); `token` is the link's signed value.
   */
  sendEmailChangeLink: (newEmail: string, token: string) => Promise<void>;
}

export function createMemberAuth({ db, baseURL, secret, log, sendSignInLink, sendEmailChangeLink }: MemberAuthOptions) {
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
    session: { expiresIn: MEMBER_SESSION_SECONDS, updateAge: 24 * 60 * 60 },
    // /account's "Change e-mail": a member's address is verified (a sign-in link proved it), so Better
    // Auth signs a link naming the old and the new address and mails it to the NEW one; opening it (a
    // POST from /account/email) makes the change. It stops working once the address changed (it names
    // the old one), and after EMAIL_CHANGE_LINK_MINUTES. An address another member has gets no link.
    user: { changeEmail: { enabled: true } },
    emailVerification: {
      expiresIn: EMAIL_CHANGE_LINK_MINUTES * 60,
      sendVerificationEmail: ({ user, token }) => sendEmailChangeLink(user.email, token),
    },
    plugins: [
      magicLink({
        expiresIn: SIGN_IN_LINK_MINUTES * 60,
        storeToken: "hashed",
        // A new address becomes a member (a free one) when its link is used, never before.
        disableSignUp: false,
        sendMagicLink: ({ email, token, metadata }) => sendSignInLink(email, token, typeof metadata?.next === "string" ? metadata.next : undefined),
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
