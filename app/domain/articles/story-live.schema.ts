// "Your story is live" (issue 41): what the article's edit page shows right after publishing.
// Browser-safe: the panel, its loader and their tests read the same words.

/** The edit page's query flag set by the redirect after a save that made the story public. */
export const PUBLISHED_FLAG = "published";

/** Where a story's newsletter send stands (newsletter_sends.status). */
export type StorySendStatus = "queued" | "sending" | "sent" | "cancelled" | "failed" | "skipped";

/** One newsletter that this story goes out to: its name, its send's status and how many receive it. */
export interface StorySendFacts {
  newsletterName: string;
  status: StorySendStatus;
  /** The send's frozen recipients once it started, else the newsletter's active subscribers now. */
  recipients: number;
}

export const NO_NEWSLETTER_SEND = "No newsletter goes out for this story";

const subscribers = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "subscriber" : "subscribers"}`;

/** "Sending to 1,204 subscribers of Morning Briefing", then "Sent to …"; a send that did not go says so. */
export function storySendText(send: StorySendFacts): string {
  switch (send.status) {
    case "queued":
    case "sending":
      return `Sending to ${subscribers(send.recipients)} of ${send.newsletterName}`;
    case "sent":
      return `Sent to ${subscribers(send.recipients)} of ${send.newsletterName}`;
    case "failed":
      return `The send to ${send.newsletterName} failed`;
    case "cancelled":
      return `The send to ${send.newsletterName} was cancelled`;
    case "skipped":
      return `The send to ${send.newsletterName} was skipped`;
  }
}

/** The share shortcuts: plain share addresses, opened by the editor's click (nothing loads from them before). */
export function shareLinksOf(url: string, title: string): { label: string; href: string }[] {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return [
    { label: "X", href: `https://x.com/intent/post?url=${u}&text=${t}` },
    { label: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { label: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { label: "E-mail", href: `mailto:?subject=${t}&body=${u}` },
  ];
}

/** The story's public address, absolute from the site's public URL. */
export const publicStoryUrl = (publicUrl: string, slug: string) => `${publicUrl.replace(/\/+$/, "")}/article/${encodeURIComponent(slug)}`;
