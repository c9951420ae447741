import { z } from "zod";

// The newsroom's newsletter form (issue 30): the rules the screen and the server both read. Browser-safe.

export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

export const NAME_REQUIRED = "Name is required";
export const REPLY_TO_INVALID = "Enter a valid e-mail address for replies (like letters@example.com), or leave it empty.";
export const DIGEST_TIME_INVALID = "Enter the time as HH:MM on a 24-hour clock (like 07:30).";
export const DIGEST_WEEKDAY_REQUIRED = "Choose the day of the week a weekly digest goes out.";
export const DIGEST_FREQUENCY_INVALID = "Choose Daily or Weekly.";
export const LAST_NEWSLETTER_KEPT = "This is the only newsletter left: a site always keeps at least one. Create another before archiving this one.";
export const NEWSLETTER_GONE = "This newsletter no longer exists.";
export const NEWSLETTER_ARCHIVED = "This newsletter is archived and can no longer be changed.";
export const NEWSLETTER_NAME_MAX = 120;

const DIGEST_TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const EMAIL = /^[^\s@<>(),;:"\\]+@[^\s@<>(),;:"\\]+\.[^\s@<>(),;:"\\]+$/;

/** Whether a text is an e-mail address this site accepts (one address, no display name). */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

/** The form's fields as read from the request (checkboxes: "on" or ""; categories are read with getAll). */
export const NEWSLETTER_FIELDS = [
  "name",
  "description",
  "isPublic",
  "senderName",
  "replyTo",
  "kind",
  "digestFrequency",
  "digestWeekday",
  "digestTime",
  "trackEngagement",
] as const;
export type NewsletterFieldName = (typeof NEWSLETTER_FIELDS)[number] | "digestCategoryIds";

const checkbox = z.string().transform((value) => value === "on" || value === "true" || value === "1");

/** The create and edit form. A digest needs its schedule; a Stories newsletter keeps none. */
export const newsletterFormSchema = z
  .object({
    name: z.string().trim().min(1, NAME_REQUIRED).max(NEWSLETTER_NAME_MAX, `Name must be at most ${NEWSLETTER_NAME_MAX} characters`),
    description: z.string().trim().max(1000, "Description must be at most 1,000 characters"),
    isPublic: checkbox,
    senderName: z
      .string()
      .trim()
      .max(120, "Sender name must be at most 120 characters")
      .transform((value) => value || null),
    replyTo: z
      .string()
      .trim()
      .refine((value) => value === "" || isEmailAddress(value), REPLY_TO_INVALID)
      .transform((value) => value || null),
    kind: z.enum(["stories", "digest"], { message: "Choose Stories or Digest." }),
    digestFrequency: z.string().trim(),
    digestWeekday: z.string().trim(),
    digestTime: z.string().trim(),
    trackEngagement: checkbox,
  })
  .superRefine((input, ctx) => {
    if (input.kind !== "digest") return;
    if (input.digestFrequency !== "daily" && input.digestFrequency !== "weekly") {
      ctx.addIssue({ code: "custom", path: ["digestFrequency"], message: DIGEST_FREQUENCY_INVALID });
    }
    if (input.digestFrequency === "weekly" && !/^[0-6]$/.test(input.digestWeekday)) {
      ctx.addIssue({ code: "custom", path: ["digestWeekday"], message: DIGEST_WEEKDAY_REQUIRED });
    }
    if (!DIGEST_TIME.test(input.digestTime)) ctx.addIssue({ code: "custom", path: ["digestTime"], message: DIGEST_TIME_INVALID });
  })
  .transform(({ digestFrequency, digestWeekday, digestTime, ...rest }) => {
    const digest = rest.kind === "digest";
    const frequency = digest ? (digestFrequency as "daily" | "weekly") : null;
    return {
      ...rest,
      digestFrequency: frequency,
      digestWeekday: frequency === "weekly" ? Number(digestWeekday) : null,
      digestTime: digest ? digestTime : null,
    };
  });
export type NewsletterInput = z.output<typeof newsletterFormSchema> & { digestCategoryIds: string[] | null };

/** How a newsletter's list names its kind: "Stories", "Daily at 07:30", "Weekly on Monday at 07:30". */
export function newsletterScheduleLabel(n: { kind: string; digestFrequency: string | null; digestWeekday: number | null; digestTime: string | null }): string {
  if (n.kind !== "digest") return "Stories";
  if (n.digestFrequency === "weekly") return `Weekly on ${WEEKDAYS[n.digestWeekday ?? 0]} at ${n.digestTime}`;
  return `Daily at ${n.digestTime}`;
}

/** The sentence the newsletter screens show when newsletters are written to files instead of being sent. */
export const OUTBOX_NOTICE =
  "Newsletters are saved to the outbox folder (DATA_DIR/outbox) instead of being sent: no mail server is set up (NEWSLETTER_TRANSPORT / SMTP_URL).";

/**
 * The warning of the screens that send (the publish panel, "Send now", the newsletter screens) when the
 * settings have no postal address for the e-mails' footer: a warning, the send is not blocked.
 */
export const POSTAL_ADDRESS_WARNING =
  "The e-mails have no postal address in their footer: the US CAN-SPAM Act asks for one in every newsletter. An administrator can add it under Settings → Newsletters; sending is not blocked.";

/** "Send now" of a public story (its edit page): the intent its request carries. */
export const SEND_STORY_INTENT = "send-story";

const subscribersText = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "subscriber" : "subscribers"}`;

/** The confirmation of "Send now": how many will receive it, and that it goes once. */
export function sendStoryPrompt(newsletterName: string, subscribers: number) {
  return {
    title: `Send this story to ${newsletterName}?`,
    description: `It goes now to the ${subscribersText(subscribers)} of ${newsletterName}. A story goes to a newsletter once: it cannot be sent to ${newsletterName} again.`,
    confirm: "Send now",
  } as const;
}

/** The toast once "Send now" is accepted (the recipients are counted again as the send is made). */
export const storySentMessage = (newsletterName: string, subscribers: number) => `Sending to ${newsletterName}: ${subscribersText(subscribers)}`;

/** Sends' states as the screens name them. */
export const SEND_STATE_LABELS: Record<string, string> = {
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  cancelled: "Cancelled",
  failed: "Failed",
  skipped: "Skipped",
};

/**
 * Which e-mail of a Members or Paid story a test sends (the form's `testVariant`, issue 40): the whole
 * story (what readers with access get), the free part with its call to action (the others), or both,
 * each labelled in its subject. A public story has one e-mail, sent unlabelled whatever is chosen.
 */
export const TEST_VARIANTS = ["both", "whole", "teaser"] as const;
export type TestVariant = (typeof TEST_VARIANTS)[number];
export const TEST_VARIANT_LABELS: Record<TestVariant, string> = {
  both: "Both versions",
  whole: "Whole story (readers with access)",
  teaser: "Free part (readers without access)",
};
