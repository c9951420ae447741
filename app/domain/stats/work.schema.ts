// The dashboard's work lists by role (issue 27), safe in the browser: what each list is called, what it
// says when empty, and the greeting.

/** One story in a work list: where it opens and the time that matters for it. */
export interface WorkItem {
  id: string;
  title: string;
  /** Its edit page when the viewer may open it; its public page once published; null otherwise. */
  href: string | null;
  /** The time shown beside it (saved, sent back, goes live, went live), ISO. */
  at: string;
  /** Who or what the time is about, e.g. "Sent back by Dana Editor" or "Submitted by Sam". */
  detail?: string;
}

export interface WorkList {
  key: WorkListKey;
  /** How many stories the list holds in all (it shows the first WORK_LIST_LIMIT). */
  total: number;
  items: WorkItem[];
}

export type WorkListKey = "myDrafts" | "sentBack" | "myScheduled" | "myPublished" | "review" | "scheduled" | "published";

/** How many stories each work list shows. */
export const WORK_LIST_LIMIT = 5;

export const WORK_LISTS: Record<WorkListKey, { title: string; empty: string; timeLabel: string }> = {
  myDrafts: { title: "My drafts", empty: "You have no drafts. Start a new article when you are ready.", timeLabel: "Saved" },
  sentBack: { title: "Sent back to me", empty: "Nothing has been sent back to you.", timeLabel: "Sent back" },
  myScheduled: { title: "Scheduled", empty: "None of your stories is scheduled.", timeLabel: "Goes live" },
  myPublished: { title: "Published recently", empty: "None of your stories has been published yet.", timeLabel: "Published" },
  review: { title: "Waiting for review", empty: "No drafts are waiting for review.", timeLabel: "Submitted" },
  scheduled: { title: "Scheduled", empty: "No articles are scheduled.", timeLabel: "Goes live" },
  published: { title: "Recently published", empty: "Nothing has been published yet.", timeLabel: "Published" },
};

/** The lists an author sees, and those an editor or admin sees, in order. */
export const AUTHOR_WORK: readonly WorkListKey[] = ["myDrafts", "sentBack", "myScheduled", "myPublished"];
export const EDITOR_WORK: readonly WorkListKey[] = ["review", "scheduled", "published"];

/**
 * "Good morning, {name}" by the hour on the site's clock; "Welcome" when the account has no name of
 * its own (the greeting never shows an e-mail address).
 */
export function greeting(name: string | null | undefined, email: string, hour: number): string {
  const own = name?.trim();
  const shown = own && own.toLowerCase() !== email.toLowerCase() && !own.includes("@") ? own : null;
  if (!shown) return "Welcome";
  const part = hour < 5 ? "Good evening" : hour < 12 ? "Good morning" : hour < 18 ? "Good afternoon" : "Good evening";
  return `${part}, ${shown}`;
}

/** The hour (0–23) of `now` on the wall clock of `timeZone`. */
export function hourIn(now: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" }).format(now)) % 24;
}
