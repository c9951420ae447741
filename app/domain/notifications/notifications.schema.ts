// What the back office tells a person (issue 27), browser-safe: the kinds and their sentences, written
// once here and stored with each notification as it was said then.

export const NOTIFICATION_KINDS = ["article.sent_back", "article.review_requested", "article.published", "comments.pending"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The sentences, exactly as the issue words them. */
export const notificationText = {
  sentBack: (editor: string, title: string) => `${editor} sent back '${title}'`,
  reviewRequested: (title: string) => `'${title}' is waiting for review`,
  published: (title: string) => `'${title}' was published`,
  commentsPending: (count: number) => (count === 1 ? "1 comment waits for moderation" : `${count} comments wait for moderation`),
} as const;

/** A notification as the list shows it. */
export interface NotificationItem {
  id: string;
  kind: string;
  text: string;
  note: string | null;
  href: string;
  createdAt: string;
  read: boolean;
}

/** The bell's accessible name: "Notifications, 2 unread" (or "Notifications" when nothing is unread). */
export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : "Notifications";
}

/** How many notifications one page of the list shows. */
export const NOTIFICATIONS_PER_PAGE = 50;
