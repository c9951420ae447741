/**
 * Amazon SES's bounce and complaint notifications, delivered by SNS to /api/newsletter/sns (issue 30).
 *
 * Nothing is believed before its signature is: the message's canonical string (per message type, as
 * Amazon's "Verifying the signatures of Amazon SNS messages" lays it out) is checked against the
 * certificate at SigningCertURL, SHA1withRSA for SignatureVersion 1 and SHA256withRSA for 2. That URL
 * must be https on exactly `sns.<region>.amazonaws.com` (`.amazonaws.com.cn` for China's regions), the
 * region of the configured topic, and is refused before anything is fetched otherwise. Certificates
 * are kept by URL (a few, the oldest dropped first). The topic must be SES_SNS_TOPIC_ARN's.
 *
 * Hand-written with node:crypto rather than npm's sns-validator (0.3.5): that one fetches with the
 * https module directly (no way to hand it a local certificate in tests, no timeout, no size limit),
 * keeps every certificate it ever saw in a module-wide object, and checks neither the topic nor the
 * region.
 *
 * What a verified notification does: a permanent bounce marks the subscriber `bounced` (and the send's
 * recipient row, when the mail names its send: the `X-Frontpage-Send` header or the `frontpage-send`
 * SES message tag); a transient one is only logged; a complaint marks the subscriber `complained`, which
 * unsubscribes them from everything (part of the readers' unsubscribeSubscriber).
 */
import { createVerify, X509Certificate } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { sendRecipients, subscribers } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import type { Logger } from "~/lib/logger.server";
import { unsubscribeSubscriber } from "./subscribers.server";

/** The header (and, for SES's v2 API, the message tag) that names the send a newsletter e-mail belongs to. */
export const SEND_HEADER = "X-Frontpage-Send";
export const SEND_TAG = "frontpage-send";

/** The fields SNS posts (JSON), as far as this endpoint reads them. */
export interface SnsMessage {
  Type: "Notification" | "SubscriptionConfirmation" | "UnsubscribeConfirmation";
  MessageId: string;
  TopicArn: string;
  Subject?: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: "1" | "2";
  Signature: string;
  SigningCertURL: string;
  SubscribeURL?: string;
  Token?: string;
}

/** What signs each message type, in this order ("Subject" only when the notification has one). */
const SIGNED_FIELDS = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
} as const satisfies Record<SnsMessage["Type"], readonly (keyof SnsMessage)[]>;

/** Every field each type must carry. */
const REQUIRED_FIELDS: Record<SnsMessage["Type"], readonly (keyof SnsMessage)[]> = {
  Notification: ["Message", "MessageId", "Timestamp", "TopicArn", "Type", "Signature", "SignatureVersion", "SigningCertURL"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type", "Signature", "SignatureVersion", "SigningCertURL"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type", "Signature", "SignatureVersion", "SigningCertURL"],
};

const ALGORITHMS = { "1": "RSA-SHA1", "2": "RSA-SHA256" } as const;

/** A region as AWS names them: us-east-1, eu-central-2, ap-southeast-4, us-gov-west-1, cn-north-1. */
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/** The region a topic's ARN names (arn:aws:sns:<region>:<account>:<name>), or null. */
export function topicRegion(topicArn: string): string | null {
  const region = topicArn.split(":")[3] ?? "";
  return REGION.test(region) ? region : null;
}

/** The only host SNS's certificates and subscription links may come from for a region. */
export function snsHostOf(region: string): string {
  return region.startsWith("cn-") ? `sns.${region}.amazonaws.com.cn` : `sns.${region}.amazonaws.com`;
}

/**
 * Whether `address` is an https URL on exactly the region's SNS host (no port, no user, no other
 * host that merely ends the same), and, for a certificate, a `.pem` file.
 */
export function isSnsUrl(address: string, region: string, kind: "certificate" | "subscribe"): boolean {
  if (!URL.canParse(address)) return false;
  const url = new URL(address);
  if (url.protocol !== "https:" || url.port !== "" || url.username !== "" || url.password !== "") return false;
  if (url.hostname !== snsHostOf(region)) return false;
  return kind === "subscribe" || url.pathname.endsWith(".pem");
}

/** The string SNS signed: "Key\nValue\n" for each of the type's fields, in order, those absent skipped. */
export function canonicalString(message: SnsMessage): string {
  let text = "";
  for (const field of SIGNED_FIELDS[message.Type]) {
    const value = message[field];
    if (value === undefined || value === null) continue;
    text += `${field}\n${value}\n`;
  }
  return text;
}

/** Fetches a certificate (PEM text) from an address already checked to be SNS's. */
export type CertificateFetcher = (url: string) => Promise<string>;

/** The most a certificate file may weigh (SNS's are about 2 KB). */
const CERTIFICATE_MAX_BYTES = 64 * 1024;

/** The certificate at `url`, over https, within 5 s and 64 KB, following no redirect. */
export const fetchCertificateOverHttps: CertificateFetcher = async (url) => {
  const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`the certificate answered ${response.status}`);
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > CERTIFICATE_MAX_BYTES) throw new Error("the certificate is too large");
  const text = await response.text();
  if (text.length > CERTIFICATE_MAX_BYTES) throw new Error("the certificate is too large");
  return text;
};

/** The AppError code of each answer SNS may get (a 503 asks SNS to deliver the message again later). */
const SNS_REFUSAL_CODES = { 400: "invalid_input", 403: "forbidden", 404: "not_found", 503: "upstream_failed" } as const;

/** A message the endpoint refuses: `status` is the answer SNS gets. */
export class SnsRefusal extends AppError {
  declare readonly status: keyof typeof SNS_REFUSAL_CODES;

  constructor(status: keyof typeof SNS_REFUSAL_CODES, message: string) {
    super(SNS_REFUSAL_CODES[status], message, { status });
    this.name = "SnsRefusal";
  }
}

/** How many certificates a verifier keeps (SNS rotates them rarely; a region uses one at a time). */
const CERTIFICATES_KEPT = 16;

/**
 * Checks SNS messages for one topic. Certificates are fetched once per URL (a fetch under way is
 * shared) and kept, at most CERTIFICATES_KEPT of them, the least recently used dropped first.
 */
export function createSnsVerifier(options: { fetchCertificate?: CertificateFetcher; now?: () => Date } = {}) {
  const fetchCertificate = options.fetchCertificate ?? fetchCertificateOverHttps;
  const now = options.now ?? (() => new Date());
  const certificates = new Map<string, Promise<X509Certificate>>();

  async function certificateAt(url: string): Promise<X509Certificate> {
    const kept = certificates.get(url);
    if (kept) {
      certificates.delete(url);
      certificates.set(url, kept);
      return kept;
    }
    const loading = fetchCertificate(url).then((pem) => new X509Certificate(pem));
    certificates.set(url, loading);
    while (certificates.size > CERTIFICATES_KEPT) certificates.delete(certificates.keys().next().value!);
    // A failed fetch is not kept: the next message tries again.
    loading.catch(() => {
      if (certificates.get(url) === loading) certificates.delete(url);
    });
    return loading;
  }

  return {
    /** How many certificates are kept now (for tests). */
    get keptCertificates() {
      return certificates.size;
    },
    /**
     * The message, parsed from the request body and verified for `topicArn`; throws SnsRefusal (400
     * for a malformed body, 403 for a foreign topic, certificate host or a bad signature, 503 when
     * the certificate could not be had: SNS tries again later).
     */
    async verify(body: string, topicArn: string): Promise<SnsMessage> {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new SnsRefusal(400, "not a JSON SNS message");
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new SnsRefusal(400, "not a JSON SNS message");
      const message = parsed as Record<string, unknown>;
      const type = message.Type;
      if (type !== "Notification" && type !== "SubscriptionConfirmation" && type !== "UnsubscribeConfirmation") throw new SnsRefusal(400, "unknown SNS message type");
      for (const field of REQUIRED_FIELDS[type]) {
        if (typeof message[field] !== "string") throw new SnsRefusal(400, `the SNS message has no ${field}`);
      }
      if (message.Subject !== undefined && message.Subject !== null && typeof message.Subject !== "string") throw new SnsRefusal(400, "the SNS message's Subject is not text");
      const sns = message as unknown as SnsMessage;
      if (sns.TopicArn !== topicArn) throw new SnsRefusal(403, "not the configured topic");
      const algorithm = ALGORITHMS[sns.SignatureVersion];
      if (!algorithm) throw new SnsRefusal(403, "unknown signature version");
      const region = topicRegion(topicArn);
      // Before any fetch: only SNS's own host, in the topic's region, may hand us a certificate.
      if (!region || !isSnsUrl(sns.SigningCertURL, region, "certificate")) throw new SnsRefusal(403, "the signing certificate is not on SNS's host");
      let certificate: X509Certificate;
      try {
        certificate = await certificateAt(sns.SigningCertURL);
      } catch {
        throw new SnsRefusal(503, "the signing certificate could not be fetched");
      }
      const at = now().getTime();
      if (at < Date.parse(certificate.validFrom) || at > Date.parse(certificate.validTo)) throw new SnsRefusal(403, "the signing certificate is not valid now");
      const signature = Buffer.from(sns.Signature, "base64");
      const verifier = createVerify(algorithm);
      verifier.update(canonicalString(sns), "utf8");
      let valid: boolean;
      try {
        valid = verifier.verify(certificate.publicKey, signature);
      } catch {
        valid = false;
      }
      if (!valid) throw new SnsRefusal(403, "the SNS signature does not verify");
      return sns;
    },
  };
}

export type SnsVerifier = ReturnType<typeof createSnsVerifier>;

/** Confirms a subscription by a GET of its SubscribeURL (already checked to be on SNS's host). */
export type SubscriptionConfirmer = (url: string) => Promise<void>;

export const confirmOverHttps: SubscriptionConfirmer = async (url) => {
  const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(10_000) });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`SNS answered ${response.status} to the subscription confirmation`);
};

/** The parts of an SES event (identity notifications: notificationType; event publishing: eventType) read here. */
interface SesEvent {
  notificationType?: string;
  eventType?: string;
  bounce?: { bounceType?: string; bounceSubType?: string; bouncedRecipients?: { emailAddress?: string; diagnosticCode?: string }[] };
  complaint?: { complainedRecipients?: { emailAddress?: string }[]; complaintFeedbackType?: string };
  mail?: { messageId?: string; headers?: { name?: string; value?: string }[]; tags?: Record<string, string[] | undefined> };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The send a bounced or complained-of e-mail belongs to: its X-Frontpage-Send header, else its SES tag. */
export function sendIdOfMail(mail: SesEvent["mail"]): string | null {
  const header = mail?.headers?.find((h) => h.name?.toLowerCase() === SEND_HEADER.toLowerCase())?.value?.trim();
  const candidate = header ?? mail?.tags?.[SEND_TAG]?.[0];
  return candidate && UUID.test(candidate) ? candidate.toLowerCase() : null;
}

export interface SesOutcome {
  kind: "permanent bounce" | "transient bounce" | "complaint" | "ignored";
  /** Subscribers whose status changed. */
  subscribers: number;
}

const addressesOf = (list: { emailAddress?: string }[] | undefined) =>
  [...new Set((list ?? []).map((r) => r.emailAddress?.trim().toLowerCase()).filter((a): a is string => Boolean(a)))].slice(0, 100);

/** The subscriber with this address (any case), or null. */
async function subscriberIdByEmail(db: Db, address: string): Promise<string | null> {
  const [row] = await db.select({ id: subscribers.id }).from(subscribers).where(eq(sql`lower(${subscribers.email})`, address));
  return row?.id ?? null;
}

/**
 * Applies one SES event (the Message of a verified notification). A permanent bounce: the subscriber
 * `bounced` (unsubscribeSubscriber's rule: one who complained stays `complained`) and their recipient
 * row of the send, when named, `bounced`. A complaint: the subscriber `complained`, which unsubscribes
 * them from everything, and the recipient row `complained`. Anything else is only logged.
 */
export async function applySesEvent(db: Db, text: string, log: Logger): Promise<SesOutcome> {
  let event: SesEvent;
  try {
    event = JSON.parse(text) as SesEvent;
  } catch {
    log.warn("an SES notification whose message is not JSON was ignored");
    return { kind: "ignored", subscribers: 0 };
  }
  const type = event.notificationType ?? event.eventType;
  const sendId = sendIdOfMail(event.mail);
  if (type === "Bounce" || type === "Complaint") {
    const permanent = type === "Bounce" && event.bounce?.bounceType === "Permanent";
    const addresses = addressesOf(type === "Bounce" ? event.bounce?.bouncedRecipients : event.complaint?.complainedRecipients);
    if (type === "Bounce" && !permanent) {
      log.info({ bounceType: event.bounce?.bounceType, bounceSubType: event.bounce?.bounceSubType, recipients: addresses.length, sendId }, "transient SES bounce: nothing changed");
      return { kind: "transient bounce", subscribers: 0 };
    }
    const status = type === "Bounce" ? "bounced" : "complained";
    const diagnostics = new Map((event.bounce?.bouncedRecipients ?? []).map((r) => [r.emailAddress?.trim().toLowerCase(), r.diagnosticCode]));
    let changed = 0;
    for (const address of addresses) {
      const id = await subscriberIdByEmail(db, address);
      if (!id) continue;
      await unsubscribeSubscriber(db, id, { status });
      if (sendId) {
        const reason = status === "bounced" ? `bounced (SES): ${diagnostics.get(address) ?? event.bounce?.bounceSubType ?? "permanent"}`.slice(0, 1000) : undefined;
        await db
          .update(sendRecipients)
          .set(reason ? { status, lastError: reason, nextAttemptAt: null } : { status, nextAttemptAt: null })
          .where(and(eq(sendRecipients.sendId, sendId), eq(sendRecipients.subscriberId, id)));
      }
      changed++;
    }
    log.info({ recipients: addresses.length, subscribers: changed, sendId, feedback: event.complaint?.complaintFeedbackType }, `SES ${status === "bounced" ? "permanent bounce" : "complaint"}: subscribers marked ${status}`);
    return { kind: status === "bounced" ? "permanent bounce" : "complaint", subscribers: changed };
  }
  log.debug({ type }, "SES notification of another kind ignored");
  return { kind: "ignored", subscribers: 0 };
}

export interface SnsAnswer {
  status: 200 | 400 | 403 | 404 | 503;
  message: string;
}

/**
 * One POST to the SNS endpoint: 404 without a configured topic; the message verified; a subscription
 * confirmed by a GET of its SubscribeURL (only on the topic region's SNS host); a notification's SES
 * event applied.
 */
export async function receiveSnsMessage(
  db: Db,
  body: string,
  deps: { topicArn: string | undefined; verifier: SnsVerifier; confirm?: SubscriptionConfirmer; log: Logger },
): Promise<SnsAnswer> {
  if (!deps.topicArn) return { status: 404, message: "Not Found" };
  let message: SnsMessage;
  try {
    message = await deps.verifier.verify(body, deps.topicArn);
  } catch (error) {
    if (!(error instanceof SnsRefusal)) throw error;
    deps.log.warn({ reason: error.message }, "SNS message refused");
    return { status: error.status, message: error.message };
  }
  if (message.Type === "SubscriptionConfirmation") {
    const region = topicRegion(deps.topicArn)!;
    if (!isSnsUrl(message.SubscribeURL!, region, "subscribe")) {
      deps.log.warn({ subscribeUrl: message.SubscribeURL }, "SNS subscription link not on SNS's host: not followed");
      return { status: 403, message: "the subscription link is not on SNS's host" };
    }
    try {
      await (deps.confirm ?? confirmOverHttps)(message.SubscribeURL!);
    } catch (error) {
      deps.log.warn({ err: error }, "could not confirm the SNS subscription");
      return { status: 503, message: "the subscription could not be confirmed" };
    }
    deps.log.info({ topicArn: message.TopicArn }, "SNS subscription confirmed");
    return { status: 200, message: "subscription confirmed" };
  }
  if (message.Type === "UnsubscribeConfirmation") {
    deps.log.warn({ topicArn: message.TopicArn }, "SNS says this endpoint was unsubscribed from the topic");
    return { status: 200, message: "noted" };
  }
  const outcome = await applySesEvent(db, message.Message, deps.log);
  return { status: 200, message: outcome.kind };
}
