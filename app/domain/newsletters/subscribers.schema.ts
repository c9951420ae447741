// The readers' side of the newsletters (issue 30): the texts and field names the sign-up form, the
// confirmation, preferences and unsubscribe pages share with the server. Safe in the browser, and
// without zod: the sign-up form sits on every article and on the home page (reader JavaScript stays small).

export const SIGNUP_HEADING = "Get our newsletter";
/** The one answer to every accepted sign-up, whoever the address belongs to: nothing is revealed. */
export const SIGNUP_ANSWER = "Check your inbox to confirm your subscription.";
export const CONFIRM_BUTTON = "Confirm subscription";
export const CONFIRMED_ANSWER = "You're subscribed.";
export const UNSUBSCRIBED_ANSWER = "You're unsubscribed.";
export const PREFERENCES_SAVED = "Your preferences are saved.";
/**
 * The preferences page of an address that unsubscribed (issue 39): an old link still shows the
 * newsletters, but ticking one only sends a new confirmation link; nothing is sent until it is used.
 */
export const PREFERENCES_UNSUBSCRIBED_NOTE = "This address is unsubscribed from all newsletters. To subscribe again, tick the ones you want and press Save: we will e-mail you a link to confirm.";
export const PREFERENCES_CONFIRM_ANSWER = "Check your inbox: we have sent you a link to confirm your subscription. Until you confirm it, you receive no newsletters.";

/** How long an unconfirmed sign-up is kept before it is deleted (and its link stops working). */
export const PENDING_SIGNUP_DAYS = 7;

/** Where a sign-up form posts, whatever page it is on (a plain form: it works without JavaScript). */
export const SIGNUP_ACTION = "/newsletter";

/** The sign-up form's fields: the address, the chosen newsletters, the page it was on. */
export const SIGNUP_FIELDS = ["email", "source"] as const;
export type SignupField = (typeof SIGNUP_FIELDS)[number] | "newsletters";
/** The checkboxes' name (one value per ticked newsletter id). */
export const NEWSLETTERS_FIELD = "newsletters";

/** A newsletter as a reader's form shows it. */
export interface NewsletterChoice {
  id: string;
  name: string;
  description: string;
}

/** What POST /newsletter answers: the one answer, or a refusal with what was typed. */
export type SignupOutcome =
  | { ok: true; message: typeof SIGNUP_ANSWER }
  | { ok: false; error: string; fieldErrors: Partial<Record<SignupField, string>>; values?: Partial<Record<SignupField, string>> };

/** The paths of the subscriber's own links (tokens signed in subscriber-tokens.server.ts). */
export const subscriberPath = (purpose: "confirm" | "preferences" | "unsubscribe", token: string) => `/newsletter/${purpose}/${encodeURIComponent(token)}`;
