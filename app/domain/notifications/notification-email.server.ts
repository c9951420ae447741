import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { notifications, user } from "~/db/schema";
import { getSettings } from "~/domain/settings/settings.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer, MailMessage } from "~/lib/mail.server";
import { NOTIFICATION_EMAIL_TASK } from "./notifications.server";

// The e-mail of a notification (issue 27), sent by the job queue (decision 0032): a job per
// notification, keyed by its id, run after the change that caused it committed. A failed send throws,
// and the queue tries again later.

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** The message: the site's name, the sentence, the editor's note, the link to the story (or the moderation queue). */
export function notificationMail(options: { to: string; siteName: string; text: string; note: string | null; url: string; profileUrl: string }): MailMessage {
  const { to, siteName, text, note, url, profileUrl } = options;
  const noteText = note ? `\nNote:\n${note}\n` : "";
  const noteHtml = note ? `<p><strong>Note:</strong></p><blockquote style="white-space:pre-wrap">${escapeHtml(note)}</blockquote>` : "";
  return {
    to,
    subject: `${siteName}: ${text}`,
    link: url,
    text:
      `${siteName}\n\n${text}.\n${noteText}\nOpen it:\n${url}\n\n` +
      `You receive this because you are on the ${siteName} team. Turn these e-mails off in Your account: ${profileUrl}\n`,
    html:
      `<p>${escapeHtml(siteName)}</p><p><strong>${escapeHtml(text)}.</strong></p>${noteHtml}<p><a href="${escapeHtml(url)}">Open it</a></p>` +
      `<p style="color:#555">You receive this because you are on the ${escapeHtml(siteName)} team. <a href="${escapeHtml(profileUrl)}">Turn these e-mails off in Your account</a>.</p>`,
  };
}

/**
 * Sends the e-mail of notification `id`, unless it is gone (its story was deleted) or its person has
 * turned e-mail off since. Throws when the mail cannot be sent (the queue retries).
 */
export async function sendNotificationEmail(deps: { db: Db; mailer: Mailer; publicUrl: string; log: Logger }, id: string): Promise<"sent" | "skipped"> {
  const { db, mailer, publicUrl, log } = deps;
  const [row] = await db
    .select({ text: notifications.text, note: notifications.note, href: notifications.href, email: user.email, on: user.emailNotifications })
    .from(notifications)
    .innerJoin(user, eq(user.id, notifications.userId))
    .where(eq(notifications.id, id));
  if (!row || !row.on) return "skipped";
  const { siteName } = await getSettings(db);
  await mailer.send(notificationMail({ to: row.email, siteName, text: row.text, note: row.note, url: `${publicUrl}${row.href}`, profileUrl: `${publicUrl}/admin/profile` }));
  log.info({ notificationId: id }, "notification e-mailed");
  return "sent";
}

/** The job queue's task list entry for notification e-mails. */
export function notificationEmailTasks(deps: { db: Db; mailer: Mailer; publicUrl: string; log: Logger }) {
  return {
    [NOTIFICATION_EMAIL_TASK]: async (payload: unknown) => {
      const id = (payload as { id?: unknown } | null)?.id;
      if (typeof id !== "string") {
        deps.log.warn({ task: NOTIFICATION_EMAIL_TASK }, "a notification e-mail job without a notification id was dropped");
        return;
      }
      await sendNotificationEmail(deps, id);
    },
  };
}
