/**
 * A stand-in for Amazon SNS in tests: an RSA key and a self-signed X.509 certificate made here (DER
 * written by hand with node:crypto, no openssl needed), and messages signed as SNS signs them.
 */
import { createSign, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import type { SnsMessage } from "~/domain/newsletters/newsletter-sns.server";

/**
 * What SNS signs, written out here apart from the endpoint's own code (so a mistake there fails the
 * tests): "Key\nValue\n" for each field of the type's list, in this order, an absent Subject skipped.
 */
const SIGNED = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
} as const;

function stringToSign(message: Omit<SnsMessage, "Signature">): string {
  const fields = message as unknown as Record<string, string | undefined>;
  return SIGNED[message.Type].map((key) => (fields[key] === undefined ? "" : `${key}\n${fields[key]}\n`)).join("");
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const sequence = (...items: Buffer[]) => tlv(0x30, ...items);
/** A serial number: DER wants the shortest form, so the first byte is 0x01–0x7f (no padding, not negative). */
const serial = () => tlv(0x02, Buffer.from([1 + Math.floor(Math.random() * 0x7f), ...randomBytes(7)]));
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const bytes = [a! * 40 + b!];
  for (const part of rest) {
    const chunk: number[] = [part & 0x7f];
    for (let value = part >> 7; value > 0; value >>= 7) chunk.unshift((value & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}
const utcTime = (date: Date) => tlv(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-:T]/g, "")}Z`));
const name = (commonName: string) => sequence(tlv(0x31, sequence(oid("2.5.4.3"), tlv(0x0c, Buffer.from(commonName)))));

/** A self-signed certificate (X.509 v1, sha256WithRSAEncryption) for the key pair, valid from `from` to `to`. */
export function selfSignedCertificate(keys: { publicKey: KeyObject; privateKey: KeyObject }, commonName: string, from: Date, to: Date): string {
  const algorithm = sequence(oid("1.2.840.113549.1.1.11"), tlv(0x05));
  const spki = keys.publicKey.export({ type: "spki", format: "der" });
  const tbs = sequence(serial(), algorithm, name(commonName), sequence(utcTime(from), utcTime(to)), name(commonName), spki);
  const signature = createSign("RSA-SHA256").update(tbs).sign(keys.privateKey);
  const der = sequence(tbs, algorithm, tlv(0x03, Buffer.from([0]), signature));
  return `-----BEGIN CERTIFICATE-----\n${der.toString("base64").match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
}

export interface FakeSns {
  certificatePem: string;
  /** Fills in Signature (for SignatureVersion "1" or "2") over the message's canonical string. */
  sign<T extends Omit<SnsMessage, "Signature">>(message: T): T & { Signature: string };
}

export function fakeSns(options: { validFrom?: Date; validTo?: Date } = {}): FakeSns {
  const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const certificatePem = selfSignedCertificate(
    keys,
    "sns.amazonaws.com",
    options.validFrom ?? new Date(Date.now() - 86_400_000),
    options.validTo ?? new Date(Date.now() + 365 * 86_400_000),
  );
  return {
    certificatePem,
    sign(message) {
      const algorithm = message.SignatureVersion === "1" ? "RSA-SHA1" : "RSA-SHA256";
      const Signature = createSign(algorithm)
        .update(stringToSign(message), "utf8")
        .sign(keys.privateKey, "base64");
      return { ...message, Signature };
    },
  };
}
