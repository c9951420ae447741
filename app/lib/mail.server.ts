import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "./logger.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The one link the message is about (a confirmation, an invitation, a password reset). */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Sends mail through SMTP_URL. With no SMTP server configured each message is saved as an .eml file
 * in `outboxDir` (readable by the operator alone), so sign-up works on a bare machine: the log says
 * where, never the address or the link (a confirmation or reset link is a credential).
 */
export function createMailer(options: { smtpUrl?: string; from: string; log: Logger; outboxDir: string }): Mailer {
  const { smtpUrl, from, log, outboxDir } = options;
  if (!smtpUrl) {
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
    return {
      async send(message) {
        const composed = await composer.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
        await fs.mkdir(outboxDir, { recursive: true, mode: 0o700 });
        const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.eml`);
        await fs.writeFile(file, composed.message as Buffer, { mode: 0o600 });
        log.warn({ file }, "no SMTP_URL configured: an e-mail was saved to the outbox instead of sent (open the file to read it)");
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
      log.info({ subject: message.subject }, "e-mail sent");
    },
  };
}

/** Text made safe inside HTML (the mails' HTML parts). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** The sign-up confirmation mail: one link that verifies the address and returns to the site root. */
export function verificationMail(options: { to: string; siteName: string; url: string }): MailMessage {
  const { to, siteName, url } = options;
  return {
    to,
    subject: `Confirm your e-mail address for ${siteName}`,
    link: url,
    text: `Welcome to ${siteName}!\n\nConfirm your e-mail address by opening this link:\n\n${url}\n\nIf you did not sign up, you can ignore this message.\n`,
    html: `<p>Welcome to ${escapeHtml(siteName)}!</p><p><a href="${escapeHtml(url)}">Confirm your e-mail address</a></p><p>If you did not sign up, you can ignore this message.</p>`,
  };
}

/** A team invitation: one link that signs the invited person up (or in) with the role they were given. */
export function invitationMail(options: { to: string; siteName: string; url: string; role: string; invitedBy: string; expiresAt: Date }): MailMessage {
  const { to, siteName, url, role, invitedBy } = options;
  const expires = options.expiresAt.toISOString().slice(0, 10);
  return {
    to,
    subject: `You're invited to join ${siteName} as ${role}`,
    link: url,
    text: `${invitedBy} invited you to join the ${siteName} newsroom as ${role}.\n\nAccept the invitation by opening this link (it works once, until ${expires}):\n\n${url}\n\nIf you did not expect this, you can ignore this message.\n`,
    html: `<p>${escapeHtml(invitedBy)} invited you to join the ${escapeHtml(siteName)} newsroom as ${escapeHtml(role)}.</p><p><a href="${escapeHtml(url)}">Accept the invitation</a> (it works once, until ${expires}).</p><p>If you did not expect this, you can ignore this message.</p>`,
  };
}

/** "Forgot your password?": one link, working once for `minutes`, to set a new password. */
export function passwordResetMail(options: { to: string; siteName: string; url: string; minutes: number }): MailMessage {
  const { to, siteName, url, minutes } = options;
  return {
    to,
    subject: `Reset your ${siteName} password`,
    link: url,
    text: `Someone (we hope you) asked to reset the password of your ${siteName} account.\n\nSet a new password by opening this link (it works once, for ${minutes} minutes):\n\n${url}\n\nIf you did not ask, ignore this message: your password stays as it is.\n`,
    html: `<p>Someone (we hope you) asked to reset the password of your ${escapeHtml(siteName)} account.</p><p><a href="${escapeHtml(url)}">Set a new password</a> (the link works once, for ${minutes} minutes).</p><p>If you did not ask, ignore this message: your password stays as it is.</p>`,
  };
}

/** The link that confirms a member's new address (issue 40), mailed to the new address. */
export function memberEmailChangeMail(options: { to: string; siteName: string; url: string; minutes: number }): MailMessage {
  const { to, siteName, url, minutes } = options;
  return {
    to,
    subject: `Confirm your new e-mail address for ${siteName}`,
    link: url,
    text: `Open this link to use this address for your ${siteName} account (it works for ${minutes} minutes):\n\n${url}\n\nIf you did not ask for this, ignore this message: nothing changes.\n`,
    html: `<p><a href="${escapeHtml(url)}">Use this address for your ${escapeHtml(siteName)} account</a> (the link works for ${minutes} minutes).</p><p>If you did not ask for this, ignore this message: nothing changes.</p>`,
  };
}

/** A reader's sign-in link (issue 40): single use, SIGN_IN_LINK_MINUTES; the same mail signs in a new address (a free member). */
export function memberSignInMail(options: { to: string; siteName: string; url: string; minutes: number }): MailMessage {
  const { to, siteName, url, minutes } = options;
  return {
    to,
    subject: `Sign in to ${siteName}`,
    link: url,
    text: `Open this link to sign in to ${siteName} (it works once, for ${minutes} minutes):\n\n${url}\n\nIf you did not ask to sign in, ignore this message.\n`,
    html: `<p><a href="${escapeHtml(url)}">Sign in to ${escapeHtml(siteName)}</a> (the link works once, for ${minutes} minutes).</p><p>If you did not ask to sign in, ignore this message.</p>`,
  };
}

/** A paid subscription started (issue 40): what they have, and where their account and billing are. */
export function memberWelcomeMail(options: { to: string; siteName: string; tierName: string; trialEnds: Date | null; accountUrl: string }): MailMessage {
  const { to, siteName, tierName, trialEnds, accountUrl } = options;
  const trial = trialEnds ? ` Your free trial runs until ${trialEnds.toISOString().slice(0, 10)}.` : "";
  return {
    to,
    subject: `Welcome to ${tierName} at ${siteName}`,
    link: accountUrl,
    text: `Thank you for subscribing to ${tierName} at ${siteName}. Every story of your plan is open to you now.${trial}\n\nYour plan, its renewal date and your billing are on your account page:\n\n${accountUrl}\n`,
    html: `<p>Thank you for subscribing to ${escapeHtml(tierName)} at ${escapeHtml(siteName)}. Every story of your plan is open to you now.${escapeHtml(trial)}</p><p>Your plan, its renewal date and your billing are on <a href="${escapeHtml(accountUrl)}">your account page</a>.</p>`,
  };
}

/** A renewal's payment failed (issue 40): one link that opens Stripe's Customer Portal (after signing in) to update the card. */
export function paymentFailedMail(options: { to: string; siteName: string; tierName: string; billingUrl: string }): MailMessage {
  const { to, siteName, tierName, billingUrl } = options;
  return {
    to,
    subject: `Your payment for ${siteName} did not go through`,
    link: billingUrl,
    text: `We could not take the payment for your ${tierName} plan at ${siteName}. Your access continues while Stripe tries again; update your payment method here to keep it:\n\n${billingUrl}\n`,
    html: `<p>We could not take the payment for your ${escapeHtml(tierName)} plan at ${escapeHtml(siteName)}. Your access continues while Stripe tries again.</p><p><a href="${escapeHtml(billingUrl)}">Update your payment method</a></p>`,
  };
}

/** A paid subscription ended (issue 40): they are a free member again; how to come back. */
export function subscriptionEndedMail(options: { to: string; siteName: string; tierName: string; subscribeUrl: string }): MailMessage {
  const { to, siteName, tierName, subscribeUrl } = options;
  return {
    to,
    subject: `Your ${tierName} plan at ${siteName} has ended`,
    link: subscribeUrl,
    text: `Your ${tierName} plan at ${siteName} has ended. You keep your free account, your newsletters and the stories open to members.\n\nYou can subscribe again at any time:\n\n${subscribeUrl}\n`,
    html: `<p>Your ${escapeHtml(tierName)} plan at ${escapeHtml(siteName)} has ended. You keep your free account, your newsletters and the stories open to members.</p><p><a href="${escapeHtml(subscribeUrl)}">Subscribe again</a></p>`,
  };
}
