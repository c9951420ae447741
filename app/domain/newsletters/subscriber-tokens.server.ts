import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isUuid } from "~/lib/ids";

// The links a subscriber gets (issue 30): confirm a sign-up, manage preferences, unsubscribe in one
// click (RFC 8058). A token is `<subscriber id>.<HMAC-SHA256>`, signed with a key derived from the
// site's session secret for this purpose only, over the purpose, the id and the subscriber's own
// `token_key`: a forged or edited token reads as nothing (the routes answer 404), a token of one
// purpose never passes for another, and a new token_key (an erased person, a re-subscription after
// an unsubscribe) voids every link sent before. Nothing else is stored: any process with the secret
// reads them.

export type SubscriberTokenPurpose = "confirm" | "preferences" | "unsubscribe";

/** A new subscriber's (or a reset subscriber's) token key. */
export const newTokenKey = () => randomBytes(18).toString("base64url");

const keyOf = (secret: string) => createHmac("sha256", secret).update("frontpage subscriber links v1").digest();

function signatureOf(secret: string, purpose: SubscriberTokenPurpose, subscriberId: string, tokenKey: string): Buffer {
  return createHmac("sha256", keyOf(secret)).update(`${purpose}\n${subscriberId}\n${tokenKey}`).digest();
}

/** The token of `purpose` for this subscriber. */
export function subscriberToken(secret: string, purpose: SubscriberTokenPurpose, subscriber: { id: string; tokenKey: string }): string {
  return `${subscriber.id}.${signatureOf(secret, purpose, subscriber.id, subscriber.tokenKey).toString("base64url")}`;
}

/** The subscriber id a token names, before its signature is checked (null: not a token at all). */
export function subscriberIdOf(token: string): string | null {
  const [id, signature, ...rest] = token.split(".");
  return id && signature && rest.length === 0 && isUuid(id) ? id : null;
}

/** Whether `token` is this subscriber's token of `purpose` (constant time). */
export function tokenHolds(secret: string, purpose: SubscriberTokenPurpose, token: string, subscriber: { id: string; tokenKey: string }): boolean {
  const [id, signature] = token.split(".");
  if (id !== subscriber.id || !signature) return false;
  const given = Buffer.from(signature, "base64url");
  const expected = signatureOf(secret, purpose, subscriber.id, subscriber.tokenKey);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
