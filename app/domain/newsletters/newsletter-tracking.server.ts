import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { isUuid } from "~/lib/ids";

// "Track opens and clicks" (issue 30, off by default): a newsletter that turns it on gets, per
// recipient, an open pixel `/newsletter/open/{token}.gif` and every link through
// `/newsletter/click/{token}?u=<url>`. A token is `<send id>.<subscriber id>.<signature>`: an
// HMAC-SHA256 (cut to 128 bits) with a key derived from the site's session secret for this purpose
// only, over the purpose, the send, the subscriber and, for a click, the exact address. So the
// redirect goes only where the e-mail itself pointed: another address, or an edited token, is a 404.
// Nothing is stored per link: any process with the secret checks them.

export type TrackingPurpose = "open" | "click";

export interface TrackedRecipient {
  sendId: string;
  subscriberId: string;
}

const keys = new Map<string, KeyObject>();
/** The purpose's own key (kept per secret, as a key object: a send signs a link per recipient and address). */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(createHmac("sha256", secret).update("frontpage newsletter tracking v1").digest());
    if (keys.size > 8) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

function signatureOf(secret: string, purpose: TrackingPurpose, recipient: TrackedRecipient, url: string): Buffer {
  return createHmac("sha256", keyOf(secret)).update(`${purpose}\n${recipient.sendId}\n${recipient.subscriberId}\n${url}`).digest().subarray(0, 16);
}

/** The token of a recipient's open pixel (`url` ""), or of their click on `url`. */
export function trackingToken(secret: string, purpose: TrackingPurpose, recipient: TrackedRecipient, url = ""): string {
  return `${recipient.sendId}.${recipient.subscriberId}.${signatureOf(secret, purpose, recipient, url).toString("base64url")}`;
}

/** The recipient a token was made for, when it is one of `purpose` for exactly `url` (constant time); null otherwise. */
export function trackedRecipientOf(secret: string, purpose: TrackingPurpose, token: string, url = ""): TrackedRecipient | null {
  const [sendId, subscriberId, signature, ...rest] = token.split(".");
  if (!sendId || !subscriberId || !signature || rest.length > 0 || !isUuid(sendId) || !isUuid(subscriberId)) return null;
  const recipient = { sendId, subscriberId };
  // Compared as written (not decoded): a base64url text's last character has spare bits, and an
  // edited one must not pass for the original.
  const given = Buffer.from(signature);
  const expected = Buffer.from(signatureOf(secret, purpose, recipient, url).toString("base64url"));
  return given.length === expected.length && timingSafeEqual(given, expected) ? recipient : null;
}

/** Where a click may be sent: an absolute http(s) address (the e-mail tracks nothing else). */
export function isTrackableUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * Records a recipient's first open (the pixel) or first click (which is an open too, when images
 * were off). Only while the newsletter still tracks: a newsletter that turned tracking off records
 * nothing more, even from e-mails sent before (their links still lead where they pointed).
 */
export async function recordEngagement(db: Db, purpose: TrackingPurpose, recipient: TrackedRecipient): Promise<void> {
  const tracks = sql`exists (select 1 from newsletter_sends s join newsletters n on n.id = s.newsletter_id
    where s.id = send_recipients.send_id and n.track_engagement)`;
  if (purpose === "open") {
    await db.execute(sql`update send_recipients set opened_at = now()
      where send_id = ${recipient.sendId} and subscriber_id = ${recipient.subscriberId} and opened_at is null and ${tracks}`);
  } else {
    await db.execute(sql`update send_recipients set clicked_at = now(), opened_at = coalesce(opened_at, now())
      where send_id = ${recipient.sendId} and subscriber_id = ${recipient.subscriberId} and clicked_at is null and ${tracks}`);
  }
}
