import { and, eq } from "drizzle-orm";
import pino from "pino";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { newsletters, newsletterSends, sendRecipients, subscribers, subscriptions } from "~/db/schema";
import { createTestDatabase } from "../../../tests/setup/test-database";
import { fakeSns } from "../../../tests/setup/sns-signer";
import { canonicalString, createSnsVerifier, isSnsUrl, receiveSnsMessage, sendIdOfMail, type SnsMessage } from "./newsletter-sns.server";

// SES bounce and complaint notifications through SNS (issue 30): the signature is checked against a
// certificate made here (served by an injected fetcher: the host rules still apply to its URL), and
// the effects are read back from PostgreSQL.

const { db } = await createTestDatabase();
const log = pino({ level: "silent" });
const TOPIC = "arn:aws:sns:eu-west-1:123456789012:frontpage-ses";
const CERT_URL = "https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem";
const sns = fakeSns();

function fetcher(pem = sns.certificatePem) {
  return vi.fn(async (_url: string) => pem);
}

function notification(message: unknown, overrides: Partial<SnsMessage> = {}): Omit<SnsMessage, "Signature"> {
  return {
    Type: "Notification",
    MessageId: crypto.randomUUID(),
    TopicArn: TOPIC,
    Message: JSON.stringify(message),
    Timestamp: new Date().toISOString(),
    SignatureVersion: "2",
    SigningCertURL: CERT_URL,
    ...overrides,
  } as Omit<SnsMessage, "Signature">;
}

async function subscriber(email: string, status: "active" | "unsubscribed" = "active") {
  const [row] = await db.insert(subscribers).values({ email, status, tokenKey: "k" }).returning();
  const [stories] = await db.select().from(newsletters).where(eq(newsletters.slug, "stories"));
  await db.insert(subscriptions).values({ subscriberId: row!.id, newsletterId: stories!.id });
  return { ...row!, newsletterId: stories!.id };
}

async function sendTo(...people: { id: string; email: string; newsletterId: string }[]) {
  const [send] = await db.insert(newsletterSends).values({ newsletterId: people[0]!.newsletterId, kind: "digest", status: "sending", subject: "Today" }).returning();
  await db.insert(sendRecipients).values(people.map((p) => ({ sendId: send!.id, subscriberId: p.id, email: p.email, status: "sent" as const, sentAt: new Date() })));
  return send!.id;
}

const statusOf = async (id: string) => (await db.select().from(subscribers).where(eq(subscribers.id, id)))[0]!;
const recipientOf = async (sendId: string, subscriberId: string) =>
  (await db.select().from(sendRecipients).where(and(eq(sendRecipients.sendId, sendId), eq(sendRecipients.subscriberId, subscriberId))))[0]!;
/** Who a send to the newsletter would go to: its active subscribers. */
const activeSubscribersOf = async (newsletterId: string) =>
  (
    await db
      .select({ id: subscribers.id })
      .from(subscribers)
      .innerJoin(subscriptions, eq(subscriptions.subscriberId, subscribers.id))
      .where(and(eq(subscriptions.newsletterId, newsletterId), eq(subscribers.status, "active")))
  ).map((row) => row.id);

const bounce = (email: string, bounceType: string, sendId?: string) => ({
  notificationType: "Bounce",
  bounce: { bounceType, bounceSubType: bounceType === "Permanent" ? "General" : "MailboxFull", bouncedRecipients: [{ emailAddress: email, diagnosticCode: "smtp; 550 5.1.1 user unknown" }] },
  mail: { messageId: "0100018b", headers: sendId ? [{ name: "X-Frontpage-Send", value: sendId }] : [] },
});

describe("the SNS message's canonical string", () => {
  it("is Key\\nValue\\n per signed field, Subject only when present", () => {
    const base = { MessageId: "m", TopicArn: "t", Message: "hello", Timestamp: "2026-01-01T00:00:00.000Z", SignatureVersion: "1", Signature: "", SigningCertURL: "u" } as const;
    expect(canonicalString({ ...base, Type: "Notification" })).toBe("Message\nhello\nMessageId\nm\nTimestamp\n2026-01-01T00:00:00.000Z\nTopicArn\nt\nType\nNotification\n");
    expect(canonicalString({ ...base, Type: "Notification", Subject: "s" })).toContain("MessageId\nm\nSubject\ns\nTimestamp\n");
    expect(canonicalString({ ...base, Type: "SubscriptionConfirmation", SubscribeURL: "https://x", Token: "tok" })).toBe(
      "Message\nhello\nMessageId\nm\nSubscribeURL\nhttps://x\nTimestamp\n2026-01-01T00:00:00.000Z\nToken\ntok\nTopicArn\nt\nType\nSubscriptionConfirmation\n",
    );
  });
});

describe("SNS's host", () => {
  it("is exactly sns.<the topic's region>.amazonaws.com, over https, for a .pem", () => {
    expect(isSnsUrl(CERT_URL, "eu-west-1", "certificate")).toBe(true);
    expect(isSnsUrl("https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-1.pem", "cn-north-1", "certificate")).toBe(true);
    for (const bad of [
      "http://sns.eu-west-1.amazonaws.com/a.pem",
      "https://sns.us-east-1.amazonaws.com/a.pem",
      "https://sns.eu-west-1.amazonaws.com.evil.example/a.pem",
      "https://evil.example/sns.eu-west-1.amazonaws.com/a.pem",
      "https://sns.eu-west-1.amazonaws.com:8443/a.pem",
      "https://user@sns.eu-west-1.amazonaws.com/a.pem",
      "https://sns.eu-west-1.amazonaws.com/a.txt",
      "https://sns.eu-west-1.amazonaws.com.cn/a.pem",
      "https://xsns.eu-west-1.amazonaws.com/a.pem",
      "not a url",
    ]) {
      expect(isSnsUrl(bad, "eu-west-1", "certificate"), bad).toBe(false);
    }
  });

  it("names the send by the X-Frontpage-Send header, else the frontpage-send tag", () => {
    const id = "0b7c6f0e-1d2a-4c3b-9e8f-7a6b5c4d3e2f";
    expect(sendIdOfMail({ headers: [{ name: "x-frontpage-send", value: id }] })).toBe(id);
    expect(sendIdOfMail({ tags: { "frontpage-send": [id] } })).toBe(id);
    expect(sendIdOfMail({ headers: [{ name: "X-Frontpage-Send", value: "'; drop table" }] })).toBeNull();
    expect(sendIdOfMail(undefined)).toBeNull();
  });
});

describe("POST /api/newsletter/sns", () => {
  let fetchCertificate: ReturnType<typeof fetcher>;
  let verifier: ReturnType<typeof createSnsVerifier>;
  beforeEach(() => {
    fetchCertificate = fetcher();
    verifier = createSnsVerifier({ fetchCertificate });
  });
  const post = (message: unknown, options: { topicArn?: string | undefined; confirm?: (url: string) => Promise<void> } = {}) =>
    receiveSnsMessage(db, typeof message === "string" ? message : JSON.stringify(message), {
      topicArn: "topicArn" in options ? options.topicArn : TOPIC,
      verifier,
      log,
      confirm: options.confirm,
    });

  it("does not exist without SES_SNS_TOPIC_ARN (404)", async () => {
    expect(await post(sns.sign(notification(bounce("a@example.com", "Permanent"))), { topicArn: undefined })).toEqual({ status: 404, message: "Not Found" });
    expect(fetchCertificate).not.toHaveBeenCalled();
  });

  it("marks a permanently bounced subscriber bounced, and their row of the send the header names (signature version 2)", async () => {
    const ann = await subscriber("Ann@Example.com");
    const other = await subscriber("other@example.com");
    const sendId = await sendTo(ann, other);
    const answer = await post(sns.sign(notification(bounce("ann@example.com", "Permanent", sendId))));
    expect(answer).toEqual({ status: 200, message: "permanent bounce" });
    expect(fetchCertificate).toHaveBeenCalledWith(CERT_URL);
    expect((await statusOf(ann.id)).status).toBe("bounced");
    expect(await recipientOf(sendId, ann.id)).toMatchObject({ status: "bounced", lastError: expect.stringContaining("550 5.1.1") });
    expect((await statusOf(other.id)).status).toBe("active");
    expect((await recipientOf(sendId, other.id)).status).toBe("sent");
  });

  it("changes nothing for a transient bounce", async () => {
    const bo = await subscriber("bo@example.com");
    const sendId = await sendTo(bo);
    expect(await post(sns.sign(notification(bounce("bo@example.com", "Transient", sendId))))).toEqual({ status: 200, message: "transient bounce" });
    expect((await statusOf(bo.id)).status).toBe("active");
    expect((await recipientOf(sendId, bo.id)).status).toBe("sent");
  });

  it("unsubscribes a complainer from everything, marked complained (signature version 1, send named by its SES tag)", async () => {
    const cy = await subscriber("cy@example.com");
    const sendId = await sendTo(cy);
    const complaint = {
      eventType: "Complaint",
      complaint: { complainedRecipients: [{ emailAddress: "cy@example.com" }], complaintFeedbackType: "abuse" },
      mail: { messageId: "0100018c", tags: { "frontpage-send": [sendId] } },
    };
    const answer = await post(sns.sign(notification(complaint, { SignatureVersion: "1", Subject: "Amazon SES Email Event Notification" })));
    expect(answer).toEqual({ status: 200, message: "complaint" });
    const row = await statusOf(cy.id);
    expect(row.status).toBe("complained");
    expect(row.unsubscribedAt).toBeInstanceOf(Date);
    // Unsubscribed from everything: no newsletter's active subscribers hold them any more.
    expect(await activeSubscribersOf(cy.newsletterId)).not.toContain(cy.id);
    expect((await recipientOf(sendId, cy.id)).status).toBe("complained");
    // A later permanent bounce leaves a complainer complained.
    await post(sns.sign(notification(bounce("cy@example.com", "Permanent"))));
    expect((await statusOf(cy.id)).status).toBe("complained");
  });

  it("refuses a tampered message with 403 and changes nothing", async () => {
    const di = await subscriber("di@example.com");
    const signed = sns.sign(notification(bounce("someone-else@example.com", "Permanent")));
    const tampered = { ...signed, Message: JSON.stringify(bounce("di@example.com", "Permanent")) };
    expect((await post(tampered)).status).toBe(403);
    // A signature by another key, over the very same message.
    expect((await post(fakeSns().sign(notification(bounce("di@example.com", "Permanent"))))).status).toBe(403);
    // A signature of version 1 presented as version 2.
    expect((await post({ ...sns.sign(notification(bounce("di@example.com", "Permanent"), { SignatureVersion: "1" })), SignatureVersion: "2" })).status).toBe(403);
    expect((await statusOf(di.id)).status).toBe("active");
  });

  it("refuses a certificate on any other host before fetching it", async () => {
    const ed = await subscriber("ed@example.com");
    for (const url of [
      "https://sns.eu-west-1.amazonaws.com.attacker.example/cert.pem",
      "https://attacker.example/SimpleNotificationService.pem",
      "http://sns.eu-west-1.amazonaws.com/SimpleNotificationService.pem",
      "https://sns.us-east-1.amazonaws.com/SimpleNotificationService.pem",
    ]) {
      const answer = await post(sns.sign(notification(bounce("ed@example.com", "Permanent"), { SigningCertURL: url })));
      expect(answer, url).toEqual({ status: 403, message: "the signing certificate is not on SNS's host" });
    }
    expect(fetchCertificate).not.toHaveBeenCalled();
    expect((await statusOf(ed.id)).status).toBe("active");
  });

  it("refuses another topic (403) and a malformed body (400), fetching nothing", async () => {
    expect((await post(sns.sign(notification(bounce("x@example.com", "Permanent"), { TopicArn: "arn:aws:sns:eu-west-1:123456789012:other" })))).status).toBe(403);
    expect((await post("not json")).status).toBe(400);
    expect((await post({ Type: "Notification" })).status).toBe(400);
    expect((await post({ ...notification({}), Type: "Whatever" })).status).toBe(400);
    expect(fetchCertificate).not.toHaveBeenCalled();
  });

  it("refuses a certificate that has expired, and answers 503 (SNS retries) when none can be fetched", async () => {
    const old = fakeSns({ validFrom: new Date(Date.now() - 3 * 86_400_000), validTo: new Date(Date.now() - 86_400_000) });
    verifier = createSnsVerifier({ fetchCertificate: fetcher(old.certificatePem) });
    expect(await post(old.sign(notification(bounce("x@example.com", "Permanent"))))).toEqual({ status: 403, message: "the signing certificate is not valid now" });
    verifier = createSnsVerifier({
      fetchCertificate: async () => {
        throw new Error("down");
      },
    });
    expect((await post(sns.sign(notification(bounce("x@example.com", "Permanent"))))).status).toBe(503);
  });

  it("keeps certificates by URL, a bounded number of them", async () => {
    for (let i = 0; i < 3; i++) await post(sns.sign(notification({ notificationType: "Delivery" })));
    expect(fetchCertificate).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 40; i++) {
      await post(sns.sign(notification({ notificationType: "Delivery" }, { SigningCertURL: `https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-${i}.pem` })));
    }
    expect(fetchCertificate).toHaveBeenCalledTimes(41);
    expect(verifier.keptCertificates).toBe(16);
  });

  it("confirms a subscription by a GET of its SubscribeURL, only on SNS's host", async () => {
    const confirm = vi.fn(async (_url: string) => {});
    const confirmation = (SubscribeURL: string) =>
      sns.sign({
        Type: "SubscriptionConfirmation",
        MessageId: crypto.randomUUID(),
        Token: "2336412f37fb687f5d51e6e2425",
        TopicArn: TOPIC,
        Message: "You have chosen to subscribe to the topic.",
        SubscribeURL,
        Timestamp: new Date().toISOString(),
        SignatureVersion: "2",
        SigningCertURL: CERT_URL,
      });
    const good = `https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(TOPIC)}&Token=2336412f37fb687f5d51e6e2425`;
    expect(await post(confirmation(good), { confirm })).toEqual({ status: 200, message: "subscription confirmed" });
    expect(confirm).toHaveBeenCalledWith(good);
    expect((await post(confirmation("https://attacker.example/?Action=ConfirmSubscription"), { confirm })).status).toBe(403);
    expect(confirm).toHaveBeenCalledTimes(1);
    // The SubscribeURL is signed too: changed after signing, the message is refused.
    expect((await post({ ...confirmation(good), SubscribeURL: `${good}&x=1` }, { confirm })).status).toBe(403);
    expect(confirm).toHaveBeenCalledTimes(1);
  });
});
