// Reading Better Auth's answers, in the browser and on the server alike.

/** Better Auth's refusals whose own message is written for developers, in words for people. */
const MESSAGES_FOR_PEOPLE: Record<string, string> = {
  INVALID_CODE: "That code is not right. Enter the code your authenticator app shows now, or a backup code.",
  INVALID_BACKUP_CODE: "That backup code is not right, or it was used already.",
  INVALID_TWO_FACTOR_COOKIE: "The sign-in took too long. Please enter your e-mail and password again.",
  ACCOUNT_TEMPORARILY_LOCKED: "Too many wrong codes. Try again in 15 minutes, or use a backup code later.",
  INVALID_TOKEN: "This password reset link is not valid any more. Ask for a new one.",
};

/** The message Better Auth (or the sign-in limit) answered with, for a failure toast or a field. */
export async function errorMessageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown; code?: unknown };
    if (typeof body?.code === "string" && MESSAGES_FOR_PEOPLE[body.code]) return MESSAGES_FOR_PEOPLE[body.code]!;
    if (typeof body?.message === "string" && body.message) return body.message;
  } catch {
    // not JSON: fall through to the status line
  }
  return response.statusText || `Request failed with status ${response.status}`;
}
