import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { AwsClient } from "aws4fetch";
import nodemailer from "nodemailer";
import addressparser from "nodemailer/lib/addressparser";
import MailComposer from "nodemailer/lib/mail-composer";
import type Mail from "nodemailer/lib/mailer";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";

// How newsletters leave (issue 30, decision 0043): SMTP through a pool of connections (nodemailer,
// DKIM-signed when DKIM_* are set), Amazon SES through its v2 HTTP API (the MIME message built here,
// signed requests by aws4fetch), or, with neither configured, .eml files in DATA_DIR/outbox as
// account mail does. Each message comes back as accepted, temporary (a 4xx, or the transport
// unreachable: "down") or permanent (a 5xx for that recipient); the send engine decides what follows.

export type NewsletterTransportKind = "smtp" | "ses" | "outbox";

type TransportEnv = Pick<
  Env,
  | "NEWSLETTER_TRANSPORT"
  | "NEWSLETTER_SMTP_URL"
  | "SMTP_URL"
  | "NEWSLETTER_FROM"
  | "MAIL_FROM"
  | "NEWSLETTER_RATE"
  | "NEWSLETTER_SMTP_POOL"
  | "DKIM_DOMAIN"
  | "DKIM_SELECTOR"
  | "DKIM_PRIVATE_KEY"
  | "SES_REGION"
  | "SES_ACCESS_KEY_ID"
  | "SES_SECRET_ACCESS_KEY"
  | "SES_ENDPOINT"
  | "SES_RATE"
  | "dataDir"
>;

/** Whether newsletters leave by smtp, ses or the outbox: NEWSLETTER_TRANSPORT, else smtp when an SMTP URL is set. */
export function newsletterTransportKind(env: Pick<Env, "NEWSLETTER_TRANSPORT" | "NEWSLETTER_SMTP_URL" | "SMTP_URL">): NewsletterTransportKind {
  return env.NEWSLETTER_TRANSPORT ?? (env.NEWSLETTER_SMTP_URL || env.SMTP_URL ? "smtp" : "outbox");
}

/** The newsletters' sending address: NEWSLETTER_FROM's, else MAIL_FROM's ("Name <a@b>" or "a@b"). */
export function newsletterFromAddress(env: Pick<Env, "NEWSLETTER_FROM" | "MAIL_FROM">): string {
  const configured = env.NEWSLETTER_FROM ?? env.MAIL_FROM;
  const [first] = addressparser(configured, { flatten: true }) as { address: string }[];
  return first?.address || "no-reply@localhost";
}

/**
 * The List-Unsubscribe headers every newsletter message carries (RFC 2369 and RFC 8058): the one-click
 * https URL first (a POST of "List-Unsubscribe=One-Click" unsubscribes), then a mailto to the From
 * address with the subject "unsubscribe" (the newsroom's own mailbox, which must take mail anyway for
 * replies and bounces: no second mailbox to configure; decision 0043).
 */
export function listUnsubscribeHeaders(unsubscribeUrl: string, fromAddress: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${unsubscribeUrl}>, <mailto:${fromAddress}?subject=unsubscribe>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

export interface NewsletterMessage {
  to: string;
  from: { name: string; address: string };
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
}

export type Delivery =
  | { outcome: "accepted" }
  /** Try again later: a 4xx reply, or (`down`) the transport could not be reached at all. */
  | { outcome: "temporary"; error: string; down: boolean }
  /** Refused for good for this recipient (a 5xx reply): they bounce. */
  | { outcome: "permanent"; error: string };

export interface NewsletterTransport {
  kind: NewsletterTransportKind;
  /** Messages in flight at once (the SMTP pool's connections). */
  concurrency: number;
  /** Messages a second at most. */
  rate: number;
  send(message: NewsletterMessage): Promise<Delivery>;
  close(): Promise<void>;
}

const mailOf = (message: NewsletterMessage): Mail.Options => ({
  from: message.from,
  to: message.to,
  ...(message.replyTo ? { replyTo: message.replyTo } : {}),
  subject: message.subject,
  html: message.html,
  text: message.text,
  headers: message.headers,
});

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** Connection-level failures: nothing was said about this recipient, the server is out of reach. */
const DOWN_CODES = new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ETLS", "EAUTH", "ECONNREFUSED", "ECONNRESET", "EPROTOCOL", "EPIPE"]);

/** What an SMTP error means for this message: a 5xx refuses the recipient, a 4xx or no answer is retried. */
export function smtpDelivery(error: unknown): Delivery {
  const e = error as { responseCode?: unknown; code?: unknown };
  const message = errorText(error);
  if (typeof e.responseCode === "number") {
    if (e.responseCode >= 500) return { outcome: "permanent", error: message };
    // 421: the server closes the channel (overloaded, shutting down): the transport is down for now.
    return { outcome: "temporary", error: message, down: e.responseCode === 421 };
  }
  // No reply at all: the server is out of reach. A message nodemailer itself cannot send (an address
  // it cannot use: EENVELOPE) will never go.
  if (typeof e.code === "string" && !DOWN_CODES.has(e.code)) return { outcome: "permanent", error: message };
  return { outcome: "temporary", error: message, down: true };
}

function smtpTransport(env: TransportEnv, log: Logger): NewsletterTransport {
  const url = env.NEWSLETTER_SMTP_URL ?? env.SMTP_URL;
  if (!url) throw new Error("NEWSLETTER_TRANSPORT=smtp needs NEWSLETTER_SMTP_URL or SMTP_URL");
  const dkim =
    env.DKIM_DOMAIN && env.DKIM_SELECTOR && env.DKIM_PRIVATE_KEY
      ? { domainName: env.DKIM_DOMAIN, keySelector: env.DKIM_SELECTOR, privateKey: env.DKIM_PRIVATE_KEY.replace(/\\n/g, "\n") }
      : undefined;
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: env.NEWSLETTER_SMTP_POOL,
    // A connection stays open for the whole send (a new one per 100 messages costs a handshake each).
    maxMessages: Infinity,
    ...(dkim ? { dkim } : {}),
  });
  log.info({ pool: env.NEWSLETTER_SMTP_POOL, dkim: Boolean(dkim) }, "newsletters leave by SMTP");
  return {
    kind: "smtp",
    concurrency: env.NEWSLETTER_SMTP_POOL,
    rate: env.NEWSLETTER_RATE,
    async send(message) {
      try {
        await transport.sendMail(mailOf(message));
        return { outcome: "accepted" };
      } catch (error) {
        return smtpDelivery(error);
      }
    },
    async close() {
      transport.close();
    },
  };
}

/** The raw MIME message (headers, both parts) as SES's Content.Raw and the outbox take it. */
export async function mimeOf(message: NewsletterMessage): Promise<Buffer> {
  return new MailComposer(mailOf(message)).compile().build();
}

/** SES errors that concern the account or the service, not this recipient: wait and try again. */
const SES_PAUSED = new Set(["AccountSuspendedException", "SendingPausedException", "LimitExceededException", "TooManyRequestsException"]);

function sesTransport(env: TransportEnv, log: Logger): NewsletterTransport {
  const aws = new AwsClient({ accessKeyId: env.SES_ACCESS_KEY_ID ?? "", secretAccessKey: env.SES_SECRET_ACCESS_KEY ?? "", service: "ses", region: env.SES_REGION });
  const endpoint = `${(env.SES_ENDPOINT ?? `https://email.${env.SES_REGION}.amazonaws.com`).replace(/\/+$/, "")}/v2/email/outbound-emails`;
  log.info({ region: env.SES_REGION, rate: env.SES_RATE }, "newsletters leave by Amazon SES");
  return {
    kind: "ses",
    concurrency: env.NEWSLETTER_SMTP_POOL,
    rate: Math.min(env.SES_RATE, env.NEWSLETTER_RATE),
    async send(message) {
      let response: Response;
      try {
        const raw = await mimeOf(message);
        response = await aws.fetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            FromEmailAddress: `${message.from.name.replace(/["\\]/g, "")} <${message.from.address}>`,
            Destination: { ToAddresses: [message.to] },
            Content: { Raw: { Data: raw.toString("base64") } },
          }),
        });
      } catch (error) {
        return { outcome: "temporary", error: errorText(error), down: true };
      }
      if (response.ok) {
        await response.body?.cancel();
        return { outcome: "accepted" };
      }
      const body = (await response.text()).slice(0, 500);
      const type = response.headers.get("x-amzn-errortype")?.split(":")[0] ?? "";
      const error = `SES ${response.status} ${type} ${body}`.trim();
      if (response.status === 429 || response.status >= 500 || SES_PAUSED.has(type)) return { outcome: "temporary", error, down: true };
      // 400 MessageRejected, MailFromDomainNotVerified, a malformed address: this message will not go.
      if (type === "MessageRejected" || response.status === 400) return { outcome: "permanent", error };
      return { outcome: "temporary", error, down: true };
    },
    async close() {},
  };
}

function outboxTransport(env: TransportEnv, log: Logger): NewsletterTransport {
  const outboxDir = path.join(env.dataDir, "outbox");
  let told = false;
  return {
    kind: "outbox",
    concurrency: env.NEWSLETTER_SMTP_POOL,
    rate: env.NEWSLETTER_RATE,
    async send(message) {
      try {
        const raw = await mimeOf(message);
        await fs.mkdir(outboxDir, { recursive: true, mode: 0o700 });
        const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-newsletter-${randomBytes(4).toString("hex")}.eml`);
        await fs.writeFile(file, raw, { mode: 0o600 });
        if (!told) {
          told = true;
          log.warn({ outboxDir }, "no newsletter transport configured: newsletters are saved to the outbox instead of sent");
        }
        return { outcome: "accepted" };
      } catch (error) {
        return { outcome: "temporary", error: errorText(error), down: true };
      }
    },
    async close() {},
  };
}

/** The newsletters' transport, made once per process that runs the job queue. */
export function createNewsletterTransport(env: TransportEnv, log: Logger): NewsletterTransport {
  const kind = newsletterTransportKind(env);
  if (kind === "smtp") return smtpTransport(env, log);
  if (kind === "ses") return sesTransport(env, log);
  return outboxTransport(env, log);
}
