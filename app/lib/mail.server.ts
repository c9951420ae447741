import nodemailer from "nodemailer";
import type { Logger } from "./logger.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The one link the message is about (logged on its own line when no SMTP server is configured). */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Sends mail through SMTP_URL. With no SMTP server configured the message and its link are written
 * to the log instead, so sign-up works on a bare machine (the operator copies the link from there).
 */
export function createMailer(options: { smtpUrl?: string; from: string; log: Logger }): Mailer {
  const { smtpUrl, from, log } = options;
  if (!smtpUrl) {
    return {
      async send(message) {
        log.warn(
          { mail: { to: message.to, subject: message.subject, link: message.link, text: message.text } },
          `no SMTP_URL configured; e-mail to ${message.to} written to the log instead: ${message.subject}${message.link ? ` — ${message.link}` : ""}`,
        );
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html });
      log.info({ to: message.to, subject: message.subject }, "e-mail sent");
    },
  };
}

function escapeHtml(value: string): string {
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
