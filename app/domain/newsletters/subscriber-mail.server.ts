import { escapeHtml, type MailMessage } from "~/lib/mail.server";

// The two account-style e-mails a sign-up sends (issue 30), through the account Mailer (SMTP_URL, or
// DATA_DIR/outbox): the double opt-in's confirmation, and the note an address that is already
// subscribed gets instead (with its preferences link, so nothing on the page reveals who subscribes).

/** The postal address as the footer's last lines (CAN-SPAM), when the settings have one. */
function footer(siteName: string, postalAddress: string): { text: string; html: string } {
  const address = postalAddress.trim();
  return {
    text: address ? `\n--\n${siteName}\n${address}\n` : "",
    html: address ? `<p style="color:#555;font-size:12px;white-space:pre-line">${escapeHtml(siteName)}<br>${escapeHtml(address).replace(/\r?\n/g, "<br>")}</p>` : "",
  };
}

/** "Confirm your subscription to {site name}": one link to the page whose button confirms. */
export function confirmationMail(options: { to: string; siteName: string; url: string; postalAddress: string; days: number }): MailMessage {
  const { to, siteName, url, days } = options;
  const end = footer(siteName, options.postalAddress);
  return {
    to,
    subject: `Confirm your subscription to ${siteName}`,
    link: url,
    text:
      `Thanks for signing up to the ${siteName} newsletter.\n\nConfirm your subscription by opening this link and pressing "Confirm subscription":\n\n${url}\n\n` +
      `If you did not sign up, ignore this message: nothing is sent to you, and your address is deleted after ${days} days.\n${end.text}`,
    html:
      `<p>Thanks for signing up to the ${escapeHtml(siteName)} newsletter.</p>` +
      `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px">Confirm your subscription</a></p>` +
      `<p>Or open this link: <a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>` +
      `<p style="color:#555">If you did not sign up, ignore this message: nothing is sent to you, and your address is deleted after ${days} days.</p>${end.html}`,
  };
}

/** An address that is already subscribed signed up again: no second subscription, its preferences link. */
export function alreadySubscribedMail(options: { to: string; siteName: string; preferencesUrl: string; postalAddress: string }): MailMessage {
  const { to, siteName, preferencesUrl } = options;
  const end = footer(siteName, options.postalAddress);
  return {
    to,
    subject: `You're already subscribed to ${siteName}`,
    link: preferencesUrl,
    text:
      `Someone (we hope you) signed this address up to the ${siteName} newsletter again. You're already subscribed: nothing has changed.\n\n` +
      `To choose your newsletters or unsubscribe, open your preferences:\n\n${preferencesUrl}\n${end.text}`,
    html:
      `<p>Someone (we hope you) signed this address up to the ${escapeHtml(siteName)} newsletter again. You're already subscribed: nothing has changed.</p>` +
      `<p><a href="${escapeHtml(preferencesUrl)}">Manage your preferences</a> to choose your newsletters or unsubscribe.</p>${end.html}`,
  };
}
