// Readers' accounts (issue 40): the texts, field names and the `next` rule the /account pages share
// with the server. Safe in the browser, and without zod (reader pages keep their JavaScript small).

export const SIGN_IN_PATH = "/account/sign-in";
export const ACCOUNT_PATH = "/account";

/** The one answer to every accepted sign-in request, whoever the address belongs to: nothing is revealed. */
export const SIGN_IN_ANSWER = "Check your inbox: we have sent you a link to sign in. It works once, for 15 minutes.";
/** The sign-in e-mail could not be sent (the mail server refused or was unreachable). */
export const SIGN_IN_MAIL_FAILED = "We could not send the e-mail just now. Please try again in a minute.";
/** A used, expired or edited sign-in link. */
export const SIGN_IN_LINK_REFUSED = "This sign-in link has already been used or has expired. Enter your e-mail address to get a new one.";
export const EMAIL_CHANGE_ANSWER = "Check the inbox of your new address: the change is made when you open the link we sent there.";
export const EMAIL_CHANGED = "Your e-mail address has been changed.";
export const EMAIL_CHANGE_LINK_REFUSED = "This link has already been used or has expired. Ask for a new one on your account page.";
export const EMAIL_CHANGE_TAKEN = "Another account uses this e-mail address, so it cannot be yours.";
export const EMAIL_UNCHANGED = "This is already your e-mail address.";
export const NAME_SAVED = "Your name is saved.";
export const NAME_TOO_LONG = "Please keep your name under 100 characters.";
export const SIGNED_OUT_EVERYWHERE = "You are signed out on every device.";
export const ACCOUNT_DELETED = "Your account has been deleted.";
export const BILLING_UNAVAILABLE = "Billing is not available for this account.";
export const BILLING_FAILED = "We could not open the billing page. Please try again in a minute.";
export const DELETE_CANCEL_FAILED = "We could not cancel your subscription, so your account has not been deleted. Please try again in a minute, or contact us.";
export const DELETE_CONFIRM_REQUIRED = "Tick the box to confirm that you want to delete your account.";

/** The longest name a member may give (as a newsletter greeting shows it). */
export const NAME_MAX_LENGTH = 100;

const hasControlCharacter = (value: string) => [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * Where to go after signing in: a path of this site (`/x`, with its query), or /account. Anything else
 * (another origin, `//host`, `/\host`, a scheme, control characters) is /account: no open redirect.
 */
export function safeNextPath(value: string | null | undefined): string {
  if (!value || value.length > 2000 || !value.startsWith("/") || value.startsWith("//") || value.includes("\\") || hasControlCharacter(value)) return ACCOUNT_PATH;
  try {
    const base = "http://frontpage.invalid";
    const url = new URL(value, base);
    if (url.origin !== base) return ACCOUNT_PATH;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return ACCOUNT_PATH;
  }
}

/** The sign-in page's address for a reader who should come back to `next`. */
export function signInPathFor(next: string): string {
  return `${SIGN_IN_PATH}?next=${encodeURIComponent(safeNextPath(next))}`;
}
