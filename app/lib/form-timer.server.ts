import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed "this form was shown at" stamps (issue 12: a minimum fill time for the comment form). The
 * page carries `<time, base-36 ms>.<HMAC>`; a post sends it back, and the server reads how long the
 * form was open. Nothing is stored, so any process with the same secret reads it; the key is derived
 * from the session secret for this one purpose.
 */
export interface FormTimer {
  issue(now?: Date): string;
  /** How long ago the stamp was issued, or null when it is missing, forged or from the future. */
  elapsedMs(stamp: string, now?: Date): number | null;
}

export function createFormTimer(secret: string): FormTimer {
  const key = createHmac("sha256", secret).update("frontpage form timer v1").digest();
  const sign = (payload: string) => createHmac("sha256", key).update(payload).digest();
  return {
    issue(now = new Date()) {
      const payload = now.getTime().toString(36);
      return `${payload}.${sign(payload).toString("base64url")}`;
    },
    elapsedMs(stamp, now = new Date()) {
      const [payload, signature, extra] = stamp.split(".");
      if (!payload || !signature || extra !== undefined || !/^[0-9a-z]{1,12}$/.test(payload)) return null;
      const given = Buffer.from(signature, "base64url");
      const expected = sign(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const elapsed = now.getTime() - parseInt(payload, 36);
      return elapsed >= 0 ? elapsed : null;
    },
  };
}
